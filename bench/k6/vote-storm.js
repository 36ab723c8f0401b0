// Vote storm: votes arrive at a constant rate (RATE per second for DURATION), from many voters (a
// fingerprint each), about a quarter of them changing an earlier vote. Each VU is one network address
// (run with --local-ips) holding a few voters per poll, as a crowd of households would: the votes
// service's production per-address cap stays on. The expected count of every logo is kept in the
// `ballots` counter (tagged poll/logo): the bench compares it with what the API reports afterwards.
// Every started vote is waited for (no vote is cut off at the end), so the expected counts are exact.
//
// bench/bench.ts runs it once per step of rising rates, with the polls it created (POLLS_FILE,
// CSRF_COOKIE) and a STEP number that keeps fingerprints apart between runs. On its own it creates
// its polls:
//
//   k6 run --local-ips 127.1.0.1-127.1.1.144 -e BASE_URL=http://127.0.0.1:8080 -e RATE=50 bench/k6/vote-storm.js
/* global __ENV, __VU, open */
import { Counter } from 'k6/metrics';
import { castVote, createPoll, csrfCookie, fingerprint, issuedVoterPass, logoFile, useCsrfCookie, voterPassCookies } from './lib/api.js';

const RATE = Number(__ENV.RATE || 50);
const DURATION = __ENV.DURATION || '15s';
const VUS = Number(__ENV.VUS || 400);
const STEP = Number(__ENV.STEP || 0);
const CHANGE_RATIO = Number(__ENV.CHANGE_RATIO || 0.25);
/** New voters one address brings to one poll; well under the service's cap of 50. */
const VOTERS_PER_ADDRESS = Number(__ENV.VOTERS_PER_ADDRESS || 5);
const P95_BUDGET_MS = Number(__ENV.P95_BUDGET_MS || 100);
const LOGOS = 4;
const POLLS_WHEN_CREATING = 4;

/** Polls created by the caller: [{ sessionId, logoIds, csrfToken }], valid with the CSRF_COOKIE cookie. */
const givenPolls = __ENV.POLLS_FILE ? JSON.parse(open(__ENV.POLLS_FILE)) : null;
const FIXTURES = ['logo-square.png', 'logo-ring.png', 'logo-triangle.jpg', 'logo-diamond.webp'];
const fixtures = givenPolls ? [] : FIXTURES.map((name) => logoFile(name, open(`../../tests/fixtures/${name}`, 'b')));
const POLLS = givenPolls ? givenPolls.length : POLLS_WHEN_CREATING;

/** Counts each logo of each poll should have: +1 for a recorded vote, -1 for the vote it replaced. */
const ballots = new Counter('ballots');
/** Votes whose outcome is unknown (no answer or a server error): the exact-count check cannot hold with any. */
const uncertain = new Counter('ballots_uncertain');

const thresholds = {
  'http_req_duration{name:vote}': [`p(95)<${P95_BUDGET_MS}`],
  'http_req_failed{name:vote}': ['rate<0.01'],
  checks: ['rate>0.99'],
  ballots_uncertain: ['count==0'],
  dropped_iterations: ['count>=0'],
};
for (let poll = 0; poll < POLLS; poll++) {
  for (let logo = 0; logo < LOGOS; logo++) thresholds[`ballots{poll:${poll},logo:${logo}}`] = ['count>=0'];
}

export const options = {
  scenarios: {
    votes: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: VUS,
      maxVUs: VUS,
      // Longer than a request may take: a vote cut off mid-flight would leave its outcome unknown.
      gracefulStop: '30s',
    },
  },
  thresholds,
  // A VU keeps its anti-forgery cookie from one iteration to the next.
  noCookiesReset: true,
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'],
};

/**
 * The polls, and the anti-forgery cookie their creation set: every VU presents it with the tokens the
 * creation answered, so the storm measures votes alone (loading the session, which also hands out a
 * token, is measured by voter-traffic.js). The service checks a vote's token the same way whoever holds it.
 */
export function setup() {
  if (givenPolls) return { polls: givenPolls, csrfCookie: __ENV.CSRF_COOKIE };
  const polls = [];
  for (let i = 0; i < POLLS; i++) polls.push(createPoll(fixtures));
  return { polls, csrfCookie: csrfCookie() };
}

/** Per VU: the voters it holds in each poll ({ id, logo, pass }). */
const vu = { ready: false, voters: [] };

const pick = (n) => Math.floor(Math.random() * n);

export default function (data) {
  if (!vu.ready) {
    useCsrfCookie(data.csrfCookie);
    vu.voters = data.polls.map(() => []);
    vu.ready = true;
  }
  const poll = pick(data.polls.length);
  const voters = vu.voters[poll];
  const changing = voters.length > 0 && (voters.length >= VOTERS_PER_ADDRESS || Math.random() < CHANGE_RATIO);
  const voter = changing ? voters[pick(voters.length)] : { id: fingerprint(STEP * 65536 + __VU, poll * 65536 + voters.length), logo: -1 };
  const logo = changing ? (voter.logo + 1 + pick(LOGOS - 1)) % LOGOS : pick(LOGOS);

  const { sessionId, logoIds, csrfToken } = data.polls[poll];
  // Each voter is a browser of its own: it presents its own voter pass, not the last one the VU's jar got.
  const res = castVote(sessionId, csrfToken, voter.id, logoIds[logo], { name: 'vote' }, '20s', voterPassCookies(voter.pass));
  voter.pass = issuedVoterPass(res) || voter.pass;
  if (res.status === 200) {
    if (voter.logo >= 0) ballots.add(-1, { poll: String(poll), logo: String(voter.logo) });
    ballots.add(1, { poll: String(poll), logo: String(logo) });
    voter.logo = logo;
  } else if (res.status === 0 || res.status >= 500) {
    uncertain.add(1);
  }
  if (!changing) voters.push(voter);
}

export function handleSummary(data) {
  const out = __ENV.SUMMARY_FILE;
  return out ? { [out]: JSON.stringify(data) } : { stdout: JSON.stringify(data.metrics, null, 2) };
}

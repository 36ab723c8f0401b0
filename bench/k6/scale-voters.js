// Real voter flows, to fill the store: each iteration is a new visitor (k6 empties the cookie jar before
// every iteration, and the fingerprint is its own) who does what the voting page does: load the
// session, ask whether it already voted, vote. One network address per VU (--local-ips); iteration i
// of a VU votes in poll i % POLLS, so no address brings more than ITERATIONS / POLLS voters to a poll
// (5 at most, the votes service's cap before a proof of work): voters spread over 50 polls with 250
// iterations, or all on one poll (a file of one) with 5, each batch from fresh addresses.
//
//   k6 run --local-ips 127.20.0.1-127.20.0.100 -e POLLS_FILE=polls.json -e VUS=100 -e ITERATIONS=250 -e BATCH=0 bench/k6/scale-voters.js
/* global __ENV, __VU, open */
import exec from 'k6/execution';
import { castVote, fingerprint, loadSession, myVote } from './lib/api.js';

const VUS = Number(__ENV.VUS || 100);
const ITERATIONS = Number(__ENV.ITERATIONS || 250);
/** Keeps the fingerprints of one batch apart from every other batch's. */
const BATCH = Number(__ENV.BATCH || 0);
const polls = JSON.parse(open(__ENV.POLLS_FILE));

export const options = {
  scenarios: { voters: { executor: 'per-vu-iterations', vus: VUS, iterations: ITERATIONS, maxDuration: '60m' } },
  thresholds: {
    http_req_failed: ['rate==0'],
    checks: ['rate==1'],
    'http_req_duration{name:session}': ['p(95)>=0'],
    'http_req_duration{name:my_vote}': ['p(95)>=0'],
    'http_req_duration{name:vote}': ['p(95)>=0'],
  },
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export default function () {
  const iteration = exec.vu.iterationInScenario;
  const poll = polls[iteration % polls.length];
  const voter = fingerprint(BATCH * 65536 + __VU, iteration);
  const session = loadSession(poll.sessionId);
  myVote(poll.sessionId, voter);
  // Logo by iteration: the expected counts follow from the schedule alone.
  castVote(poll.sessionId, session.json('csrfToken'), voter, poll.logoIds[Math.floor(iteration / polls.length) % poll.logoIds.length]);
}

export function handleSummary(data) {
  return { [__ENV.SUMMARY_FILE]: JSON.stringify(data) };
}

// Mixed voter traffic: new visitors arrive at a constant rate and each does what the voting page and
// the results page do: load the session, load its logo images, ask whether it already voted, vote,
// then read the results. One network address per VU (--local-ips).
//
//   k6 run --local-ips 127.0.3.1-127.0.3.100 -e BASE_URL=http://127.0.0.1:8080 -e RATE=10 bench/k6/voter-traffic.js
/* global __ENV, __VU, open */
import http from 'k6/http';
import { check } from 'k6';
import exec from 'k6/execution';
import { BASE_URL, castVote, createPoll, fingerprint, loadSession, logoFile, myVote } from './lib/api.js';

const RATE = Number(__ENV.RATE || 10);
const DURATION = __ENV.DURATION || '30s';
const VUS = Number(__ENV.VUS || 100);
const POLLS = Number(__ENV.POLLS || 2);

const FIXTURES = ['logo-square.png', 'logo-ring.png', 'logo-triangle.jpg', 'logo-diamond.webp'];
const fixtures = FIXTURES.map((name) => logoFile(name, open(`../../tests/fixtures/${name}`, 'b')));

export const options = {
  scenarios: {
    voters: { executor: 'constant-arrival-rate', rate: RATE, timeUnit: '1s', duration: DURATION, preAllocatedVUs: VUS, maxVUs: VUS },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    'http_req_duration{name:session}': ['p(95)<200'],
    'http_req_duration{name:logo}': ['p(95)<100'],
    'http_req_duration{name:my_vote}': ['p(95)<100'],
    'http_req_duration{name:vote}': ['p(95)<100'],
    'http_req_duration{name:results}': ['p(95)<200'],
    'iteration_duration{scenario:voters}': ['p(95)>=0'],
    'dropped_iterations{scenario:voters}': ['count>=0'],
  },
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  const polls = [];
  for (let i = 0; i < POLLS; i++) polls.push(createPoll(fixtures));
  return { polls };
}

export default function (data) {
  // A new visitor: no cookie yet (k6 empties the cookie jar before every iteration), a fingerprint of its own.
  const { sessionId, logoIds, filenames } = data.polls[exec.scenario.iterationInTest % data.polls.length];
  const voter = fingerprint(__VU, exec.scenario.iterationInTest);

  const session = loadSession(sessionId);
  const images = http.batch(filenames.map((file) => ['GET', `${BASE_URL}/api/logos/${file}`, null, { tags: { name: 'logo' } }]));
  check(images, { 'logos loaded': (all) => all.every((r) => r.status === 200) });
  myVote(sessionId, voter);
  castVote(sessionId, session.json('csrfToken'), voter, logoIds[Math.floor(Math.random() * logoIds.length)]);
  loadSession(sessionId, { name: 'results' });
}

export function handleSummary(data) {
  const out = __ENV.SUMMARY_FILE;
  return out ? { [out]: JSON.stringify(data) } : { stdout: JSON.stringify(data.metrics, null, 2) };
}

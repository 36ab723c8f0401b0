// The hot paths timed one request at a time, at a given number of stored votes: a session view, a
// first vote, a my-vote, a changed vote and the admin list's first page. One network address, a new
// visitor per iteration (ITERATIONS / POLLS voters per poll, under the per-address cap).
//
//   k6 run --local-ips 127.30.0.1 -e POLLS_FILE=polls.json -e ITERATIONS=100 -e ADMIN_AUTH='Basic ...' bench/k6/scale-probe.js
/* global __ENV, open */
import http from 'k6/http';
import { check } from 'k6';
import exec from 'k6/execution';
import { BASE_URL, castVote, fingerprint, loadSession, myVote } from './lib/api.js';

const ITERATIONS = Number(__ENV.ITERATIONS || 100);
/** Keeps each probe's visitors apart from every other run's. */
const PROBE = Number(__ENV.PROBE || 0);
const polls = JSON.parse(open(__ENV.POLLS_FILE));

export const options = {
  scenarios: { probe: { executor: 'per-vu-iterations', vus: 1, iterations: ITERATIONS, maxDuration: '30m' } },
  thresholds: {
    http_req_failed: ['rate==0'],
    checks: ['rate==1'],
    'http_req_duration{name:session_view}': ['p(95)>=0'],
    'http_req_duration{name:first_vote}': ['p(95)>=0'],
    'http_req_duration{name:my_vote}': ['p(95)>=0'],
    'http_req_duration{name:changed_vote}': ['p(95)>=0'],
    'http_req_duration{name:admin_page}': ['p(95)>=0'],
  },
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export default function () {
  const iteration = exec.vu.iterationInScenario;
  const poll = polls[iteration % polls.length];
  const voter = fingerprint(0xffff0000 + PROBE, iteration);
  const session = loadSession(poll.sessionId, { name: 'session_view' });
  const token = session.json('csrfToken');
  castVote(poll.sessionId, token, voter, poll.logoIds[0], { name: 'first_vote' });
  myVote(poll.sessionId, voter, { name: 'my_vote' });
  castVote(poll.sessionId, token, voter, poll.logoIds[1], { name: 'changed_vote' });
  const admin = http.get(`${BASE_URL}/api/admin/polls`, { headers: { Authorization: __ENV.ADMIN_AUTH }, tags: { name: 'admin_page' } });
  check(admin, { 'admin page loaded': (r) => r.status === 200 });
}

export function handleSummary(data) {
  return { [__ENV.SUMMARY_FILE]: JSON.stringify(data) };
}

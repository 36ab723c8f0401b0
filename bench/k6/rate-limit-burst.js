// Rate-limit burst: one client address sends API calls far faster than the gateway's per-address limit
// (API_RATE_LIMIT, 50 r/s with a burst of API_RATE_BURST, 200, on the local stacks) for BURST_SECONDS, then
// slows to a polite rate. The limit must hold: every answer is a 200 or the gateway's JSON 429 with
// Retry-After, nothing else (no 5xx, no connection error: http_req_failed counts anything but 200 and 429),
// the share served stays near the limit, and once the client slows down it is served again in full.
// Run it against a gateway with its production limits (not the bench's raised ones), from one address:
//
//   k6 run --no-usage-report -e BASE_URL=http://127.0.0.1:8080 bench/k6/rate-limit-burst.js
/* global __ENV, open */
import http from 'k6/http';
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import { BASE_URL, createPoll, fingerprint, logoFile } from './lib/api.js';

const BURST_RATE = Number(__ENV.BURST_RATE || 400);
const BURST_SECONDS = Number(__ENV.BURST_SECONDS || 10);
const CALM_RATE = Number(__ENV.CALM_RATE || 10);
const CALM_SECONDS = Number(__ENV.CALM_SECONDS || 5);
/** Seconds between the burst and the calm phase: the per-address bucket refills meanwhile. */
const PAUSE_SECONDS = 3;
const RATE_LIMITED = { message: 'Too many requests. Please slow down and try again in a moment.' };

const logos = [
  logoFile('logo-ring.png', open('../../tests/fixtures/logo-ring.png', 'b')),
  logoFile('logo-square.png', open('../../tests/fixtures/logo-square.png', 'b')),
];

const served = new Counter('served');
const limited = new Counter('limited');

// A 429 is the limit working, not a failure (201: the poll made in setup); any other answer, or none, is a failure.
http.setResponseCallback(http.expectedStatuses(200, 201, 429));

export const options = {
  scenarios: {
    burst: {
      executor: 'constant-arrival-rate',
      rate: BURST_RATE,
      timeUnit: '1s',
      duration: `${BURST_SECONDS}s`,
      preAllocatedVUs: 100,
      maxVUs: 400,
    },
    calm: {
      executor: 'constant-arrival-rate',
      rate: CALM_RATE,
      timeUnit: '1s',
      duration: `${CALM_SECONDS}s`,
      startTime: `${BURST_SECONDS + PAUSE_SECONDS}s`,
      preAllocatedVUs: 5,
      maxVUs: 20,
    },
  },
  thresholds: {
    http_req_failed: ['rate==0'],
    'checks{scenario:burst}': ['rate==1'],
    'checks{scenario:calm}': ['rate==1'],
    'limited{scenario:burst}': ['count>0'],
    'limited{scenario:calm}': ['count==0'],
    'served{scenario:burst}': ['count>0'],
  },
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  return createPoll(logos);
}

/** Reads a poll and a visitor's vote status in turn, as the voting page does on arrival. */
export default function (poll) {
  const read = Math.random() < 0.5;
  const res = read
    ? http.get(`${BASE_URL}/api/sessions/${poll.sessionId}`, { tags: { name: 'session' } })
    : http.get(`${BASE_URL}/api/sessions/${poll.sessionId}/my-vote`, {
        headers: { 'X-Client-Fingerprint': fingerprint(Date.now(), Math.random() * 2 ** 32) },
        tags: { name: 'my_vote' },
      });
  if (res.status === 429) limited.add(1);
  else if (res.status === 200) served.add(1);
  check(res, {
    'served, or refused by the rate limit': (r) => r.status === 200 || r.status === 429,
    'a refusal is the JSON 429 with Retry-After': (r) =>
      r.status !== 429 || (r.headers['Retry-After'] === '1' && r.body === JSON.stringify(RATE_LIMITED)),
  });
}

export function handleSummary(data) {
  const out = __ENV.SUMMARY_FILE;
  return out ? { [out]: JSON.stringify(data) } : { stdout: JSON.stringify(data.metrics, null, 2) };
}

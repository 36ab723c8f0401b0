// Poll creation with four large logos (LOGO_FILES: paths of real image files, e.g. four 2 MB PNGs),
// one creation at a time as creators do. The sessions service names its phases in a Server-Timing
// header (checks = type sniffing, decoding and content moderation; store = database and object
// store), recorded here as trends so the report can say how much of a creation is moderation.
//
//   k6 run -e BASE_URL=http://127.0.0.1:8080 -e LOGO_FILES=/tmp/a.png,/tmp/b.png,/tmp/c.png,/tmp/d.png bench/k6/create-poll.js
/* global __ENV, open */
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import { logoFile, postPoll } from './lib/api.js';

const ITERATIONS = Number(__ENV.ITERATIONS || 8);
const paths = (__ENV.LOGO_FILES || '').split(',').filter(Boolean);
if (paths.length === 0) throw new Error('LOGO_FILES must name the logo files to upload (comma-separated)');
const logos = paths.map((path) => logoFile(path, open(path, 'b')));

const phases = { checks: new Trend('create_checks', true), store: new Trend('create_store', true) };

export const options = {
  scenarios: { creators: { executor: 'per-vu-iterations', vus: 1, iterations: ITERATIONS, maxDuration: '10m' } },
  thresholds: {
    'http_req_failed{name:create}': ['rate<0.01'],
    checks: ['rate>0.99'],
    'http_req_duration{name:create}': ['p(95)<10000'],
    create_checks: ['p(95)>=0'],
    create_store: ['p(95)>=0'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'max'],
};

/** `name;dur=12.3, other;dur=4` → { name: 12.3, other: 4 } */
function serverTiming(header) {
  const timings = {};
  for (const entry of (header || '').split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const duration = params.map((param) => /^\s*dur=([\d.]+)/.exec(param)).find(Boolean);
    if (name && duration) timings[name] = Number(duration[1]);
  }
  return timings;
}

export function setup() {
  // The first creation after start-up may still wait for the classifier to load: not measured.
  check(postPoll(logos, { name: 'warm_up' }), { 'warm-up poll created': (r) => r.status === 201 });
}

export default function () {
  const res = postPoll(logos);
  check(res, { 'poll created': (r) => r.status === 201 && r.json('logos').length === logos.length });
  const timings = serverTiming(res.headers['Server-Timing']);
  for (const [name, trend] of Object.entries(phases)) if (timings[name] !== undefined) trend.add(timings[name]);
}

export function handleSummary(data) {
  const out = __ENV.SUMMARY_FILE;
  return out ? { [out]: JSON.stringify(data) } : { stdout: JSON.stringify(data.metrics, null, 2) };
}

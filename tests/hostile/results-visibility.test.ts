/**
 * Results withheld until a vote or the close (docs/results-visibility.md) against callers who want the counts
 * anyway, through the gateway: a visitor, a voter of a poll whose results show when voting closes, forged
 * creator tokens and results passes. No read gives them a count or a reason: the session view, the CSV, the live
 * stream, the reasons and their themes, the link preview and the page's HTML (where the gateway embeds the poll).
 */
import type { CreatedSessionWithCreatorToken, ResultsVisibility, SessionView } from '@logovote/contracts';
import { CREATOR_ONLY, RESULTS_PASS_COOKIE, RESULTS_WITHHELD } from '@logovote/contracts';
import { randomFingerprint } from '../support/polls';
import { testStack } from '../support/stack-env';
import { validImages } from './support/fixtures';
import { INTERNAL_DETAILS, call, jsonMessage, multipart, targetOf, type Answer } from './support/http';
import { tokenFor } from './support/polls';

const { gatewayUrl } = testStack();
/** Client addresses of this file's own, so the gateway's per-address rate limit counts them apart. */
let calls = 0;
const target = () => targetOf(gatewayUrl, `127.0.23.${1 + ((calls += 1) % 40)}`);
/** One address for the voters, so each keeps its network (the voter's key) from vote to read. */
const voterTarget = targetOf(gatewayUrl, '127.0.24.1');

async function createPoll(resultsVisibility: ResultsVisibility, channels: string[] = []): Promise<CreatedSessionWithCreatorToken> {
  const images = await validImages();
  const { body, contentType } = multipart([
    { name: 'resultsVisibility', data: resultsVisibility },
    ...channels.map((data) => ({ name: 'channels', data })),
    ...[images.png, images.jpeg].map((data, index) => ({ name: 'logos', filename: `logo-${index}.png`, type: 'image/png', data })),
  ]);
  const answer = await call(target(), { method: 'POST', path: '/api/sessions', headers: { 'Content-Type': contentType }, body });
  if (answer.status !== 201) throw new Error(`poll creation answered ${answer.status}: ${answer.body}`);
  return JSON.parse(answer.body) as CreatedSessionWithCreatorToken;
}

/** A vote for `logoId` with a reason, as a browser casts it; the browser's cookies and fingerprint afterwards. */
async function voteWithReason(sessionId: string, logoId: string): Promise<{ cookie: string; fingerprint: string }> {
  const fingerprint = randomFingerprint();
  const { cookie, token } = await tokenFor(voterTarget, sessionId);
  const headers = { Cookie: cookie, 'X-CSRF-Token': token, 'X-Client-Fingerprint': fingerprint, 'Content-Type': 'application/json' };
  const vote = await call(voterTarget, {
    method: 'POST',
    path: `/api/sessions/${sessionId}/vote`,
    headers,
    body: JSON.stringify({ logoId }),
  });
  expect(vote.status).toBe(200);
  const voterPass = /lv_voter_pass=[^;]+/.exec(vote.headers['set-cookie'] ?? '')![0];
  const withVoter = { ...headers, Cookie: `${cookie}; ${voterPass}` };
  const reason = await call(voterTarget, {
    method: 'PUT',
    path: `/api/sessions/${sessionId}/reason`,
    headers: withVoter,
    body: JSON.stringify({ reason: 'Secret reason 42' }),
  });
  expect(reason.status).toBe(200);
  return { cookie: withVoter.Cookie, fingerprint };
}

const read = (path: string, headers: Record<string, string> = {}, from = target()) => call(from, { method: 'GET', path, headers });

/**
 * Every read of the poll's results by a caller sending `headers`, from `from`; the live stream only where it
 * must be refused (an open stream would not end).
 */
async function everyRead(poll: CreatedSessionWithCreatorToken, headers: Record<string, string>, from = target(), withLive = true) {
  const id = poll.sessionId;
  return {
    view: await read(`/api/sessions/${id}`, headers, from),
    csv: await read(`/api/sessions/${id}/results.csv`, headers, from),
    channels: await read(`/api/sessions/${id}/channels`, headers, from),
    live: withLive ? await read(`/api/sessions/${id}/live`, headers, from) : undefined,
    reasons: await Promise.all(poll.logos.map((logo) => read(`/api/sessions/${id}/reasons?logoId=${logo.id}`, headers, from))),
    themes: await read(`/api/sessions/${id}/themes`, headers, from),
    resultsPage: await read(`/results/${id}`, headers, from),
    votePage: await read(`/vote/${id}`, headers, from),
  };
}

/** Refused as the creator's alone (docs/results-visibility.md, "Who sees which part"): a JSON 403 that carries nothing of the poll. */
function expectCreatorOnly(answer: Answer, message: string): void {
  expect(answer.status).toBe(403);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(jsonMessage(answer)).toBe(message);
  expect(answer.body).not.toMatch(INTERNAL_DETAILS);
  expect(answer.body).not.toMatch(/Secret reason|Logo A|Instagram/);
}

function expectRefused(answer: Answer, message: string): void {
  expect(answer.status).toBe(403);
  expect(jsonMessage(answer)).toBe(message);
  expect(answer.body).not.toMatch(INTERNAL_DETAILS);
  expect(answer.body).not.toContain('Secret reason');
}

/** What a page's HTML embeds of the poll (the gateway's template), HTML-unescaped. */
function embeddedPoll(html: string): SessionView & { resultsWithheldUntil?: string } {
  const text = /<template id="logovote-poll">([^<]*)<\/template>/.exec(html)?.[1] ?? '';
  return JSON.parse(
    text
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  ) as SessionView & {
    resultsWithheldUntil?: string;
  };
}

function expectNothingShown(reads: Awaited<ReturnType<typeof everyRead>>, until: 'voted' | 'closed'): void {
  const view = JSON.parse(reads.view.body) as SessionView & { resultsWithheldUntil?: string };
  expect(view.resultsWithheldUntil).toBe(until);
  expect(view.totalVotes).toBe(0);
  expect(view.logos.every((logo) => logo.voteCount === 0)).toBe(true);
  expectRefused(reads.csv, RESULTS_WITHHELD[until]);
  expectRefused(reads.channels, RESULTS_WITHHELD[until]);
  expectRefused(reads.live!, RESULTS_WITHHELD[until]);
  for (const reasons of reads.reasons) expectRefused(reasons, RESULTS_WITHHELD[until]);
  expectRefused(reads.themes, RESULTS_WITHHELD[until]);
  for (const page of [reads.resultsPage, reads.votePage]) {
    expect(page.status).toBe(200);
    const embedded = embeddedPoll(page.body);
    expect(embedded.resultsWithheldUntil).toBe(until);
    expect(embedded.totalVotes).toBe(0);
    expect(embedded.logos.every((logo) => logo.voteCount === 0)).toBe(true);
    // The link preview's tags: no count, no percentage, no reason.
    const tags = page.body.match(/<meta (property|name)="(og|twitter):[^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.join('\n')).not.toMatch(/\d+ votes?\b|\d+\s*%|Secret reason/);
  }
}

let afterVote: CreatedSessionWithCreatorToken;
let afterClose: CreatedSessionWithCreatorToken;
let afterVoteVoter: { cookie: string; fingerprint: string };
let afterCloseVoter: { cookie: string; fingerprint: string };

beforeAll(async () => {
  [afterVote, afterClose] = [await createPoll('after-vote'), await createPoll('after-close')];
  afterVoteVoter = await voteWithReason(afterVote.sessionId, afterVote.logos[0]!.id);
  afterCloseVoter = await voteWithReason(afterClose.sessionId, afterClose.logos[0]!.id);
  await voteWithReason(afterClose.sessionId, afterClose.logos[1]!.id);
});

describe('a poll whose results show after a vote', () => {
  it('shows a visitor nothing through any read', async () => {
    expectNothingShown(await everyRead(afterVote, {}), 'voted');
  });

  it('shows a visitor nothing with another browser’s fingerprint, a made-up voter pass or a forged creator token', async () => {
    const forged: Record<string, string>[] = [
      { 'X-Client-Fingerprint': randomFingerprint() },
      {
        Cookie: `lv_voter_pass=${Buffer.from(`${afterVote.sessionId}:${randomFingerprint()}:0000000000000000`).toString('base64url')}.${'A'.repeat(43)}`,
      },
      { 'X-Creator-Token': afterClose.creatorToken },
      { 'X-Creator-Token': `${afterVote.creatorToken.slice(0, -1)}${afterVote.creatorToken.endsWith('x') ? 'y' : 'x'}` },
      { 'X-Creator-Token': '{"$ne":null}' },
    ];
    for (const headers of forged) {
      expectNothingShown(await everyRead(afterVote, headers), 'voted');
    }
  });

  it('shows the voter the counts and reasons, not the creator’s CSV or channels, and no page HTML embeds them even for the voter', async () => {
    const reads = await everyRead(afterVote, { Cookie: afterVoteVoter.cookie }, voterTarget, false);
    expect((JSON.parse(reads.view.body) as SessionView).totalVotes).toBe(1);
    expectCreatorOnly(reads.csv, CREATOR_ONLY.export);
    expectCreatorOnly(reads.channels, CREATOR_ONLY.channels);
    expect(reads.reasons[0]!.body).toContain('Secret reason 42');
    expect(reads.themes.status).toBe(200);
    // The gateway embeds what an anonymous visitor sees, whatever the page request carries.
    for (const page of [reads.resultsPage, reads.votePage]) expect(embeddedPoll(page.body).resultsWithheldUntil).toBe('voted');
  });
});

describe('a poll whose results show when voting closes', () => {
  it('shows its own voters nothing, by cookie or by fingerprint', async () => {
    const headers = { Cookie: afterCloseVoter.cookie, 'X-Client-Fingerprint': afterCloseVoter.fingerprint };
    expectNothingShown(await everyRead(afterClose, headers, voterTarget), 'closed');
  });

  it('embeds nothing in a page requested with the creator token itself', async () => {
    const reads = await everyRead(afterClose, { 'X-Creator-Token': afterClose.creatorToken }, target(), false);
    expect((JSON.parse(reads.view.body) as SessionView).totalVotes).toBe(2);
    for (const page of [reads.resultsPage, reads.votePage]) expect(embeddedPoll(page.body).resultsWithheldUntil).toBe('closed');
  });

  it('takes no forged, expired or other poll’s results pass', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    for (const pass of [`${future}.${'A'.repeat(43)}`, `1.${'A'.repeat(43)}`, 'x', `${future}.${afterClose.creatorToken}`]) {
      expectNothingShown(await everyRead(afterClose, { Cookie: `${RESULTS_PASS_COOKIE}=${pass}` }), 'closed');
    }
    // A pass made for the other poll, by its creator.
    const { cookie, token } = await tokenFor(voterTarget, afterVote.sessionId);
    const issued = await call(voterTarget, {
      method: 'POST',
      path: `/api/sessions/${afterVote.sessionId}/results-pass`,
      headers: { Cookie: cookie, 'X-CSRF-Token': token, 'X-Creator-Token': afterVote.creatorToken },
    });
    expect(issued.status).toBe(204);
    const otherPass = new RegExp(`${RESULTS_PASS_COOKIE}=[^;]+`).exec(issued.headers['set-cookie'] ?? '')![0];
    expectNothingShown(await everyRead(afterClose, { Cookie: otherPass }), 'closed');
  });

  it('gives no results pass without the poll’s creator token', async () => {
    const { cookie, token } = await tokenFor(voterTarget, afterClose.sessionId);
    for (const creatorToken of ['', afterVote.creatorToken, 'A'.repeat(6000)]) {
      const answer = await call(target(), {
        method: 'POST',
        path: `/api/sessions/${afterClose.sessionId}/results-pass`,
        headers: { Cookie: cookie, 'X-CSRF-Token': token, 'X-Creator-Token': creatorToken },
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.headers['set-cookie'] ?? '').not.toContain(RESULTS_PASS_COOKIE);
    }
  });
});

describe('a poll whose results everyone sees (the default), with channels', () => {
  it('shows its voter and a visitor the counts and reasons, and only the creator the CSV and the channels', async () => {
    const poll = await createPoll('everyone', ['Instagram', 'Newsletter']);
    const voter = await voteWithReason(poll.sessionId, poll.logos[0]!.id);
    for (const [headers, from] of [
      [{ Cookie: voter.cookie }, voterTarget],
      [{}, target()],
      [{ 'X-Creator-Token': afterVote.creatorToken }, target()],
    ] as const) {
      const reads = await everyRead(poll, headers, from, false);
      expect((JSON.parse(reads.view.body) as SessionView).totalVotes).toBe(1);
      expect(reads.reasons[0]!.body).toContain('Secret reason 42');
      expectCreatorOnly(reads.csv, CREATOR_ONLY.export);
      expectCreatorOnly(reads.channels, CREATOR_ONLY.channels);
    }
    const creator = await everyRead(poll, { 'X-Creator-Token': poll.creatorToken }, target(), false);
    expect(creator.csv.status).toBe(200);
    expect(creator.csv.body).toContain('Secret reason 42');
    expect(creator.channels.status).toBe(200);
    expect(creator.channels.body).toContain('Instagram');
  });
});

import type { AddressInfo } from 'node:net';
import request from 'supertest';
import {
  CREATOR_ONLY,
  CREATOR_TOKEN_HEADER,
  CREATOR_TOKEN_REJECTED,
  type CreatedSessionWithCreatorToken,
  FINGERPRINT_HEADER,
  RESULTS_PASS_COOKIE,
  RESULTS_WITHHELD,
  type LiveCounts,
  type ResultsVisibility,
  type ResultsVisibilityState,
  type SessionViewWithVotingState,
} from '@logovote/contracts';
import { PollModel, voterKeyOf } from '@logovote/models';
import type { Context } from 'koa';
import { CSRF_REJECTED, hashIp, voterPasses } from '@logovote/service-kit';
import { png, svg } from '../../../packages/media-pipeline/test/fixtures';
import { openEventStream } from '../../../tests/support/event-stream';
import { TEST_IP_HASH_SALT, csrfHeaders, newFingerprint } from '../../../tests/support/integration';
import { createSession, sessionsTestbed } from './support';
import { insertFirstVotes } from '@logovote/models/test-support';

const bed = sessionsTestbed('visibility');

type View = SessionViewWithVotingState & ResultsVisibilityState;

async function newPoll(resultsVisibility?: ResultsVisibility): Promise<CreatedSessionWithCreatorToken & ResultsVisibilityState> {
  let req = createSession(bed.server, [
    ['a.png', await png()],
    ['b.svg', svg()],
  ]);
  if (resultsVisibility) req = req.field('resultsVisibility', resultsVisibility);
  const res = await req;
  expect(res.status).toBe(201);
  return res.body as CreatedSessionWithCreatorToken & ResultsVisibilityState;
}

/** The address supertest's requests come from, hashed as both services hash it. */
const ipHash = hashIp(TEST_IP_HASH_SALT, '127.0.0.1');
/** The Cookie header of a voter pass the votes service would give the voter with `fingerprint` on this address in the poll. */
function passOf(pollId: string, fingerprint: string): string {
  let cookie = '';
  const answer = { secure: false, cookies: { set: (name: string, value: string) => (cookie = `${name}=${value}`) } };
  voterPasses(TEST_IP_HASH_SALT).issue(answer as unknown as Context, pollId, voterKeyOf(pollId, fingerprint, ipHash));
  return cookie;
}

/** Three votes by voters elsewhere, and one by a voter on this address who has `fingerprint`. */
async function castVotes(poll: { sessionId: string; logos: { id: string }[] }, voter: { fingerprint: string }) {
  const [a, b] = poll.logos.map((logo) => logo.id) as [string, string];
  const others = [a, a, b].map((logoId, slot) => ({
    pollId: poll.sessionId,
    fingerprint: newFingerprint(),
    logoId,
    ipHash: `other-${slot}`,
    seat: 0,
  }));
  await insertFirstVotes([...others, { pollId: poll.sessionId, fingerprint: voter.fingerprint, logoId: a, ipHash, seat: 0 }]);
}

const get = (path: string, headers: Record<string, string> = {}) => request(bed.server).get(path).set(headers);
const view = async (sessionId: string, headers: Record<string, string> = {}) => {
  const res = await get(`/api/sessions/${sessionId}`, headers);
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.body as View;
};
const change = (action: 'close' | 'reopen', sessionId: string, creatorToken: string) =>
  request(bed.server).post(`/api/sessions/${sessionId}/${action}`).set(csrfHeaders(sessionId)).set(CREATOR_TOKEN_HEADER, creatorToken);
const baseUrl = () => `http://127.0.0.1:${(bed.server.address() as AddressInfo).port}`;
const live = (sessionId: string, headers: Record<string, string> = {}) =>
  openEventStream<LiveCounts | { sessionId: string }>(`${baseUrl()}/api/sessions/${sessionId}/live`, { headers });

/** Every read that shows counts or reasons, as this viewer: the view, the CSV, the live stream. */
async function reads(sessionId: string, headers: Record<string, string> = {}) {
  const stream = await live(sessionId, headers);
  stream.close();
  const csv = await get(`/api/sessions/${sessionId}/results.csv`, headers);
  return { view: await view(sessionId, headers), csv, stream };
}

function expectWithheld(got: Awaited<ReturnType<typeof reads>>, until: 'voted' | 'closed') {
  expect(got.view.resultsWithheldUntil).toBe(until);
  expect(got.view.totalVotes).toBe(0);
  expect(got.view.logos.map((logo) => logo.voteCount)).toEqual([0, 0]);
  expect(got.csv.status).toBe(403);
  expect(got.csv.body).toEqual({ message: RESULTS_WITHHELD[until] });
  expect(got.stream.status).toBe(403);
  expect(JSON.parse(got.stream.body)).toEqual({ message: RESULTS_WITHHELD[until] });
}

/** The results shown; the CSV only to the creator (`creator`), else refused as the creator's alone (docs/results-visibility.md). */
function expectShown(got: Awaited<ReturnType<typeof reads>>, creator = false) {
  expect(got.view).not.toHaveProperty('resultsWithheldUntil');
  expect(got.view.totalVotes).toBe(4);
  expect(got.view.logos.map((logo) => logo.voteCount)).toEqual([3, 1]);
  if (creator) {
    expect(got.csv.status).toBe(200);
    expect(got.csv.text).toContain(',3,75,');
  } else {
    expect(got.csv.status).toBe(403);
    expect(got.csv.body).toEqual({ message: CREATOR_ONLY.export });
  }
  expect(got.stream.status).toBe(200);
}

describe('creation', () => {
  it('stores the rule once and answers it; everyone (or no choice) stores nothing and answers the spec view', async () => {
    const ruled = await newPoll('after-vote');
    expect(ruled.resultsVisibility).toBe('after-vote');
    expect((await PollModel.findById(ruled.sessionId).lean())?.resultsVisibility).toBe('after-vote');
    for (const plain of [await newPoll('everyone'), await newPoll()]) {
      expect(plain).not.toHaveProperty('resultsVisibility');
      expect((await PollModel.findById(plain.sessionId).lean())?.resultsVisibility).toBeUndefined();
      const shown = await view(plain.sessionId);
      expect(shown).not.toHaveProperty('resultsVisibility');
      expect(shown).not.toHaveProperty('resultsWithheldUntil');
    }
  });

  it('refuses an unknown rule with a 400 JSON message', async () => {
    const res = await createSession(bed.server, [
      ['a.png', await png()],
      ['b.svg', svg()],
    ]).field('resultsVisibility', 'nobody');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'resultsVisibility: must be everyone, after-vote or after-close' });
  });
});

describe('results shown to voters after they vote', () => {
  it('withholds them from visitors and voters before their vote, shows them after it, and to the creator', async () => {
    const poll = await newPoll('after-vote');
    const voter = { fingerprint: newFingerprint() };
    const pass = passOf(poll.sessionId, voter.fingerprint);
    // Before the vote: a visitor, and the voter with a pass naming it and its fingerprint.
    expectWithheld(await reads(poll.sessionId), 'voted');
    expectWithheld(await reads(poll.sessionId, { Cookie: pass, [FINGERPRINT_HEADER]: voter.fingerprint }), 'voted');
    await castVotes(poll, voter);
    expectWithheld(await reads(poll.sessionId), 'voted');
    // After it: by its pass, wherever it is; by its fingerprint on its network.
    expectShown(await reads(poll.sessionId, { Cookie: pass }));
    expectShown(await reads(poll.sessionId, { [FINGERPRINT_HEADER]: voter.fingerprint }));
    // Another browser: another voter's pass, another fingerprint; and the voter's pass of another poll names nobody here.
    const otherVoter = newFingerprint();
    expectWithheld(await reads(poll.sessionId, { Cookie: passOf(poll.sessionId, otherVoter), [FINGERPRINT_HEADER]: otherVoter }), 'voted');
    const elsewhere = await newPoll('after-vote');
    expectWithheld(await reads(poll.sessionId, { Cookie: passOf(elsewhere.sessionId, voter.fingerprint) }), 'voted');
    // The creator, with the token; a wrong or malformed token is a visitor.
    expectShown(await reads(poll.sessionId, { [CREATOR_TOKEN_HEADER]: poll.creatorToken }), true);
    const other = await newPoll('after-vote');
    expect((await view(poll.sessionId, { [CREATOR_TOKEN_HEADER]: other.creatorToken })).resultsWithheldUntil).toBe('voted');
    expect((await view(poll.sessionId, { [CREATOR_TOKEN_HEADER]: 'x' })).resultsWithheldUntil).toBe('voted');
  });

  it('shows them to everyone while voting is closed', async () => {
    const poll = await newPoll('after-vote');
    await castVotes(poll, { fingerprint: newFingerprint() });
    expect((await change('close', poll.sessionId, poll.creatorToken)).status).toBe(200);
    expectShown(await reads(poll.sessionId));
    expect((await change('reopen', poll.sessionId, poll.creatorToken)).status).toBe(200);
    expectWithheld(await reads(poll.sessionId), 'voted');
  });
});

describe('results shown when voting closes', () => {
  it('withholds them from everyone but the creator while voting is open, voters included', async () => {
    const poll = await newPoll('after-close');
    const voter = { fingerprint: newFingerprint() };
    await castVotes(poll, voter);
    expectWithheld(await reads(poll.sessionId), 'closed');
    expectWithheld(
      await reads(poll.sessionId, { Cookie: passOf(poll.sessionId, voter.fingerprint), [FINGERPRINT_HEADER]: voter.fingerprint }),
      'closed',
    );
    const creator = await view(poll.sessionId, { [CREATOR_TOKEN_HEADER]: poll.creatorToken });
    expect(creator).toMatchObject({ resultsVisibility: 'after-close', totalVotes: 4 });
    expect(creator).not.toHaveProperty('resultsWithheldUntil');
  });

  it('shows them to everyone once closed, and a stream opened then ends when voting reopens', async () => {
    const poll = await newPoll('after-close');
    await castVotes(poll, { fingerprint: newFingerprint() });
    await change('close', poll.sessionId, poll.creatorToken);
    expectShown(await reads(poll.sessionId));
    const stream = await live(poll.sessionId);
    const counts = (await stream.waitFor((event) => 'totalVotes' in event && event.totalVotes === 4)) as LiveCounts;
    expect(counts.logos.map((logo) => logo.voteCount)).toEqual([3, 1]);
    await change('reopen', poll.sessionId, poll.creatorToken);
    await stream.ended;
    // The counts, then the ended event's data (the page then reads the poll again).
    expect(stream.events.at(-1)).toEqual({ sessionId: poll.sessionId });
    expectWithheld(await reads(poll.sessionId), 'closed');
  });
});

describe('the results pass', () => {
  const passCookie = (res: request.Response) =>
    ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith(`${RESULTS_PASS_COOKIE}=`));

  it('goes to the holder of the creator token, and shows the stream and the CSV to the browser that holds it', async () => {
    const poll = await newPoll('after-close');
    await castVotes(poll, { fingerprint: newFingerprint() });
    const res = await request(bed.server)
      .post(`/api/sessions/${poll.sessionId}/results-pass`)
      .set(csrfHeaders(poll.sessionId))
      .set(CREATOR_TOKEN_HEADER, poll.creatorToken);
    expect(res.status).toBe(204);
    const cookie = passCookie(res)!;
    expect(cookie).toMatch(new RegExp(`path=/api/sessions/${poll.sessionId};`, 'i'));
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=strict/i);
    expect(cookie).not.toContain(poll.creatorToken);
    const pass = cookie.split(';')[0]!;
    expectShown(await reads(poll.sessionId, { Cookie: pass }), true);
    // Another poll's pass, or a forged one, shows nothing.
    const other = await newPoll('after-close');
    await castVotes(other, { fingerprint: newFingerprint() });
    expectWithheld(await reads(other.sessionId, { Cookie: pass }), 'closed');
    const [expires] = pass.slice(RESULTS_PASS_COOKIE.length + 1).split('.');
    expectWithheld(await reads(poll.sessionId, { Cookie: `${RESULTS_PASS_COOKIE}=${Number(expires) + 3600}.${'A'.repeat(43)}` }), 'closed');
  });

  it('is refused without the creator token (403) or the anti-forgery token (403)', async () => {
    const poll = await newPoll('after-vote');
    const wrong = await request(bed.server).post(`/api/sessions/${poll.sessionId}/results-pass`).set(csrfHeaders(poll.sessionId));
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ message: CREATOR_TOKEN_REJECTED });
    expect(passCookie(wrong)).toBeUndefined();
    const forged = await request(bed.server)
      .post(`/api/sessions/${poll.sessionId}/results-pass`)
      .set(CREATOR_TOKEN_HEADER, poll.creatorToken);
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ message: CSRF_REJECTED });
  });
});

describe('the link preview', () => {
  it('says when the results show, and carries no count', async () => {
    const poll = await newPoll('after-vote');
    await castVotes(poll, { fingerprint: newFingerprint() });
    const tags = (await get(`/api/sessions/${poll.sessionId}/link-preview?page=results`)).text;
    expect(tags).toContain('the results are shown after you vote');
    expect(tags).not.toMatch(/\b[34] votes?\b|75\s*%/);
  });
});

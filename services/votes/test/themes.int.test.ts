/**
 * Reason themes in the votes service (docs/reasons.md, "Themes"): found by the background fold from the
 * stored reasons, never in a request; served with the results' visibility, per channel to the creator;
 * found again when reasons are given, edited or dropped by a changed vote, exact when folders race; gone
 * with the poll.
 */
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { CREATOR_TOKEN_HEADER, RESULTS_WITHHELD, ThemesResponse } from '@logovote/contracts';
import {
  PollModel,
  VoterSeatModel,
  dueThemes,
  hasVoteData,
  purgeVotesOfDeletedPolls,
  readLogoThemes,
  recordPollDeleting,
} from '@logovote/models';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { foldReasonThemes } from '../src/use-cases/fold-reason-themes';
import {
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
  connectTestDatabase,
  createPoll,
  csrfHeaders,
  dropTestDatabase,
  newFingerprint,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';

jest.setTimeout(120_000);

const config = loadConfig({
  MONGODB_URI: testDatabaseUri('themes'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  IP_HASH_SALT: TEST_IP_HASH_SALT,
  VOTES_PER_IP_PER_POLL: '1000',
  PROOF_OF_WORK_FROM_VOTER: '1000',
});
let server: Server;

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel, VoterSeatModel]);
  server = createServer(buildApp({ logger: silentLogger, config }).callback());
});
afterAll(dropTestDatabase);

/** Reasons as a bakery's voters might write them: two ideas in different words, and one that says little. */
const WARM = ['Feels cosy and homely', 'So warm, like my grandmother’s kitchen', 'Warm and friendly colours', 'Cosy, welcoming vibe'];
const READABLE = ['Easy to read from far away', 'The name is really legible', 'Clear lettering, easy to read'];
const OTHER = ['nice'];

interface Voter {
  fingerprint: string;
  ip: string;
}
let voterNumber = 0;
const newVoter = (): Voter => ({ fingerprint: newFingerprint(), ip: `10.${Math.floor(++voterNumber / 250)}.${voterNumber % 250}.7` });

const vote = (sessionId: string, voter: Voter, logoId: string, via?: string) =>
  request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', voter.fingerprint)
    .set('X-Forwarded-For', voter.ip)
    .send(via === undefined ? { logoId } : { logoId, via })
    .expect(200);

const giveReason = (sessionId: string, voter: Voter, reason: string) =>
  request(server)
    .put(`/api/sessions/${sessionId}/reason`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', voter.fingerprint)
    .set('X-Forwarded-For', voter.ip)
    .send({ reason })
    .expect(200);

/** A voter for each reason, voting for `logoId` (through `via`) and giving it. */
async function votersSaying(sessionId: string, logoId: string, reasons: readonly string[], via?: string): Promise<Voter[]> {
  const voters: Voter[] = [];
  for (const reason of reasons) {
    const voter = newVoter();
    await vote(sessionId, voter, logoId, via);
    await giveReason(sessionId, voter, reason);
    voters.push(voter);
  }
  return voters;
}

async function themesOf(sessionId: string, headers: Record<string, string> = {}): Promise<ThemesResponse> {
  const res = await request(server).get(`/api/sessions/${sessionId}/themes`).set(headers);
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return ThemesResponse.parse(res.body);
}

/** Folds until nothing is due (a pass folds a bounded number of logos). */
async function foldAll(): Promise<void> {
  while ((await dueThemes(1)).length > 0) await foldReasonThemes();
}

describe('GET themes', () => {
  it('answers each logo in the poll order, with no themes before the background fold has found them', async () => {
    const { sessionId, logoIds } = await createPoll({ logos: 2 });
    await votersSaying(sessionId, logoIds[0]!, [...WARM, ...READABLE]);
    // Reasons are stored and their logo is due; the request path never finds themes itself.
    expect((await themesOf(sessionId)).logos).toEqual([
      { logoId: logoIds[0], reasons: 0, themes: [] },
      { logoId: logoIds[1], reasons: 0, themes: [] },
    ]);
    await foldAll();
    const [first, second] = (await themesOf(sessionId)).logos;
    expect(second).toEqual({ logoId: logoIds[1], reasons: 0, themes: [] });
    expect(first!.reasons).toBe(WARM.length + READABLE.length);
    expect(first!.themes.length).toBeGreaterThanOrEqual(2);
    for (const theme of first!.themes) {
      expect(theme.count).toBeGreaterThanOrEqual(2);
      expect(theme.quotes.length).toBeGreaterThanOrEqual(1);
      // Every quote is a voter's reason word for word.
      for (const quote of theme.quotes) expect([...WARM, ...READABLE]).toContain(quote);
    }
    const warm = first!.themes.find((theme) => theme.quotes.every((quote) => WARM.includes(quote)));
    expect(warm?.count).toBe(WARM.length);
    // The members stay on the server (the CSV's theme column reads them); the answer has labels, counts and quotes.
    const raw = (await request(server).get(`/api/sessions/${sessionId}/themes`)).body as { logos: { themes: object[] }[] };
    expect(Object.keys(raw.logos[0]!.themes[0]!).sort()).toEqual(['count', 'label', 'quotes']);
  });

  it('gives a logo with fewer than five reasons no themes, and counts its reasons', async () => {
    const { sessionId, logoIds } = await createPoll({ logos: 2 });
    await votersSaying(sessionId, logoIds[1]!, WARM.slice(0, 3));
    await foldAll();
    expect((await themesOf(sessionId)).logos[1]).toEqual({ logoId: logoIds[1], reasons: 3, themes: [] });
  });

  it('withholds themes with the results, and answers 404 for an unknown poll', async () => {
    const { sessionId } = await createPoll({ logos: 2 });
    await PollModel.updateOne({ _id: sessionId }, { $set: { resultsVisibility: 'after-vote' } });
    const res = await request(server).get(`/api/sessions/${sessionId}/themes`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: RESULTS_WITHHELD.voted });
    const unknown = await request(server).get('/api/sessions/AAAAAAAAAAAAAAAA/themes');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Voting session not found' });
  });
});

describe('the fold', () => {
  it('finds a logo’s themes again when a changed vote drops a reason, and when a reason is edited', async () => {
    const { sessionId, logoIds } = await createPoll({ logos: 2 });
    const voters = await votersSaying(sessionId, logoIds[0]!, [...WARM, ...READABLE, ...OTHER]);
    await foldAll();
    const before = (await themesOf(sessionId)).logos[0]!;
    expect(before.reasons).toBe(8);
    // The first warm voter moves to the other logo: its reason explained a choice it no longer holds.
    await vote(sessionId, voters[0]!, logoIds[1]!);
    expect((await dueThemes(10)).map((due) => due.logoId)).toContain(logoIds[0]);
    await foldAll();
    const after = (await themesOf(sessionId)).logos[0]!;
    expect(after.reasons).toBe(7);
    expect(after.themes.flatMap((theme) => theme.quotes)).not.toContain(WARM[0]);
    // An edit that turns the lone 'nice' into a third way of saying warm.
    await giveReason(sessionId, voters[7]!, 'Homely and inviting, like a warm bakery');
    await foldAll();
    const edited = (await themesOf(sessionId)).logos[0]!;
    expect(edited.reasons).toBe(7);
    expect(JSON.stringify(edited)).not.toContain('"nice"');
  });

  it('is exact when folders race each other and new reasons', async () => {
    const { sessionId, logoIds } = await createPoll({ logos: 2 });
    await votersSaying(sessionId, logoIds[0]!, WARM);
    // Three folders at once while more reasons arrive: whoever stores last, nothing is left due and the themes count every reason.
    await Promise.all([foldReasonThemes(), foldReasonThemes(), votersSaying(sessionId, logoIds[0]!, READABLE), foldReasonThemes()]);
    await foldAll();
    expect((await readLogoThemes(sessionId, logoIds[0]!))?.value.reasons).toBe(WARM.length + READABLE.length);
    expect((await dueThemes(100)).filter((due) => due.pollId === sessionId)).toEqual([]);
  });
});

describe('channels', () => {
  const CHANNELS = [
    { id: 'news0001', name: 'Newsletter' },
    { id: 'insta001', name: 'Instagram' },
  ];

  it('gives the creator each channel’s own themes, and everyone else only the whole poll’s', async () => {
    const poll = await createPoll({ logos: 2 });
    await PollModel.updateOne({ _id: poll.sessionId }, { $set: { channels: CHANNELS } });
    await votersSaying(poll.sessionId, poll.logoIds[0]!, WARM, 'news0001');
    await votersSaying(poll.sessionId, poll.logoIds[0]!, [...READABLE, ...WARM.slice(0, 2)], 'insta001');
    await foldAll();
    const creator = (await themesOf(poll.sessionId, { [CREATOR_TOKEN_HEADER]: poll.creatorToken })).logos[0]!;
    expect(creator.reasons).toBe(9);
    expect(creator.channels?.map((group) => [group.channel, group.reasons])).toEqual([
      ['Instagram', 5],
      ['Newsletter', 4],
    ]);
    // The newsletter's four reasons are too few for themes of their own; Instagram's five have some.
    expect(creator.channels?.find((group) => group.channel === 'Newsletter')?.themes).toEqual([]);
    const instagram = creator.channels?.find((group) => group.channel === 'Instagram')?.themes ?? [];
    expect(instagram.flatMap((theme) => theme.quotes).every((quote) => [...READABLE, ...WARM.slice(0, 2)].includes(quote))).toBe(true);
    expect(instagram.length).toBeGreaterThan(0);
    const visitor = (await themesOf(poll.sessionId)).logos[0]!;
    expect(visitor).not.toHaveProperty('channels');
    expect(visitor.themes).toEqual(creator.themes);
  });
});

describe('deletion', () => {
  it('removes a poll’s themes and due records with its votes', async () => {
    const { sessionId, logoIds } = await createPoll({ logos: 2 });
    await votersSaying(sessionId, logoIds[0]!, WARM.concat(READABLE));
    await foldAll();
    await votersSaying(sessionId, logoIds[0]!, OTHER);
    expect(await readLogoThemes(sessionId, logoIds[0]!)).not.toBeNull();
    await recordPollDeleting(sessionId);
    await purgeVotesOfDeletedPolls();
    expect(await readLogoThemes(sessionId, logoIds[0]!)).toBeNull();
    expect((await dueThemes(100)).filter((due) => due.pollId === sessionId)).toEqual([]);
    expect(await hasVoteData(sessionId)).toBe(false);
  });
});

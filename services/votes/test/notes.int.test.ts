import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { MAX_REASON_LENGTH, NOTE_MESSAGES, NotesPage, ReasonsPage, RESULTS_WITHHELD, VOTING_CLOSED } from '@logovote/contracts';
import {
  PollModel,
  VoterSeatModel,
  hasVoteData,
  insertReason,
  purgeVotesOfDeletedPolls,
  readNotes,
  removeNote,
  recordVotingState,
  recordPollDeleting,
} from '@logovote/models';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
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
import { insertNotesInBulk, storedModel } from '@logovote/models/test-support';

const LogoNoteModel = storedModel<{ version: number }>('logo_notes');

// Requests against FerretDB on a shared machine: more than jest's 5 s default.
jest.setTimeout(60_000);

const config = loadConfig({
  MONGODB_URI: testDatabaseUri('notes'),
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

const IP = '10.0.0.9';

const vote = (sessionId: string, logoId: string, fingerprint: string, via?: string) =>
  request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', fingerprint)
    .set('X-Forwarded-For', IP)
    .send({ logoId, ...(via ? { via } : {}) });

const putNote = (sessionId: string, fingerprint: string, body: unknown, headers: Record<string, string> = csrfHeaders(sessionId)) =>
  request(server)
    .put(`/api/sessions/${sessionId}/note`)
    .set(headers)
    .set('X-Client-Fingerprint', fingerprint)
    .set('X-Forwarded-For', IP)
    .send(body as object);

const deleteNote = (sessionId: string, fingerprint: string, logoId: string) =>
  request(server)
    .delete(`/api/sessions/${sessionId}/note`)
    .query({ logoId })
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', fingerprint)
    .set('X-Forwarded-For', IP);

const myNotes = (sessionId: string, fingerprint: string) =>
  request(server).get(`/api/sessions/${sessionId}/my-notes`).set('X-Client-Fingerprint', fingerprint).set('X-Forwarded-For', IP);

async function notesOf(sessionId: string, logoId: string, cursor?: string, creatorToken?: string): Promise<NotesPage> {
  const res = await request(server)
    .get(`/api/sessions/${sessionId}/notes`)
    .set(creatorToken ? { 'X-Creator-Token': creatorToken } : {})
    .query({ logoId, ...(cursor ? { cursor } : {}) });
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return NotesPage.parse(res.body);
}
const texts = (page: NotesPage) => page.notes.map((note) => note.note);

/** A poll with two channels, as the sessions service creates it. */
async function pollWithChannels() {
  const poll = await createPoll();
  const channels = [
    { id: 'newslttr', name: 'Newsletter' },
    { id: 'instagrm', name: 'Instagram' },
  ];
  await PollModel.updateOne({ _id: poll.sessionId }, { $set: { channels } });
  return { ...poll, channels };
}

describe('PUT note', () => {
  it('stores a note on a logo the voter did not pick, apart from reasons, and lists it under that logo', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    const res = await putNote(sessionId, fingerprint, { logoId: logoIds[1], note: '  Hard to see: white on a light background  ' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ logoId: logoIds[1], note: 'Hard to see: white on a light background' });

    expect(texts(await notesOf(sessionId, logoIds[1]!))).toEqual(['Hard to see: white on a light background']);
    expect(texts(await notesOf(sessionId, logoIds[0]!))).toEqual([]);
    // A poll without channels shows no channel, and nothing tells who left the note.
    const page = await notesOf(sessionId, logoIds[1]!);
    expect(page.notes[0]!.channel).toBeUndefined();
    expect(JSON.stringify(page)).not.toContain(fingerprint);
    // Notes are not reasons.
    const reasons = await request(server).get(`/api/sessions/${sessionId}/reasons`).query({ logoId: logoIds[1] });
    expect(ReasonsPage.parse(reasons.body).reasons).toEqual([]);
  });

  it('keeps one note per voter and logo: sending again edits it in place, and the voter reads its own back', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    const other = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    await vote(sessionId, logoIds[0]!, other).expect(200);
    await putNote(sessionId, fingerprint, { logoId: logoIds[2], note: 'Too thin' }).expect(200);
    await putNote(sessionId, other, { logoId: logoIds[2], note: 'Colours clash' }).expect(200);
    await putNote(sessionId, fingerprint, { logoId: logoIds[2], note: 'Too thin at small sizes' }).expect(200);
    await putNote(sessionId, fingerprint, { logoId: logoIds[0], note: 'Make it bolder' }).expect(200);

    // The edit keeps its place (its number): the other voter's note is still the newer one.
    expect(texts(await notesOf(sessionId, logoIds[2]!))).toEqual(['Colours clash', 'Too thin at small sizes']);
    // Two slots, one of them with the edit as its second version.
    expect(await LogoNoteModel.countDocuments({ pollId: sessionId, logoId: logoIds[2], version: 1 })).toBe(2);
    const mine = await myNotes(sessionId, fingerprint);
    expect(mine.status).toBe(200);
    expect(mine.headers['cache-control']).toBe('no-store');
    expect(new Set(mine.body.notes)).toEqual(
      new Set([
        { logoId: logoIds[2], note: 'Too thin at small sizes' },
        { logoId: logoIds[0], note: 'Make it bolder' },
      ]),
    );
    expect((await myNotes(sessionId, newFingerprint())).body).toEqual({ notes: [] });
  });

  it('removes a note, and a note given again after that is shown again', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    await putNote(sessionId, fingerprint, { logoId: logoIds[1], note: 'Odd shape' }).expect(200);
    await deleteNote(sessionId, fingerprint, logoIds[1]!).expect(204);
    expect(texts(await notesOf(sessionId, logoIds[1]!))).toEqual([]);
    expect((await myNotes(sessionId, fingerprint)).body).toEqual({ notes: [] });
    // Removing again is no error: there is no note either way.
    await deleteNote(sessionId, fingerprint, logoIds[1]!).expect(204);
    await putNote(sessionId, fingerprint, { logoId: logoIds[1], note: 'Odd shape, but grows on me' }).expect(200);
    expect(texts(await notesOf(sessionId, logoIds[1]!))).toEqual(['Odd shape, but grows on me']);
  });

  it('keeps the notes when the vote changes: they are about the logo, not the choice', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    await putNote(sessionId, fingerprint, { logoId: logoIds[1], note: 'Needs more contrast' }).expect(200);
    await vote(sessionId, logoIds[1]!, fingerprint).expect(200);
    expect(texts(await notesOf(sessionId, logoIds[1]!))).toEqual(['Needs more contrast']);
  });

  it('masks profanity as in reasons', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    const res = await putNote(sessionId, fingerprint, { logoId: logoIds[1], note: 'This shit is unreadable' });
    expect(res.body.note).toBe('This s*** is unreadable');
    expect(texts(await notesOf(sessionId, logoIds[1]!))).toEqual(['This s*** is unreadable']);
  });

  it.each([
    ['no note field', (logoId: string) => ({ logoId }), NOTE_MESSAGES.required],
    ['an empty note', (logoId: string) => ({ logoId, note: '' }), NOTE_MESSAGES.required],
    ['only spaces', (logoId: string) => ({ logoId, note: '  \t ' }), NOTE_MESSAGES.required],
    ['a number', (logoId: string) => ({ logoId, note: 42 }), NOTE_MESSAGES.notText],
    ['141 characters', (logoId: string) => ({ logoId, note: 'a'.repeat(MAX_REASON_LENGTH + 1) }), NOTE_MESSAGES.tooLong],
    ['two lines', (logoId: string) => ({ logoId, note: 'one\ntwo' }), NOTE_MESSAGES.multiline],
    ['a NUL character', (logoId: string) => ({ logoId, note: 'nul\u0000here' }), NOTE_MESSAGES.control],
    ['a text-direction override', (logoId: string) => ({ logoId, note: 'abc\u202Edef' }), NOTE_MESSAGES.direction],
    ['no logo', () => ({ note: 'fine' }), 'logoId: logoId is required'],
  ])('refuses %s with a 400 and a message', async (_name, body, message) => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    const res = await putNote(sessionId, fingerprint, body(logoIds[1]!));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await LogoNoteModel.countDocuments({ pollId: sessionId })).toBe(0);
  });

  it('accepts exactly 140 characters, counting an emoji as one', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    const note = '🎨'.repeat(MAX_REASON_LENGTH);
    await putNote(sessionId, fingerprint, { logoId: logoIds[0], note }).expect(200, { logoId: logoIds[0], note });
  });

  it('refuses a visitor without a vote, a foreign logo, a missing token, a closed poll and an unknown poll', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    const noVote = await putNote(sessionId, fingerprint, { logoId: logoIds[0], note: 'Nice' });
    expect(noVote.status).toBe(409);
    expect(noVote.body).toEqual({ message: NOTE_MESSAGES.noVote });
    expect((await deleteNote(sessionId, fingerprint, logoIds[0]!)).status).toBe(409);

    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    const foreign = await putNote(sessionId, fingerprint, { logoId: 'not-a-logo', note: 'Nice' });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ message: 'This logo is not part of this voting session' });
    const forged = await putNote(sessionId, fingerprint, { logoId: logoIds[0], note: 'Nice' }, {});
    expect(forged.status).toBe(403);
    expect(typeof forged.body.message).toBe('string');
    const noFingerprint = await request(server)
      .put(`/api/sessions/${sessionId}/note`)
      .set(csrfHeaders(sessionId))
      .send({ logoId: logoIds[0], note: 'Nice' });
    expect(noFingerprint.status).toBe(400);

    await recordVotingState(sessionId, true);
    const closed = await putNote(sessionId, fingerprint, { logoId: logoIds[0], note: 'Nice' });
    expect(closed.status).toBe(409);
    expect(closed.body).toEqual({ message: VOTING_CLOSED });

    const unknown = await putNote('AAAAAAAAAAAAAAAA', fingerprint, { logoId: logoIds[0], note: 'Nice' });
    expect(unknown.status).toBe(404);
    expect(await LogoNoteModel.countDocuments({ pollId: sessionId })).toBe(0);
  });
});

describe('channels', () => {
  it("shows the poll's creator, and only the creator, the channel each reason's and note's voter came through", async () => {
    const { sessionId, logoIds, channels, creatorToken } = await pollWithChannels();
    const [newsletter, instagram] = [newFingerprint(), newFingerprint()];
    const direct = newFingerprint();
    await vote(sessionId, logoIds[0]!, newsletter, channels[0]!.id).expect(200);
    await vote(sessionId, logoIds[0]!, instagram, channels[1]!.id).expect(200);
    await vote(sessionId, logoIds[1]!, direct).expect(200);
    await putNote(sessionId, newsletter, { logoId: logoIds[1], note: 'Too playful for us' }).expect(200);
    await putNote(sessionId, instagram, { logoId: logoIds[1], note: 'Love the colours, but bolder' }).expect(200);
    await putNote(sessionId, direct, { logoId: logoIds[1], note: 'Text too small' }).expect(200);
    await request(server)
      .put(`/api/sessions/${sessionId}/reason`)
      .set(csrfHeaders(sessionId))
      .set('X-Client-Fingerprint', instagram)
      .set('X-Forwarded-For', IP)
      .send({ reason: 'Classic' })
      .expect(200);

    expect((await notesOf(sessionId, logoIds[1]!, undefined, creatorToken)).notes.map(({ note, channel }) => [note, channel])).toEqual([
      ['Text too small', 'Other / direct link'],
      ['Love the colours, but bolder', 'Instagram'],
      ['Too playful for us', 'Newsletter'],
    ]);
    const reasons = await request(server)
      .get(`/api/sessions/${sessionId}/reasons`)
      .set('X-Creator-Token', creatorToken)
      .query({ logoId: logoIds[0] });
    expect(ReasonsPage.parse(reasons.body).reasons.map(({ reason, channel }) => [reason, channel])).toEqual([['Classic', 'Instagram']]);
    // Anyone else reads the words without their channels (docs/results-visibility.md).
    expect((await notesOf(sessionId, logoIds[1]!)).notes.every((entry) => entry.channel === undefined)).toBe(true);
    const publicReasons = await request(server).get(`/api/sessions/${sessionId}/reasons`).query({ logoId: logoIds[0] });
    expect(ReasonsPage.parse(publicReasons.body).reasons).toEqual([expect.not.objectContaining({ channel: expect.anything() })]);
  });

  it("finds the channel of a reason stored without one from its voter's seat", async () => {
    const { sessionId, logoIds, channels, creatorToken } = await pollWithChannels();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint, channels[1]!.id).expect(200);
    const [seat] = await VoterSeatModel.find({ pollId: sessionId }).lean();
    await insertReason({ pollId: sessionId, logoId: logoIds[0]!, voterKey: seat!._id, rev: 1, text: 'From before channels were kept' });
    const reasons = await request(server)
      .get(`/api/sessions/${sessionId}/reasons`)
      .set('X-Creator-Token', creatorToken)
      .query({ logoId: logoIds[0] });
    expect(ReasonsPage.parse(reasons.body).reasons).toEqual([expect.objectContaining({ channel: 'Instagram' })]);
  });
});

describe('GET notes', () => {
  it('pages newest first, skipping removed notes', async () => {
    const { sessionId, logoIds } = await createPoll();
    const logoId = logoIds[0]!;
    await insertNotesInBulk(
      Array.from({ length: 23 }, (_, n) => ({ pollId: sessionId, logoId, voterKey: `${sessionId}:v${n}`, text: `note ${n}`, channel: '' })),
    );
    await removeNote(`${sessionId}:v20`, logoId);
    const shown: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await notesOf(sessionId, logoId, cursor);
      shown.push(...texts(page));
      cursor = page.next ?? undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 10);
    expect(shown).toEqual(
      Array.from({ length: 23 }, (_, n) => 22 - n)
        .filter((n) => n !== 20)
        .map((n) => `note ${n}`),
    );
    expect((await readNotes(sessionId, logoId)).notes).toHaveLength(10);
  });

  it('is withheld like the counts, and refuses a bad logo or cursor with a 400', async () => {
    const { sessionId, logoIds } = await createPoll();
    await PollModel.updateOne({ _id: sessionId }, { $set: { resultsVisibility: 'after-close' } });
    const withheld = await request(server).get(`/api/sessions/${sessionId}/notes`).query({ logoId: logoIds[0] });
    expect(withheld.status).toBe(403);
    expect(withheld.body).toEqual({ message: RESULTS_WITHHELD.closed });

    const open = await createPoll();
    const get = (query: Record<string, string>) => request(server).get(`/api/sessions/${open.sessionId}/notes`).query(query);
    for (const res of [
      await get({}),
      await get({ logoId: 'not-a-logo' }),
      await get({ logoId: open.logoIds[0]!, cursor: '-1' }),
      await get({ logoId: 'x'.repeat(5_000) }),
    ]) {
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await request(server).get('/api/sessions/AAAAAAAAAAAAAAAA/notes').query({ logoId: 'x' })).status).toBe(404);
  });
});

describe('deletion', () => {
  it('removes the notes with the poll, and only of that poll', async () => {
    const doomed = await createPoll();
    const kept = await createPoll();
    for (const poll of [doomed, kept]) {
      const fingerprint = newFingerprint();
      await vote(poll.sessionId, poll.logoIds[0]!, fingerprint).expect(200);
      await putNote(poll.sessionId, fingerprint, { logoId: poll.logoIds[1], note: 'Bolder' }).expect(200);
    }
    await recordPollDeleting(doomed.sessionId);
    await purgeVotesOfDeletedPolls();
    expect(await LogoNoteModel.countDocuments({ pollId: doomed.sessionId })).toBe(0);
    expect(await hasVoteData(doomed.sessionId)).toBe(false);
    expect(await LogoNoteModel.countDocuments({ pollId: kept.sessionId })).toBe(1);
  });

  it('keeps a poll counted as having vote data while only its notes are left', async () => {
    const { sessionId, logoIds } = await createPoll();
    await insertNotesInBulk([{ pollId: sessionId, logoId: logoIds[0]!, voterKey: `${sessionId}:lone`, text: 'left over', channel: '' }]);
    expect(await hasVoteData(sessionId)).toBe(true);
  });
});

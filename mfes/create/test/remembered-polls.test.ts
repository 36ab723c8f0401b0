import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { pollContentHash } from '../src/poll-content-hash';
import {
  forgetPoll,
  markPollFinished,
  MAX_REMEMBERED_POLLS,
  readRememberedPolls,
  rememberPoll,
  unfinishedPollWithContent,
  type RememberedPoll,
  type RememberedPollStorage,
} from '../src/remembered-polls';
import { REMEMBERED_POLLS_KEY } from '../src/remembered-polls-key';

const memoryStorage = (): RememberedPollStorage & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
};

const HASH = 'a'.repeat(64);
const poll = (sessionId: string, extra: Partial<RememberedPoll> = {}): RememberedPoll => ({
  sessionId,
  votingUrl: `http://localhost:8080/vote/${sessionId}`,
  resultsUrl: `http://localhost:8080/results/${sessionId}`,
  createdAt: '2026-11-24T10:00:00.000Z',
  finished: false,
  ...extra,
});
const ids = (polls: RememberedPoll[]) => polls.map((kept) => kept.sessionId);

describe('remembered polls', () => {
  it('lists the polls newest first, moves a poll made again to the top, and forgets one', () => {
    const storage = memoryStorage();
    rememberPoll(poll('AAAAAAAAAAAAAAAA', { question: 'Which one?' }), storage);
    rememberPoll(poll('BBBBBBBBBBBBBBBB'), storage);
    expect(ids(readRememberedPolls(storage))).toEqual(['BBBBBBBBBBBBBBBB', 'AAAAAAAAAAAAAAAA']);
    expect(readRememberedPolls(storage)[1]).toEqual(poll('AAAAAAAAAAAAAAAA', { question: 'Which one?' }));

    rememberPoll(poll('AAAAAAAAAAAAAAAA'), storage);
    expect(ids(readRememberedPolls(storage))).toEqual(['AAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBB']);

    forgetPoll('AAAAAAAAAAAAAAAA', storage);
    expect(ids(readRememberedPolls(storage))).toEqual(['BBBBBBBBBBBBBBBB']);
  });

  it(`keeps the newest ${MAX_REMEMBERED_POLLS}`, () => {
    const storage = memoryStorage();
    for (let index = 0; index < MAX_REMEMBERED_POLLS + 3; index++) rememberPoll(poll(`poll${String(index).padStart(12, '0')}`), storage);
    const kept = readRememberedPolls(storage);
    expect(kept).toHaveLength(MAX_REMEMBERED_POLLS);
    expect(kept[0]!.sessionId).toBe(`poll${String(MAX_REMEMBERED_POLLS + 2).padStart(12, '0')}`);
  });

  it.each([
    ['not JSON', '{not json'],
    ['not a list', '{"sessionId":"AAAAAAAAAAAAAAAA"}'],
    ['null', 'null'],
  ])('reads storage holding %s as no polls, and writes over it', (_what, stored) => {
    const storage = memoryStorage();
    storage.items.set(REMEMBERED_POLLS_KEY, stored);
    expect(readRememberedPolls(storage)).toEqual([]);
    rememberPoll(poll('AAAAAAAAAAAAAAAA'), storage);
    expect(ids(readRememberedPolls(storage))).toEqual(['AAAAAAAAAAAAAAAA']);
  });

  it('skips entries that do not validate and keeps the others', () => {
    const storage = memoryStorage();
    const good = poll('GOODGOODGOODGOOD');
    storage.items.set(
      REMEMBERED_POLLS_KEY,
      JSON.stringify([
        null,
        'text',
        { ...good, sessionId: '../../admin' },
        { ...good, votingUrl: 'javascript:alert(1)' },
        { ...good, resultsUrl: 'not a url' },
        { ...good, createdAt: 'yesterday' },
        { ...good, contentHash: 'short' },
        { ...good, question: 'x'.repeat(501) },
        { ...good, finished: 'yes' },
        good,
        { ...good, question: 'a second entry for the same poll' },
      ]),
    );
    expect(readRememberedPolls(storage)).toEqual([good]);
  });

  it('survives a storage that refuses to be read or written', () => {
    const refusing: RememberedPollStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    expect(readRememberedPolls(refusing)).toEqual([]);
    expect(() => rememberPoll(poll('AAAAAAAAAAAAAAAA'), refusing)).not.toThrow();
  });
});

describe('the duplicate check', () => {
  it("offers an unfinished poll with the same content, and not once its creator reached the dialog's last step", () => {
    const storage = memoryStorage();
    rememberPoll(poll('OLDOLDOLDOLDOLD0', { contentHash: HASH }), storage);
    rememberPoll(poll('NEWNEWNEWNEWNEW0', { contentHash: HASH }), storage);
    rememberPoll(poll('OTHEROTHEROTHER0', { contentHash: 'b'.repeat(64) }), storage);
    expect(unfinishedPollWithContent(HASH, storage)?.sessionId).toBe('NEWNEWNEWNEWNEW0');

    markPollFinished('NEWNEWNEWNEWNEW0', storage);
    expect(unfinishedPollWithContent(HASH, storage)?.sessionId).toBe('OLDOLDOLDOLDOLD0');
    markPollFinished('OLDOLDOLDOLDOLD0', storage);
    expect(unfinishedPollWithContent(HASH, storage)).toBeUndefined();
    expect(unfinishedPollWithContent('c'.repeat(64), storage)).toBeUndefined();
  });

  const logo = (name: string) => new Blob([readFileSync(join(__dirname, '..', '..', '..', 'tests', 'fixtures', name))]);

  it('hashes the same logos and question alike, in any order, and tells other content apart', async () => {
    const [ring, wave, square] = [logo('logo-ring.png'), logo('logo-wave.svg'), logo('logo-square.png')];
    const hash = await pollContentHash([ring, wave], 'Which one?');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    await expect(pollContentHash([wave, ring], '  Which one? ')).resolves.toBe(hash);
    await expect(pollContentHash([ring, square], 'Which one?')).resolves.not.toBe(hash);
    await expect(pollContentHash([ring, wave], 'Which two?')).resolves.not.toBe(hash);
    await expect(pollContentHash([ring, wave], '')).resolves.not.toBe(hash);
    await expect(pollContentHash([ring, wave, wave], 'Which one?')).resolves.not.toBe(hash);
  });
});

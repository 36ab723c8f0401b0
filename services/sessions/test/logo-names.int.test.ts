import request from 'supertest';
import { parse } from 'csv-parse/sync';
import {
  AdminPollList,
  CREATOR_TOKEN_HEADER,
  MAX_LOGO_NAME_LENGTH,
  SessionView,
  logoNamesCountMismatch,
  CreatedSessionWithCreatorToken,
} from '@logovote/contracts';
import { PollModel, listPoll } from '@logovote/models';
import { png, svg } from '../../../packages/media-pipeline/test/fixtures';
import { createPoll, objectNames } from '../../../tests/support/integration';
import { insertVotes, sessionsTestbed, type Upload } from './support';

const bed = sessionsTestbed('logo-names');

/** POST /api/sessions with a `logoNames` field per name (before the files, as a browser's form may send them). */
function create(logos: Upload[], names?: string[], fields: Record<string, string> = {}): request.Test {
  let req = request(bed.server).post('/api/sessions');
  for (const [field, value] of Object.entries(fields)) req = req.field(field, value);
  for (const name of names ?? []) req = req.field('logoNames', name);
  for (const [name, bytes] of logos) req = req.attach('logos', bytes, name);
  return req;
}

async function created(logos: Upload[], names?: string[], fields?: Record<string, string>): Promise<CreatedSessionWithCreatorToken> {
  const res = await create(logos, names, fields);
  if (res.status !== 201) throw new Error(`creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return CreatedSessionWithCreatorToken.parse(res.body);
}

const view = async (sessionId: string) => SessionView.parse((await request(bed.server).get(`/api/sessions/${sessionId}`)).body);
const storedNames = async (sessionId: string) => (await PollModel.findById(sessionId).lean())?.logos.map((logo) => logo.name);
/** The creator's CSV (the export is the creator's only). */
const csvRows = async (sessionId: string, creatorToken: string): Promise<string[][]> =>
  parse((await request(bed.server).get(`/api/sessions/${sessionId}/results.csv`).set(CREATOR_TOKEN_HEADER, creatorToken)).text, {
    bom: true,
  });

describe('logo names at creation (POST /api/sessions, repeated logoNames)', () => {
  let twoLogos: Upload[];
  beforeAll(async () => {
    twoLogos = [
      ['wordmark-final.png', await png()],
      ['Monogram v2.svg', svg()],
    ];
  });

  it("stores the creator's names, trimmed, and answers them in every session view", async () => {
    const session = await created(twoLogos, ['  Wordmark  ', 'Monogram (dark)']);
    expect(session.logos.map((logo) => [logo.originalName, logo.name])).toEqual([
      ['wordmark-final.png', 'Wordmark'],
      ['Monogram v2.svg', 'Monogram (dark)'],
    ]);
    expect(await storedNames(session.sessionId)).toEqual(['Wordmark', 'Monogram (dark)']);
    expect((await view(session.sessionId)).logos.map((logo) => logo.name)).toEqual(['Wordmark', 'Monogram (dark)']);
  });

  it('names each logo after its file (without the extension) when no names are sent, and for a blank name', async () => {
    const unnamed = await created(twoLogos);
    expect(unnamed.logos.map((logo) => logo.name)).toEqual(['wordmark-final', 'Monogram v2']);
    expect(await storedNames(unnamed.sessionId)).toEqual(['wordmark-final', 'Monogram v2']);

    const blank = await created(twoLogos, ['Wordmark', '   ']);
    expect(blank.logos.map((logo) => logo.name)).toEqual(['Wordmark', 'Monogram v2']);
  });

  it('takes names of every script up to the limit', async () => {
    const longest = 'ü'.repeat(MAX_LOGO_NAME_LENGTH);
    const session = await created(twoLogos, [longest, 'ロゴ 👍🏽']);
    expect(session.logos.map((logo) => logo.name)).toEqual([longest, 'ロゴ 👍🏽']);
  });

  it.each([
    ['fewer names than logos', ['Only one'], 400, logoNamesCountMismatch(2, 1)],
    ['more names than logos', ['One', 'Two', 'Three'], 400, logoNamesCountMismatch(2, 3)],
    ['five names', ['1', '2', '3', '4', '5'], 400, '"logoNames" was sent more than 4 times'],
    [
      'a name over the limit',
      ['ok', 'n'.repeat(MAX_LOGO_NAME_LENGTH + 1)],
      400,
      `logoNames.1: The logo name must be at most ${MAX_LOGO_NAME_LENGTH} characters`,
    ],
    ['a name with a line break', ['two\nlines', 'ok'], 400, 'logoNames.0: The logo name must be a single line'],
    [
      'a name with a direction override',
      ['ok', 'evil\u202Egnp.exe'],
      400,
      'logoNames.1: The logo name must not contain invisible text-direction controls (U+202A to U+202E, U+2066 to U+2069)',
    ],
    ['a name far over any limit', ['x'.repeat(5_000), 'ok'], 413, '"logoNames" is too long'],
  ])('refuses %s with a clear message and stores nothing', async (_case, names, status, message) => {
    const before = await PollModel.countDocuments();
    const objects = await objectNames(bed.store);
    const res = await create(twoLogos, names);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message });
    expect(await PollModel.countDocuments()).toBe(before);
    expect(await objectNames(bed.store)).toEqual(objects);
  });
});

describe('logo names of polls stored without them', () => {
  it('answers the default name, computed at read time, in the session view, the admin list and the CSV', async () => {
    const { sessionId, creatorToken } = await createPoll({ logos: 2 });
    // Listed for the admin as a created poll is.
    await listPoll(sessionId);
    expect(await storedNames(sessionId)).toEqual([undefined, undefined]);
    expect((await view(sessionId)).logos.map((logo) => logo.name)).toEqual(['logo-0', 'logo-1']);
    const admin = AdminPollList.parse((await request(bed.server).get('/api/admin/polls?limit=100')).body);
    expect(admin.find((poll) => poll.pollId === sessionId)?.logos.map((logo) => logo.name)).toEqual(['logo-0', 'logo-1']);
    expect((await csvRows(sessionId, creatorToken)).slice(1).map((row) => row[6])).toEqual(['logo-0', 'logo-1']);
  });
});

describe('ties', () => {
  it('rank in upload order in the CSV, for a poll shown to each voter in an order of their own too', async () => {
    const session = await created(
      [
        ['first.png', await png()],
        ['second.png', await png()],
        ['third.svg', svg()],
        ['fourth.png', await png()],
      ],
      ['First', 'Second', 'Third', 'Fourth'],
      { logoOrder: 'shuffled' },
    );
    const [first, second, third, fourth] = session.logos.map((logo) => logo.id);
    // Fourth and second lead tied, third and first trail tied.
    await insertVotes(session.sessionId, [fourth!, fourth!, second!, second!, third!, first!]);

    // The note and theme columns (docs/export.md) are empty on a logo's row.
    const expected = [
      ['Logo A', 'second.png', '2', '33', '', '', 'Second', '', '', ''],
      ['Logo B', 'fourth.png', '2', '33', '', '', 'Fourth', '', '', ''],
      ['Logo C', 'first.png', '1', '17', '', '', 'First', '', '', ''],
      ['Logo D', 'third.svg', '1', '17', '', '', 'Third', '', '', ''],
    ];
    expect((await csvRows(session.sessionId, session.creatorToken)).slice(1)).toEqual(expected);
    // Asked again, and with a voter's seed in between: the same file.
    await request(bed.server).get(`/api/sessions/${session.sessionId}?voter=${'ab'.repeat(16)}`);
    expect((await csvRows(session.sessionId, session.creatorToken)).slice(1)).toEqual(expected);
    // The session view keeps the upload order for everyone, the order the ranking starts from.
    expect((await view(session.sessionId)).logos.map((logo) => logo.id)).toEqual([first, second, third, fourth]);
  });
});

/**
 * Brief-fit ratings (docs/attributes.md) in the sessions service: attributes named at creation and answered in
 * the session view, their answers counted by GET /attributes (per channel for the creator) and exported one
 * row per answer, withheld like every count; a poll without attributes is the spec's.
 */
import request from 'supertest';
import { parse } from 'csv-parse/sync';
import { AttributeResults, CREATOR_TOKEN_HEADER, CreatedSession, RESULTS_WITHHELD, SessionView } from '@logovote/contracts';
import { PollModel, attributeLedger, attributeMember, attributeTally, attributeValue } from '@logovote/models';
import { png, svg } from '../../../packages/media-pipeline/test/fixtures';
import { sessionsTestbed, type Upload } from './support';

const bed = sessionsTestbed('attributes');

let logos: Upload[];
beforeAll(async () => {
  logos = [
    ['wordmark.png', await png()],
    ['monogram.svg', svg()],
  ];
});

function create(attributes: string[], fields: Record<string, string | string[]> = {}): request.Test {
  let req = request(bed.server).post('/api/sessions');
  for (const [field, values] of Object.entries(fields)) for (const value of [values].flat()) req = req.field(field, value);
  for (const name of attributes) req = req.field('attributes', name);
  for (const [name, bytes] of logos) req = req.attach('logos', bytes, name);
  return req;
}

async function created(attributes: string[], fields?: Record<string, string | string[]>) {
  const res = await create(attributes, fields);
  if (res.status !== 201) throw new Error(`creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return CreatedSession.extend({ creatorToken: CreatedSession.shape.csrfToken }).parse(res.body);
}

/** Answers as the votes service writes them: each voter's first revision in the poll's tally, and in its channel's. */
async function answer(pollId: string, answers: [voter: string, attribute: number, logoId: string | null, channelId?: string][]) {
  for (const [name, attribute, logoId, channelId] of answers) {
    // A voter's key is the poll's own (voterKeyOf), so no two polls' answers share a revision id.
    const voter = `${pollId}:${name}`;
    const to = attributeValue(attribute, logoId);
    await attributeLedger.append({ tally: attributeTally(pollId), member: attributeMember(voter, attribute), rev: 1, from: null, to });
    if (channelId) {
      await attributeLedger.append({
        tally: attributeTally(pollId, channelId),
        member: attributeMember(voter, attribute, channelId),
        rev: 1,
        from: null,
        to,
      });
    }
  }
}

describe('creation', () => {
  it('stores the attributes once and answers them, in the view too; without any, the view is the spec’s', async () => {
    const poll = await created(['Trustworthy', 'Fits a neighbourhood bakery']);
    expect(poll.attributes).toEqual(['Trustworthy', 'Fits a neighbourhood bakery']);
    expect((await PollModel.findById(poll.sessionId).lean())?.attributes).toEqual(['Trustworthy', 'Fits a neighbourhood bakery']);
    expect(SessionView.parse((await request(bed.server).get(`/api/sessions/${poll.sessionId}`)).body).attributes).toEqual([
      'Trustworthy',
      'Fits a neighbourhood bakery',
    ]);
    const plain = await created([]);
    expect(plain).not.toHaveProperty('attributes');
    expect((await request(bed.server).get(`/api/sessions/${plain.sessionId}`)).body).not.toHaveProperty('attributes');
    expect((await PollModel.findById(plain.sessionId).lean())?.attributes).toBeUndefined();
  });

  it.each([
    [['a', 'b', 'c', 'd', 'e'], 'attributes: A poll can ask about at most 4 attributes'],
    [['Modern', 'MODERN'], 'attributes: Each attribute needs a different name'],
    [['x'.repeat(61)], 'attributes.0: The attribute must be at most 60 characters'],
    [
      ['Warm\u202Ehtgin'],
      'attributes.0: The attribute must not contain invisible text-direction controls (U+202A to U+202E, U+2066 to U+2069)',
    ],
  ])('refuses %j with a 400 JSON message', async (attributes, message) => {
    const res = await create(attributes);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });
});

describe('GET attributes', () => {
  it('counts each attribute’s answers per logo and "Can’t say", and each channel’s for the creator only', async () => {
    const poll = await created(['Trustworthy', 'Modern'], { channels: ['Newsletter'] });
    const [a, b] = poll.logos.map((logo) => logo.id) as [string, string];
    const news = poll.channels![0]!.id;
    await answer(poll.sessionId, [
      ['v1', 0, a, news],
      ['v2', 0, a],
      ['v3', 0, b],
      ['v4', 0, null, news],
      ['v1', 1, b, news],
    ]);
    const visitor = AttributeResults.parse((await request(bed.server).get(`/api/sessions/${poll.sessionId}/attributes`).expect(200)).body);
    expect(visitor.attributes).toEqual([
      {
        name: 'Trustworthy',
        logos: [
          { logoId: a, answers: 2 },
          { logoId: b, answers: 1 },
        ],
        cantSay: 1,
      },
      {
        name: 'Modern',
        logos: [
          { logoId: a, answers: 0 },
          { logoId: b, answers: 1 },
        ],
        cantSay: 0,
      },
    ]);
    const creator = AttributeResults.parse(
      (await request(bed.server).get(`/api/sessions/${poll.sessionId}/attributes`).set(CREATOR_TOKEN_HEADER, poll.creatorToken).expect(200))
        .body,
    );
    expect(creator.attributes[0]!.channels).toEqual([
      {
        id: news,
        name: 'Newsletter',
        logos: [
          { logoId: a, answers: 1 },
          { logoId: b, answers: 0 },
        ],
        cantSay: 1,
      },
    ]);
    expect(creator.attributes[0]!.direct).toEqual({
      logos: [
        { logoId: a, answers: 1 },
        { logoId: b, answers: 1 },
      ],
      cantSay: 0,
    });
  });

  it('withholds the answers with the results, and answers 404 for an unknown poll', async () => {
    const poll = await created(['Trustworthy'], { resultsVisibility: 'after-close' });
    const res = await request(bed.server).get(`/api/sessions/${poll.sessionId}/attributes`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: RESULTS_WITHHELD.closed });
    await request(bed.server).get(`/api/sessions/${poll.sessionId}/attributes`).set(CREATOR_TOKEN_HEADER, poll.creatorToken).expect(200);
    expect((await request(bed.server).get('/api/sessions/AAAAAAAAAAAAAAAA/attributes')).status).toBe(404);
  });
});

describe('the CSV', () => {
  it('ends with one row per answer: the attribute and the logo picked, or "Can’t say"', async () => {
    const poll = await created(['Trustworthy', 'Playful']);
    const [a] = poll.logos.map((logo) => logo.id) as [string, string];
    await answer(poll.sessionId, [
      ['v1', 0, a],
      ['v2', 1, null],
    ]);
    const res = await request(bed.server)
      .get(`/api/sessions/${poll.sessionId}/results.csv`)
      .set(CREATOR_TOKEN_HEADER, poll.creatorToken)
      .expect(200);
    const [header, ...rows] = parse(res.text, { bom: true }) as string[][];
    expect(header!.slice(-3)).toEqual(['Theme', 'Attribute', 'Answer']);
    const answers = rows.filter((row) => row.at(-2) !== '');
    expect(answers.map((row) => [row[0], row[6], row.at(-2), row.at(-1)])).toEqual([
      ['Logo A', 'wordmark', 'Trustworthy', 'Logo A'],
      ['', '', 'Playful', "Can't say"],
    ]);
    // The rows before them keep their columns, with the attribute cells empty.
    expect(rows.slice(0, 2).every((row) => row.length === header!.length && row.at(-1) === '')).toBe(true);
  });

  it('has no attribute columns for a poll without attributes', async () => {
    const poll = await created([]);
    const res = await request(bed.server)
      .get(`/api/sessions/${poll.sessionId}/results.csv`)
      .set(CREATOR_TOKEN_HEADER, poll.creatorToken)
      .expect(200);
    expect((parse(res.text, { bom: true }) as string[][])[0]!.at(-1)).toBe('Theme');
  });
});

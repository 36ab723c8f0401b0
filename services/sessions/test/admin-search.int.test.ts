/**
 * The admin's search (docs/admin.md, "Search") and a poll's details: found by the words of the question and
 * the logo names (as prefixes, any letter case or accent, every word), by id or a pasted link; entries go
 * with the poll; details say whether voting is open, who sees the results, the channels' votes and the
 * newest reasons; the admin's CSV whatever the rule.
 */
import request from 'supertest';
import { parse } from 'csv-parse/sync';
import {
  ADMIN_SEARCH_QUERY_MAX,
  AdminPollDetails,
  AdminPollList,
  CREATOR_TOKEN_HEADER,
  CreatedSession,
  SEARCH_MORE_HEADER,
  TOTAL_COUNT_HEADER,
} from '@logovote/contracts';
import { PollSearchTermModel, insertReason, searchTermsOf } from '@logovote/models';
import { png } from '../../../packages/media-pipeline/test/fixtures';
import { csrfHeaders } from '../../../tests/support/integration';
import { POLL_NOT_FOUND } from '../src/routes/admin';
import { PUBLIC_ORIGIN, insertVotes, sessionsTestbed, type Upload } from './support';

const bed = sessionsTestbed('admin-search');
// Each test creates several polls through the upload pipeline: minutes on a machine busy with other work.
jest.setTimeout(120_000);

let logos: Upload[];
beforeAll(async () => {
  logos = [
    ['wheat-ear.png', await png()],
    ['Croissant blanc.png', await png(24, 24)],
  ];
});

async function created(fields: Record<string, string | string[]>) {
  let req = request(bed.server).post('/api/sessions');
  for (const [field, value] of Object.entries(fields)) for (const one of [value].flat()) req = req.field(field, one);
  for (const [name, bytes] of logos) req = req.attach('logos', bytes, name);
  const res = await req;
  if (res.status !== 201) throw new Error(`creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return CreatedSession.extend({ creatorToken: CreatedSession.shape.csrfToken }).parse(res.body);
}

const search = (q: string) => request(bed.server).get('/api/admin/polls').query({ q });
const found = async (q: string) => {
  const res = await search(q);
  expect(res.status).toBe(200);
  return AdminPollList.parse(res.body).map((poll) => poll.pollId);
};

describe('search terms', () => {
  it('are every prefix of two characters or more of each word, lower case, without accents', () => {
    expect([...searchTermsOf(['Crème Brûlée!', 'a B2'])]).toEqual([
      'cr',
      'cre',
      'crem',
      'creme',
      'br',
      'bru',
      'brul',
      'brule',
      'brulee',
      'b2',
    ]);
  });
});

describe('GET /api/admin/polls?q=', () => {
  it('finds polls by words of the question, logo names and file names, every word, newest first', async () => {
    const bakery = await created({ feedbackPrompt: 'Which logo fits our Bäckerei?', logoNames: ['Wheat ear', 'Croissant'] });
    const cafe = await created({ feedbackPrompt: 'Which logo for the café?', logoNames: ['Cup', 'Bean'] });

    expect(await found('bäckerei')).toEqual([bakery.sessionId]);
    expect(await found('BACK')).toEqual([bakery.sessionId]);
    expect(await found('cafe')).toEqual([cafe.sessionId]);
    // Every word must match; each as the start of a word.
    expect(await found('which logo')).toEqual([cafe.sessionId, bakery.sessionId]);
    expect(await found('logo fit')).toEqual([bakery.sessionId]);
    expect(await found('which ogo')).toEqual([]);
    // Logo names and the uploaded files' names (without the extension).
    expect(await found('bean')).toEqual([cafe.sessionId]);
    expect(await found('blanc')).toEqual([cafe.sessionId, bakery.sessionId]);
    expect(await found('png')).toEqual([]);
    // By id, alone or in a pasted link.
    expect(await found(bakery.sessionId)).toEqual([bakery.sessionId]);
    expect(await found(`https://logovote.example/results/${cafe.sessionId}?x=1`)).toEqual([cafe.sessionId]);

    const res = await search('which');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('2');
    expect(res.headers[SEARCH_MORE_HEADER.toLowerCase()]).toBeUndefined();
    // The spec's list is unchanged beside it.
    expect((await request(bed.server).get('/api/admin/polls')).body).toHaveLength(2);
  });

  it('removes a deleted poll’s entries with it', async () => {
    const doomed = await created({ feedbackPrompt: 'Doomed zeppelin' });
    expect(await found('zeppelin')).toEqual([doomed.sessionId]);
    expect(await PollSearchTermModel.countDocuments({ pollId: doomed.sessionId })).toBeGreaterThan(0);
    expect((await request(bed.server).delete(`/api/admin/polls/${doomed.sessionId}`)).status).toBe(200);
    expect(await found('zeppelin')).toEqual([]);
    expect(await PollSearchTermModel.countDocuments({ pollId: doomed.sessionId })).toBe(0);
  });

  it('refuses an empty or too long search with a message, and finds nothing in punctuation alone', async () => {
    for (const q of ['', '   ', 'x'.repeat(ADMIN_SEARCH_QUERY_MAX + 1)]) {
      const res = await search(q);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect(await found('?!')).toEqual([]);
    expect(await found('{"$ne":null}')).toEqual([]);
  });
});

describe('GET /api/admin/polls/{pollId}', () => {
  it('says whether voting is open, who sees the results, the channels’ votes, the newest reasons, and the public results page', async () => {
    const poll = await created({ feedbackPrompt: 'Details', resultsVisibility: 'after-close', channels: ['Instagram', 'Newsletter'] });
    await insertVotes(poll.sessionId, [poll.logos[0]!.id]);
    await insertReason({ pollId: poll.sessionId, logoId: poll.logos[0]!.id, voterKey: 'v1', rev: 1, text: 'Warm and simple' });
    const read = async () => {
      const res = await request(bed.server).get(`/api/admin/polls/${poll.sessionId}`);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      return AdminPollDetails.parse(res.body);
    };
    const open = await read();
    expect(open).toMatchObject({
      pollId: poll.sessionId,
      feedbackPrompt: 'Details',
      totalVotes: 1,
      closed: false,
      closedAt: null,
      resultsVisibility: 'after-close',
      resultsUrl: `${PUBLIC_ORIGIN}/results/${poll.sessionId}`,
    });
    expect(open.channels?.channels.map((channel) => [channel.name, channel.totalVotes])).toEqual([
      ['Instagram', 0],
      ['Newsletter', 0],
    ]);
    expect(open.channels?.direct.totalVotes).toBe(1);
    expect(open.reasons).toEqual([
      { logoId: poll.logos[0]!.id, reasons: [{ reason: 'Warm and simple', at: expect.any(String) }], more: false },
      { logoId: poll.logos[1]!.id, reasons: [], more: false },
    ]);

    const closing = await request(bed.server)
      .post(`/api/sessions/${poll.sessionId}/close`)
      .set(csrfHeaders(poll.sessionId))
      .set(CREATOR_TOKEN_HEADER, poll.creatorToken);
    expect(closing.status).toBe(200);
    const closed = await read();
    expect(closed.closed).toBe(true);
    expect(Date.parse(closed.closedAt!)).toBeGreaterThan(Date.now() - 60_000);

    const plain = await created({});
    expect(await read().then(() => request(bed.server).get(`/api/admin/polls/${plain.sessionId}`))).toMatchObject({
      status: 200,
      body: { resultsVisibility: 'everyone', channels: null, closed: false },
    });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['AAAAAAAAAAAAAAAA', 'nope', '%24ne']) {
      const res = await request(bed.server).get(`/api/admin/polls/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: POLL_NOT_FOUND });
    }
  });
});

describe('GET /api/admin/polls/{pollId}/results.csv', () => {
  it('gives the admin the CSV of a poll whatever its rule', async () => {
    const poll = await created({ resultsVisibility: 'after-close', channels: ['Team'] });
    await insertVotes(poll.sessionId, [poll.logos[1]!.id]);
    const res = await request(bed.server).get(`/api/admin/polls/${poll.sessionId}/results.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parse(res.text, { bom: true }) as string[][];
    expect(rows[0]).toEqual([
      'Logo',
      'Original file name',
      'Votes',
      'Percent of total votes',
      'Reason',
      'Reason date',
      'Logo name',
      'Channel',
      'Note',
      'Note date',
      'Theme',
    ]);
    expect(rows[1]!.slice(0, 4)).toEqual(['Logo A', 'Croissant blanc.png', '1', '100']);
    expect((await request(bed.server).get('/api/admin/polls/AAAAAAAAAAAAAAAA/results.csv')).status).toBe(404);
  });
});

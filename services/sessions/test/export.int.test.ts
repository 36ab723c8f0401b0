import request from 'supertest';
import { CREATOR_ONLY, CREATOR_TOKEN_HEADER } from '@logovote/contracts';
import { parse } from 'csv-parse/sync';
import { PollModel, dropReasons, insertReason } from '@logovote/models';
import { createPoll } from '../../../tests/support/integration';
import { insertVotes, sessionsTestbed } from './support';
import { insertNotesInBulk, insertReasonsInBulk } from '@logovote/models/test-support';

const bed = sessionsTestbed('export');

const HEADER = [
  'Logo',
  'Original file name',
  'Votes',
  'Percent of total votes',
  'Reason',
  'Reason date',
  'Logo name',
  'Note',
  'Note date',
  'Theme',
];

/** The creator's download (the export is the creator's only: docs/results-visibility.md). */
async function download(sessionId: string, creatorToken: string) {
  const res = await request(bed.server)
    .get(`/api/sessions/${sessionId}/results.csv`)
    .set(CREATOR_TOKEN_HEADER, creatorToken)
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
  return { res, bytes: res.body as Buffer };
}

const rowsOf = (bytes: Buffer): string[][] => parse(bytes, { bom: true, relax_column_count: false });

describe('GET /api/sessions/{id}/results.csv', () => {
  it('exports one row per logo as the results page labels and rounds them, then the reasons, newest first', async () => {
    const { sessionId, logoIds, creatorToken } = await createPoll();
    await insertVotes(sessionId, [logoIds[1]!, logoIds[1]!, logoIds[0]!]);
    await insertReason({ pollId: sessionId, logoId: logoIds[1]!, voterKey: 'v1', rev: 1, text: 'Friendly shapes' });
    await insertReason({ pollId: sessionId, logoId: logoIds[1]!, voterKey: 'v2', rev: 1, text: 'Reads well, even "small"; yes' });
    await insertReason({ pollId: sessionId, logoId: logoIds[0]!, voterKey: 'v3', rev: 1, text: 'Classic' });
    // A reason dropped by a change of vote is not exported.
    await insertReason({ pollId: sessionId, logoId: logoIds[0]!, voterKey: 'v4', rev: 1, text: 'Dropped' });
    await dropReasons('v4', 1);

    const { res, bytes } = await download(sessionId, creatorToken);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="logovote-results-${sessionId}.csv"`);
    expect(res.headers['cache-control']).toBe('no-store');
    // UTF-8 with a byte order mark (spreadsheets), CRLF line ends (RFC 4180).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8')).toContain('\r\n');

    const rows = rowsOf(bytes);
    const [header, ...data] = rows;
    expect(header).toEqual(HEADER);
    const at = (row: string[] | undefined) => row?.[5] ?? '';
    expect(data.map((row) => row.slice(0, 5))).toEqual([
      ['Logo A', 'logo-1.png', '2', '67', ''],
      ['Logo B', 'logo-0.png', '1', '33', ''],
      ['Logo C', 'logo-2.png', '0', '0', ''],
      ['Logo A', 'logo-1.png', '', '', 'Reads well, even "small"; yes'],
      ['Logo A', 'logo-1.png', '', '', 'Friendly shapes'],
      ['Logo B', 'logo-0.png', '', '', 'Classic'],
    ]);
    expect(data.slice(0, 3).map(at)).toEqual(['', '', '']);
    // The logo's name last on every row: a poll stored without names gets the file names without the extension.
    expect(data.map((row) => row[6])).toEqual(['logo-1', 'logo-0', 'logo-2', 'logo-1', 'logo-1', 'logo-0']);
    for (const row of data.slice(3)) expect(Number.isNaN(Date.parse(at(row)))).toBe(false);
  });

  it('neutralises cells a spreadsheet would run as formulas, from creators and voters alike', async () => {
    const { sessionId, logoIds, creatorToken } = await createPoll({ logos: 2 });
    await PollModel.updateOne(
      { _id: sessionId },
      { $set: { 'logos.0.originalName': '=HYPERLINK("http://evil.test","x").png', 'logos.1.originalName': 'plain, "quoted".png' } },
    );
    const hostile = ['=1+1', '+SUM(A1:A2)', '-2+3', '@cmd', '\tTAB start', 'safe = inside'];
    for (const [n, text] of hostile.entries())
      await insertReason({ pollId: sessionId, logoId: logoIds[0]!, voterKey: `h${n}`, rev: 1, text });

    const rows = rowsOf((await download(sessionId, creatorToken)).bytes).slice(1);
    expect(rows[0]!.slice(0, 2)).toEqual(['Logo A', `'=HYPERLINK("http://evil.test","x").png`]);
    expect(rows[1]!.slice(0, 2)).toEqual(['Logo B', 'plain, "quoted".png']);
    expect(rows.slice(2).map((row) => row[4])).toEqual(['safe = inside', "'\tTAB start", "'@cmd", "'-2+3", "'+SUM(A1:A2)", "'=1+1"]);
    // No cell of the file starts with a formula character.
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('streams every reason of a large poll, across export chunks, newest first', async () => {
    const { sessionId, logoIds, creatorToken } = await createPoll({ logos: 2 });
    const count = 2_100;
    await insertReasonsInBulk(
      Array.from({ length: count }, (_, n) => ({
        pollId: sessionId,
        logoId: logoIds[1]!,
        voterKey: `bulk${n}`,
        rev: 1,
        text: `reason ${n}`,
      })),
    );
    const reasons = rowsOf((await download(sessionId, creatorToken)).bytes)
      .slice(3)
      .map((row) => row[4]);
    expect(reasons).toHaveLength(count);
    expect(reasons[0]).toBe(`reason ${count - 1}`);
    expect(reasons.at(-1)).toBe('reason 0');
    expect(new Set(reasons).size).toBe(count);
  });

  it('refuses anyone but the creator with a JSON 403, whoever may see the results', async () => {
    const { sessionId } = await createPoll();
    const viewers: Record<string, string>[] = [{}, { [CREATOR_TOKEN_HEADER]: 'x'.repeat(43) }, { [CREATOR_TOKEN_HEADER]: '{"$ne":null}' }];
    for (const headers of viewers) {
      const res = await request(bed.server).get(`/api/sessions/${sessionId}/results.csv`).set(headers);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: CREATOR_ONLY.export });
    }
  });

  it("exports the notes after the reasons, and in a poll with channels each reason's and note's channel", async () => {
    const { sessionId, logoIds, creatorToken } = await createPoll({ logos: 2 });
    await PollModel.updateOne(
      { _id: sessionId },
      {
        $set: {
          channels: [
            { id: 'newslttr', name: 'Newsletter' },
            { id: 'instagrm', name: '=Instagram' },
          ],
        },
      },
    );
    await insertVotes(sessionId, [logoIds[0]!]);
    await insertReason({ pollId: sessionId, logoId: logoIds[0]!, voterKey: 'r1', rev: 1, text: 'Warm', channel: 'newslttr' });
    await insertReason({ pollId: sessionId, logoId: logoIds[0]!, voterKey: 'r2', rev: 1, text: 'Simple', channel: '' });
    await insertNotesInBulk([{ pollId: sessionId, logoId: logoIds[1]!, voterKey: 'n1', text: 'Invisible on white', channel: 'instagrm' }]);
    await insertNotesInBulk([{ pollId: sessionId, logoId: logoIds[0]!, voterKey: 'n1', text: '-Too busy', channel: 'newslttr' }]);

    const [header, ...rows] = rowsOf((await download(sessionId, creatorToken)).bytes);
    expect(header).toEqual([...HEADER.slice(0, 7), 'Channel', 'Note', 'Note date', 'Theme']);
    const withoutDates = rows.map((row) => [...row.slice(0, 5), row[7], row[8]]);
    expect(withoutDates.slice(0, 6)).toEqual([
      ['Logo A', 'logo-0.png', '1', '100', '', '', ''],
      ['Logo B', 'logo-1.png', '0', '0', '', '', ''],
      // Reasons, then notes, per logo in the page's order, each with its voter's channel (names neutralised too).
      ['Logo A', 'logo-0.png', '', '', 'Simple', 'Other / direct link', ''],
      ['Logo A', 'logo-0.png', '', '', 'Warm', 'Newsletter', ''],
      ['Logo A', 'logo-0.png', '', '', '', 'Newsletter', "'-Too busy"],
      ['Logo B', 'logo-1.png', '', '', '', "'=Instagram", 'Invisible on white'],
    ]);
    expect(rows.slice(2, 4).every((row) => !Number.isNaN(Date.parse(row[5]!)) && row[9] === '')).toBe(true);
    expect(rows.slice(4, 6).every((row) => row[5] === '' && !Number.isNaN(Date.parse(row[9]!)))).toBe(true);
    // The channel rows follow, with no note.
    expect(rows.slice(6).every((row) => row[8] === '' && row[9] === '')).toBe(true);
    expect(rows.slice(6).map((row) => row[7])).toEqual([
      'Newsletter',
      'Newsletter',
      "'=Instagram",
      "'=Instagram",
      'Other / direct link',
      'Other / direct link',
    ]);
  });

  it('answers a JSON 404 for a poll that does not exist or is being deleted', async () => {
    const deleting = await createPoll({ state: 'deleting' });
    for (const sessionId of ['AAAAAAAAAAAAAAAA', deleting.sessionId, 'not a poll']) {
      const res = await request(bed.server).get(`/api/sessions/${encodeURIComponent(sessionId)}/results.csv`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Voting session not found' });
    }
  });
});

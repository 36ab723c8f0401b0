/**
 * The notes' cost at 100 000 stored notes on one logo (docs/reasons.md, "Measured"): a measurement, not a
 * test of speed, so it asserts no timing and runs only when asked:
 * `LOGOVOTE_MEASURE_NOTES=1 LOGOVOTE_SKIP_BUILD=1 npm test -- services/votes/test/notes-scale.int.test.ts --selectProjects integration`.
 * It prints the figures and writes them to test-results/notes-scale.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { MyNotes, NotesPage } from '@logovote/contracts';
import { PollModel, VoterSeatModel } from '@logovote/models';
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
import { summary, timed } from '../../../tests/support/measure';
import { insertNotesInBulk, storedModel } from '@logovote/models/test-support';

const STORED = 100_000;
const READS = 100;
const measure = process.env.LOGOVOTE_MEASURE_NOTES === '1' ? describe : describe.skip;

measure(`notes at ${STORED} stored on one logo`, () => {
  jest.setTimeout(1_800_000);
  const config = loadConfig({
    MONGODB_URI: testDatabaseUri('notes_scale'),
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

  it('reads and writes by equality lookups, whatever is stored', async () => {
    const { sessionId, logoIds } = await createPoll({ logos: 4 });
    const busy = logoIds[1]!;
    const [, loadMs] = await timed(() =>
      insertNotesInBulk(
        Array.from({ length: STORED }, (_, n) => ({
          pollId: sessionId,
          logoId: busy,
          voterKey: `${sessionId}:scale${n}`,
          text: `note number ${n}`,
          channel: '',
        })),
      ),
    );
    const page = (cursor?: string) =>
      request(server)
        .get(`/api/sessions/${sessionId}/notes`)
        .query({ logoId: busy, ...(cursor ? { cursor } : {}) })
        .expect(200)
        .then((res) => NotesPage.parse(res.body));

    const [first, coldMs] = await timed(() => page());
    expect(first.notes[0]?.note).toBe(`note number ${STORED - 1}`);
    const newest: number[] = [];
    const deeper: number[] = [];
    for (let n = 0; n < READS; n++) {
      newest.push((await timed(() => page()))[1]);
      const [older, ms] = await timed(() => page(String(1 + Math.floor(Math.random() * (STORED - 1)))));
      expect(older.notes.length).toBeGreaterThan(0);
      deeper.push(ms);
    }

    // A voter's first note, its edit and its own notes' read, while 100 000 are stored.
    const writes: number[] = [];
    const edits: number[] = [];
    const mine: number[] = [];
    for (let n = 0; n < 30; n++) {
      const fingerprint = newFingerprint();
      const ip = `10.8.${Math.floor(n / 200)}.${n % 200}`;
      const as = <T extends request.Test>(test: T) =>
        test.set(csrfHeaders(sessionId)).set('X-Client-Fingerprint', fingerprint).set('X-Forwarded-For', ip);
      await as(request(server).post(`/api/sessions/${sessionId}/vote`))
        .send({ logoId: logoIds[0] })
        .expect(200);
      writes.push(
        (
          await timed(() =>
            as(request(server).put(`/api/sessions/${sessionId}/note`))
              .send({ logoId: busy, note: `w${n}` })
              .expect(200),
          )
        )[1],
      );
      edits.push(
        (
          await timed(() =>
            as(request(server).put(`/api/sessions/${sessionId}/note`))
              .send({ logoId: busy, note: `e${n}` })
              .expect(200),
          )
        )[1],
      );
      const [own, ms] = await timed(() => as(request(server).get(`/api/sessions/${sessionId}/my-notes`)).expect(200));
      expect(MyNotes.parse(own.body).notes).toEqual([{ logoId: busy, note: `e${n}` }]);
      mine.push(ms);
    }

    const report = {
      stored: await storedModel('logo_notes').countDocuments({ pollId: sessionId }),
      loadSeconds: Number((loadMs / 1000).toFixed(1)),
      firstPageColdMs: Number(coldMs.toFixed(1)),
      newestPage: summary(newest),
      olderPage: summary(deeper),
      firstNote: summary(writes),
      noteEdit: summary(edits),
      myNotes: summary(mine),
    };
    // eslint-disable-next-line no-console -- the measurement's output
    console.log(JSON.stringify(report, null, 2));
    mkdirSync('test-results', { recursive: true });
    writeFileSync(join('test-results', 'notes-scale.json'), `${JSON.stringify(report, null, 2)}\n`);
  });
});

/**
 * The reasons' read cost at 100 000 stored reasons in one poll (docs/reasons.md, "Measured"): a
 * measurement, not a test of speed, so it asserts no timing and runs only when asked:
 * `LOGOVOTE_MEASURE_REASONS=1 LOGOVOTE_SKIP_BUILD=1 npm test -- services/votes/test/reasons-scale.int.test.ts --selectProjects integration`.
 * It prints the figures and writes them to test-results/reasons-scale.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { ReasonsPage } from '@logovote/contracts';
import { PollModel, VoterSeatModel, allReasons } from '@logovote/models';
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
import { insertReasonsInBulk, storedModel } from '@logovote/models/test-support';

const STORED = 100_000;
const READS = 200;
const measure = process.env.LOGOVOTE_MEASURE_REASONS === '1' ? describe : describe.skip;

measure(`reasons at ${STORED} stored in one poll`, () => {
  jest.setTimeout(1_800_000);
  const config = loadConfig({
    MONGODB_URI: testDatabaseUri('reasons_scale'),
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

  it('reads a page by equality lookups, whatever is stored', async () => {
    const { sessionId, logoIds } = await createPoll({ logos: 4 });
    const busy = logoIds[0]!;
    const [, loadMs] = await timed(() =>
      insertReasonsInBulk(
        Array.from({ length: STORED }, (_, n) => ({
          pollId: sessionId,
          logoId: busy,
          voterKey: `${sessionId}:scale${n}`,
          rev: 1,
          text: `reason number ${n}`,
        })),
      ),
    );
    const page = (cursor?: string) =>
      request(server)
        .get(`/api/sessions/${sessionId}/reasons`)
        .query({ logoId: busy, ...(cursor ? { cursor } : {}) })
        .expect(200)
        .then((res) => ReasonsPage.parse(res.body));

    // A process that has not seen this logo yet finds its newest reason by searching the keys.
    const [first, coldMs] = await timed(() => page());
    expect(first.reasons[0]?.reason).toBe(`reason number ${STORED - 1}`);

    const newest: number[] = [];
    const deeper: number[] = [];
    for (let n = 0; n < READS; n++) {
      newest.push((await timed(() => page()))[1]);
      const cursor = String(1 + Math.floor(Math.random() * (STORED - 1)));
      const [older, ms] = await timed(() => page(cursor));
      expect(older.reasons.length).toBeGreaterThan(0);
      deeper.push(ms);
    }

    // A reason given while 100 000 are stored (one voter per write).
    const writes: number[] = [];
    for (let n = 0; n < 30; n++) {
      const fingerprint = newFingerprint();
      const ip = `10.9.${Math.floor(n / 200)}.${n % 200}`;
      await request(server)
        .post(`/api/sessions/${sessionId}/vote`)
        .set(csrfHeaders(sessionId))
        .set('X-Client-Fingerprint', fingerprint)
        .set('X-Forwarded-For', ip)
        .send({ logoId: busy })
        .expect(200);
      const [, ms] = await timed(() =>
        request(server)
          .put(`/api/sessions/${sessionId}/reason`)
          .set(csrfHeaders(sessionId))
          .set('X-Client-Fingerprint', fingerprint)
          .set('X-Forwarded-For', ip)
          .send({ reason: `measured write ${n}` })
          .expect(200),
      );
      writes.push(ms);
    }

    // What the export reads: every reason of the logo, a chunk at a time.
    const [exported, exportMs] = await timed(async () => {
      let rows = 0;
      for await (const _reason of allReasons(sessionId, busy)) rows++;
      return rows;
    });
    expect(exported).toBe(STORED + writes.length);

    const report = {
      stored: await storedModel('vote_reasons').countDocuments({ pollId: sessionId }),
      loadSeconds: Number((loadMs / 1000).toFixed(1)),
      firstPageColdMs: Number(coldMs.toFixed(1)),
      newestPage: summary(newest),
      olderPage: summary(deeper),
      reasonWrite: summary(writes),
      exportAllSeconds: Number((exportMs / 1000).toFixed(1)),
    };
    // eslint-disable-next-line no-console -- the measurement's output
    console.log(JSON.stringify(report, null, 2));
    mkdirSync('test-results', { recursive: true });
    writeFileSync(join('test-results', 'reasons-scale.json'), `${JSON.stringify(report, null, 2)}\n`);
  });
});

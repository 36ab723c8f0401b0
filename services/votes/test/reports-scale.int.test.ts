/**
 * The reports' costs at 100 000 stored reports (docs/moderation.md, "Reports: measured"): a measurement,
 * not a test of speed, so it asserts no timing and runs only when asked:
 * `LOGOVOTE_MEASURE_REPORTS=1 LOGOVOTE_SKIP_BUILD=1 npm test -- services/votes/test/reports-scale.int.test.ts --selectProjects integration`.
 * It prints the figures and writes them to test-results/reports-scale.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { HOUR_MS } from '@logovote/contracts';
import {
  PollModel,
  PollReportModel,
  VoterSeatModel,
  claimRateTicket,
  readPollStatus,
  pollsAwaitingReview,
  reportsOfRound,
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
import { summary, timed } from '../../../tests/support/measure';
import { insertReportsInBulk } from '@logovote/models/test-support';

const POLLS = 10_000;
const PER_POLL = 10;
const READS = 100;
const measure = process.env.LOGOVOTE_MEASURE_REPORTS === '1' ? describe : describe.skip;

measure(`reports at ${POLLS * PER_POLL} stored`, () => {
  jest.setTimeout(1_800_000);
  const config = loadConfig({
    MONGODB_URI: testDatabaseUri('reports_scale'),
    CSRF_SECRET: TEST_CSRF_SECRET,
    IP_HASH_SALT: TEST_IP_HASH_SALT,
    REPORTS_TO_HIDE: String(READS + 1),
    REPORTS_PER_ADDRESS_PER_HOUR: '1000',
  });
  let server: Server;
  beforeAll(async () => {
    await connectTestDatabase(config.MONGODB_URI, [PollModel, VoterSeatModel, PollReportModel]);
    server = createServer(buildApp({ logger: silentLogger, config }).callback());
  });
  afterAll(dropTestDatabase);

  it('reads and writes by equality lookups, whatever is stored', async () => {
    // 10 000 reported polls (ids only: the reports need no poll document), 10 reports each from 100 000 addresses.
    const pollIds = Array.from({ length: POLLS }, (_, n) => `scalepoll${String(n).padStart(11, '0')}`);
    const [, loadMs] = await timed(() =>
      insertReportsInBulk(
        pollIds.flatMap((pollId, p) =>
          Array.from({ length: PER_POLL }, (_, r) => ({
            pollId,
            round: 0,
            ipHash: `address-${p * PER_POLL + r}`,
            category: 'other' as const,
          })),
        ),
      ),
    );
    const { sessionId, logoIds } = await createPoll();

    const state: number[] = [];
    const round: number[] = [];
    const address: number[] = [];
    const reports: number[] = [];
    const votes: number[] = [];
    for (let n = 0; n < READS; n++) {
      const pollId = pollIds[Math.floor(Math.random() * POLLS)]!;
      state.push((await timed(() => readPollStatus(pollId)))[1]);
      round.push((await timed(() => reportsOfRound(pollId, 0)))[1]);
      address.push((await timed(() => claimRateTicket(`reports:address-${n * 7}`, [{ limit: 1000, windowMs: HOUR_MS }])))[1]);
      const ip = `10.8.${Math.floor(n / 200)}.${n % 200}`;
      reports.push(
        (
          await timed(() =>
            request(server)
              .post(`/api/sessions/${sessionId}/reports`)
              .set(csrfHeaders(sessionId))
              .set('X-Forwarded-For', ip)
              .send({ category: 'violence' })
              .expect(200),
          )
        )[1],
      );
      votes.push(
        (
          await timed(() =>
            request(server)
              .post(`/api/sessions/${sessionId}/vote`)
              .set(csrfHeaders(sessionId))
              .set('X-Client-Fingerprint', newFingerprint())
              .set('X-Forwarded-For', ip)
              .send({ logoId: logoIds[0] })
              .expect(200),
          )
        )[1],
      );
    }
    expect(await PollReportModel.countDocuments({ pollId: sessionId })).toBe(READS);
    const [entries, listMs] = await timed(() => pollsAwaitingReview());
    expect(entries.length).toBe(POLLS + 1);

    const figures = {
      stored: { reports: POLLS * PER_POLL + READS, reportedPolls: POLLS + 1, loadMs: Math.round(loadMs) },
      readPollStatus: summary(state),
      reportsOfRound: summary(round),
      reportRateTicket: summary(address),
      postReport: summary(reports),
      postVote: summary(votes),
      reportedPollEntriesMs: Math.round(listMs),
    };
    // eslint-disable-next-line no-console -- the measurement's output
    console.log(JSON.stringify(figures, null, 2));
    mkdirSync('test-results', { recursive: true });
    writeFileSync(join('test-results', 'reports-scale.json'), `${JSON.stringify(figures, null, 2)}\n`);
  });
});

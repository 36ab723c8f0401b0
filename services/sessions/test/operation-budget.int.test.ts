/**
 * The operation budget of the session view (GET /api/sessions/{id}, what every voting and results page
 * reads), counted on the real store at a realistic size: database operations per request (the driver's
 * command monitoring) and rows PostgreSQL reads under FerretDB (its table statistics). Counts, not times.
 */
import type { Server } from 'node:http';
import request from 'supertest';
import { voteLedger } from '@logovote/models';
import { connectMongo, type ObjectStore } from '@logovote/service-kit';
import {
  createPoll,
  dropTestDatabase,
  isolatedStore,
  removeBucket,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { countOperations, fillStore, rowsRead } from '../../../tests/support/store-costs';
import { realPipeline, sessionsServer } from './support';
import { insertFirstVotes } from '@logovote/models/test-support';

jest.setTimeout(300_000);

/** Its status, its pending revisions and its tally steps: the poll's content is kept by the process after its first view. */
const OPERATIONS = 3;
/** Beside the poll's pending revisions: its status and the few kept tally steps. */
const ROWS_BESIDE_PENDING = 5;
const RUNS = 10;
const PENDING = 20;

const uri = testDatabaseUri('session_view_budget');
const database = new URL(uri).pathname.slice(1);
let store: ObjectStore;
let server: Server;
let poll: { sessionId: string; logoIds: string[] };

beforeAll(async () => {
  await connectMongo(uri, silentLogger);
  store = await isolatedStore('session-view-budget');
  server = sessionsServer(store, realPipeline());
  poll = await createPoll({ logos: 4 });
  await fillStore(poll);
  await insertFirstVotes(
    Array.from({ length: PENDING }, (_, index) => ({
      pollId: poll.sessionId,
      fingerprint: `pending-${index}`,
      logoId: poll.logoIds[index % 4]!,
      ipHash: `pending-address-${index}`,
      seat: 0,
    })),
  );
  // The first view in a process reads the poll's content too, and keeps it.
  await request(server).get(`/api/sessions/${poll.sessionId}`).expect(200);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await removeBucket(store);
  await dropTestDatabase();
});

it('keeps the session view within its operation and row budget, at any number of polls and votes', async () => {
  let most = 0;
  const rows = await rowsRead(database, async () => {
    for (let run = 0; run < RUNS; run++) {
      const { total } = await countOperations(async () => {
        const view = await request(server).get(`/api/sessions/${poll.sessionId}`);
        expect([view.status, view.body.totalVotes]).toEqual([200, 5_000 + PENDING]);
      });
      most = Math.max(most, total);
    }
  });
  const perRequest = [...rows.values()].reduce((sum, read) => sum + read.rows, 0) / RUNS;
  process.stdout.write(`${JSON.stringify({ most, perRequest, rows: Object.fromEntries(rows) }, null, 1)}\n`);
  expect(most).toBeLessThanOrEqual(OPERATIONS);
  // Its pending revisions are what grows between folds (the folder runs every second); nothing else does.
  expect(perRequest).toBeLessThanOrEqual(PENDING + ROWS_BESIDE_PENDING);
  expect([...rows].filter(([, read]) => read.seqScans > 0).map(([collection]) => collection)).toEqual([]);

  // Folded, the same view reads the poll and its steps alone.
  await voteLedger.fold(poll.sessionId);
  const folded = await rowsRead(database, () => request(server).get(`/api/sessions/${poll.sessionId}`).expect(200));
  expect([...folded.values()].reduce((sum, read) => sum + read.rows, 0)).toBeLessThanOrEqual(ROWS_BESIDE_PENDING);
});

import { VoterSeatModel, seatsOfAddress, voteId, voteLedger } from '@logovote/models';

export interface RawUpsertResult {
  /** Upserts acknowledged per second. */
  perSecond: number;
  operations: number;
  p50Ms: number;
  p95Ms: number;
  concurrency: number;
  seconds: number;
  /** Vote documents in the collection when the measurement started. */
  collectionSize: number;
}

export interface RawUpsertOptions {
  /** The stack's MongoDB URI (its pool options included). */
  mongoUri: string;
  /** Votes are written under this poll id, which no poll has (removeRawUpserts deletes them). */
  pollId: string;
  seconds: number;
  /** Upserts in flight at once: the services' pool size, so the database sees the same queue. */
  concurrency: number;
  /** Share of upserts that change an existing vote instead of adding one (as in the vote storm). */
  changeRatio: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** A connection of its own to the stack's database, closed after `use`. */
async function withVotes<T>(mongoUri: string, use: (votes: typeof VoterSeatModel) => Promise<T>): Promise<T> {
  const connection = VoterSeatModel.db.base.createConnection(mongoUri);
  try {
    return await use(connection.model(VoterSeatModel.modelName, VoterSeatModel.schema));
  } finally {
    await connection.close();
  }
}

/**
 * The physical limit of a vote on this database: driver-level upserts of vote documents into the
 * stack's own votes collection (same shape, `_id` and indexes as the service's, and the same number of
 * documents around them: on FerretDB a lookup by key costs in proportion to the collection), under a
 * poll id of their own, `concurrency` at a time, for `seconds`. No HTTP, no validation, no reads first.
 */
export async function measureRawUpsertRate(options: RawUpsertOptions): Promise<RawUpsertResult> {
  return withVotes(options.mongoUri, async (Votes) => {
    const votes = Votes.collection;
    const collectionSize = await Votes.estimatedDocumentCount();
    const { pollId } = options;
    const logos = ['logo-a', 'logo-b', 'logo-c', 'logo-d'];
    const written: string[] = [];
    const latencies: number[] = [];
    const runId = Date.now().toString(16);
    let next = 0;
    const deadline = performance.now() + options.seconds * 1000;

    const upsertOne = async () => {
      const now = new Date();
      const logoId = logos[Math.floor(Math.random() * logos.length)];
      const changing = written.length > 0 && Math.random() < options.changeRatio;
      const fingerprint = changing ? written[Math.floor(Math.random() * written.length)]! : `${runId}-${next++}`;
      const started = performance.now();
      await votes.updateOne(
        { _id: voteId(pollId, fingerprint, fingerprint) as never },
        {
          $set: { logoId, updatedAt: now },
          // Each new voter from its own address (seat 0), as the storm spreads voters over addresses.
          $setOnInsert: { pollId, fingerprint, ipHash: fingerprint, ipSlot: 0, createdAt: now },
        },
        { upsert: true },
      );
      latencies.push(performance.now() - started);
      if (!changing) written.push(fingerprint);
    };
    const worker = async () => {
      while (performance.now() < deadline) await upsertOne();
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    const elapsedSeconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      perSecond: latencies.length / elapsedSeconds,
      operations: latencies.length,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      concurrency: options.concurrency,
      seconds: elapsedSeconds,
      collectionSize,
    };
  });
}

/** Deletes what measureRawUpsertRate wrote. */
export async function removeRawUpserts(mongoUri: string, pollId: string): Promise<void> {
  await withVotes(mongoUri, (Votes) => Votes.deleteMany({ pollId }));
}

export interface ReadCosts {
  /** Vote documents in the collection (all polls). */
  votes: number;
  /** Median milliseconds of each query a vote or a session view makes. */
  findByIdMs: number;
  seatsMs: number;
  countsMs: number;
  /** The database's own query plan for a lookup by `_id` (explain), as it words it. */
  lookupPlan: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function medianMs(run: () => Promise<unknown>, times = 5): Promise<number> {
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    durations.push(performance.now() - started);
  }
  return median(durations);
}

/**
 * What the stack's own queries cost on the database as it is now: the lookup by key of a vote change
 * and of my-vote, the address-seats query a new voter makes when its random seat is taken, and the
 * per-logo counts every session view makes.
 */
export async function measureReadCosts(mongoUri: string, pollId: string): Promise<ReadCosts> {
  const connection = VoterSeatModel.db;
  await connection.openUri(mongoUri);
  try {
    const sample = await VoterSeatModel.findOne({ pollId }).lean();
    if (!sample) throw new Error(`poll ${pollId} has no votes`);
    const explained = (await VoterSeatModel.find({ _id: sample._id }).explain()) as {
      queryPlanner?: { Plan?: unknown; winningPlan?: unknown };
    };
    // FerretDB names PostgreSQL's plan (lines or PostgreSQL's own JSON), MongoDB its winning plan.
    const plan = explained.queryPlanner?.Plan ?? explained.queryPlanner?.winningPlan ?? explained;
    return {
      lookupPlan: Array.isArray(plan) && plan.every((line) => typeof line === 'string') ? plan.join('; ') : JSON.stringify(plan),
      votes: await VoterSeatModel.estimatedDocumentCount(),
      findByIdMs: await medianMs(() => VoterSeatModel.findById(sample._id, { ipSlot: 1 }).lean()),
      seatsMs: await medianMs(() => seatsOfAddress(pollId, sample.ipHash)),
      countsMs: await medianMs(() => voteLedger.readCounts(pollId)),
    };
  } finally {
    await connection.close();
  }
}

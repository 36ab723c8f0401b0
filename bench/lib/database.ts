import { VoterSeatModel, seatsOfAddress, voteLedger } from '@logovote/models';
import { median } from './stats';

export interface ReadCosts {
  /** Vote documents in the collection (all polls). */
  votes: number;
  /** Median milliseconds of each query a vote or a session view makes. */
  findByIdMs: number;
  seatsMs: number;
  countsMs: number;
}

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
    return {
      votes: await VoterSeatModel.estimatedDocumentCount(),
      findByIdMs: await medianMs(() => VoterSeatModel.findById(sample._id, { seat: 1 }).lean()),
      seatsMs: await medianMs(() => seatsOfAddress(pollId, sample.ipHash)),
      countsMs: await medianMs(() => voteLedger.readCounts(pollId)),
    };
  } finally {
    await connection.close();
  }
}

import { sharedVoteCounts } from '../src/polls/vote-counts';

type Counts = Map<string, number>;

/** A read of the counts that the test finishes by hand, with the value it chooses. */
function manualReads() {
  const reads: { pollId: string; finish: (counts: Counts) => void; fail: (error: Error) => void }[] = [];
  const read = (pollId: string) =>
    new Promise<Counts>((resolve, reject) => {
      reads.push({ pollId, finish: resolve, fail: reject });
    });
  return { reads, read };
}

const counts = (votes: number): Counts => new Map([['logo', votes]]);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('sharedVoteCounts', () => {
  it('answers requests that arrive during a read from the next read, one for all of them', async () => {
    const { reads, read } = manualReads();
    const voteCounts = sharedVoteCounts(read);

    const first = voteCounts('poll');
    const waiting = [voteCounts('poll'), voteCounts('poll'), voteCounts('poll')];
    expect(reads).toHaveLength(1);

    reads[0]!.finish(counts(1));
    await expect(first).resolves.toEqual(counts(1));
    await settle();
    // The requests that came during the first read never get its (possibly older) answer.
    expect(reads).toHaveLength(2);
    reads[1]!.finish(counts(2));
    await expect(Promise.all(waiting)).resolves.toEqual([counts(2), counts(2), counts(2)]);
  });

  it('starts a read at once when none is running, and keeps polls apart', async () => {
    const { reads, read } = manualReads();
    const voteCounts = sharedVoteCounts(read);

    const a = voteCounts('a');
    const b = voteCounts('b');
    expect(reads.map((entry) => entry.pollId)).toEqual(['a', 'b']);
    reads[1]!.finish(counts(5));
    reads[0]!.finish(counts(3));
    await expect(a).resolves.toEqual(counts(3));
    await expect(b).resolves.toEqual(counts(5));

    const again = voteCounts('a');
    expect(reads).toHaveLength(3);
    reads[2]!.finish(counts(4));
    await expect(again).resolves.toEqual(counts(4));
  });

  it('fails only the requests of a failed read: those waiting for the next one get it', async () => {
    const { reads, read } = manualReads();
    const voteCounts = sharedVoteCounts(read);

    const failing = voteCounts('poll');
    const waiting = voteCounts('poll');
    reads[0]!.fail(new Error('database unavailable'));
    await expect(failing).rejects.toThrow('database unavailable');
    await settle();
    reads[1]!.finish(counts(7));
    await expect(waiting).resolves.toEqual(counts(7));
  });
});

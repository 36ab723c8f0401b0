/**
 * `npm run bench:admin-search`: the admin's search (docs/admin.md, "Search") at 1 000, 10 000 and 100 000 polls on
 * FerretDB 1.24 over PostgreSQL, beside a lookup of a poll by id in the same run (the reference: one indexed
 * equality read). It starts a private PostgreSQL and FerretDB of its own (fresh data under .run/bench-admin-search),
 * writes polls with the product's search entries (`searchEntriesOf`, in bulk), and times the product's own
 * `searchPolls` and the id lookup, ROUNDS times each at every size. Prints a Markdown table; asserts nothing.
 *
 *   npm run bench:admin-search                     # 100 000 polls
 *   LOGOVOTE_BENCH_SEARCH_POLLS=20000 npm run bench:admin-search
 *   LOGOVOTE_BENCH_SEARCH_REUSE=1 npm run bench:admin-search   # the last run's polls again: the largest size only
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { findFreePort, postgresUrl, repoRoot, startFerretDB, startPostgres, stopAll } from '@logovote/devstack';
import { ADMIN_SEARCH_LIMIT } from '@logovote/contracts';
import { PollModel, PollSearchTermModel, searchEntriesOf, searchPolls } from '@logovote/models';
import { activatePollsInBulk, listPollsInBulk, storedModel } from '@logovote/models/test-support';
import mongoose from 'mongoose';
import { percentile } from './lib/stats';

const TOTAL = Number(process.env.LOGOVOTE_BENCH_SEARCH_POLLS ?? 100_000);
/** Writing 100 000 polls takes many minutes: a rerun after a change to the search can measure the same ones. */
const REUSE = process.env.LOGOVOTE_BENCH_SEARCH_REUSE === '1';
const CHECKPOINTS = REUSE ? [TOTAL] : [1_000, 10_000, 100_000].filter((size) => size < TOTAL).concat(TOTAL);
const ROUNDS = 50;
const BATCH = 500;
/** As the admin route reads them. */
const SEARCH = { limit: ADMIN_SEARCH_LIMIT, candidates: 1_000 };

const log = (line: string) => process.stdout.write(`[bench:admin-search] ${line}\n`);

/** A made-up word: the vocabulary real questions draw on, most words rare, a few in almost every poll. */
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vel', 'dor', 'pi', 'nex', 'ba', 'ker', 'fo', 'lin', 'qua', 'zet'];
const word = (n: number) => {
  let text = '';
  for (let rest = n + SYLLABLES.length; rest > 0; rest = Math.floor(rest / SYLLABLES.length)) text += SYLLABLES[rest % SYLLABLES.length];
  return text;
};
const pick = (seed: number, range: number) => Math.floor(Math.abs(Math.sin(seed) * 10_000) % range);

/** Poll number `n`: a question of common and rare words, two logos with names; its own rare word `unique<n>`. */
function pollNumber(n: number) {
  const id = `bench${n.toString(36).padStart(11, '0')}`;
  const question = `Which logo for ${word(pick(n, 5_000))} ${word(pick(n * 7, 50_000))} unique${n}?`;
  return {
    _id: id,
    feedbackPrompt: question,
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000),
    logos: [0, 1].map((index) => ({
      id: `${id}-${index}`,
      filename: `${id}-${index}.png`,
      originalName: `${word(pick(n * 13 + index, 2_000))}.png`,
      name: `${word(pick(n * 17 + index, 2_000))} mark`,
      contentType: 'image/png',
      size: 1024,
    })),
  };
}

async function timed(what: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    await what();
    times.push(performance.now() - start);
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

async function main(): Promise<void> {
  const runDir = join(repoRoot, '.run', 'bench-admin-search');
  if (!REUSE) rmSync(runDir, { recursive: true, force: true });
  const pgPort = await findFreePort();
  const ferretPort = await findFreePort();
  await startPostgres({ port: pgPort, dataDir: join(runDir, 'postgres'), logDir: runDir });
  const { uri } = await startFerretDB({
    port: ferretPort,
    postgresUrl: postgresUrl(pgPort),
    stateDir: join(runDir, 'ferretdb'),
    logDir: runDir,
  });
  await mongoose.connect(`${uri}logovote-bench`);
  try {
    await Promise.all([PollModel.init(), PollSearchTermModel.init(), storedModel('poll_list').init()]);
    const rows: string[] = [];
    let written = REUSE ? await PollModel.estimatedDocumentCount() : 0;
    let entries = REUSE ? await PollSearchTermModel.estimatedDocumentCount() : 0;
    const seedStart = performance.now();
    for (const size of CHECKPOINTS) {
      while (written < size) {
        const polls = Array.from({ length: Math.min(BATCH, size - written) }, (_, i) => pollNumber(written + i));
        const terms = polls.flatMap((poll) => searchEntriesOf(poll));
        await PollModel.collection.insertMany(polls as never[], { ordered: false });
        await PollSearchTermModel.collection.insertMany(terms as never[], { ordered: false });
        await listPollsInBulk(polls.map((poll) => poll._id));
        await activatePollsInBulk(polls.map((poll) => poll._id));
        written += polls.length;
        entries += terms.length;
        if (written % 10_000 === 0)
          log(`${written} polls, ${entries} search entries, ${((performance.now() - seedStart) / 1000).toFixed(0)} s`);
      }
      const middle = pollNumber(Math.floor(size / 2));
      const cases: [string, () => Promise<unknown>][] = [
        ['reference: a poll by id (`findOne`)', () => PollModel.findById(middle._id).lean()],
        ['a word of one poll (`unique<n>`)', () => searchPolls(`unique${Math.floor(size / 2)}`, SEARCH)],
        [
          'a logo name and a question word',
          () => searchPolls(`${middle.logos[0]!.name.split(' ')[0]} ${word(pick(Math.floor(size / 2), 5_000))}`, SEARCH),
        ],
        ['a word no poll has', () => searchPolls('uniqx', SEARCH)],
        ['a word in every poll (`logo`: the first 1 000 entries)', () => searchPolls('logo', SEARCH)],
        ['a word in every poll and a question word', () => searchPolls(`logo ${word(pick(Math.floor(size / 2), 5_000))}`, SEARCH)],
        ['two words in every poll (`which logo`)', () => searchPolls('which logo', SEARCH)],
      ];
      for (const [name, run] of cases) {
        const found = (await run()) as { pollIds?: string[] } | null;
        const { p50, p95 } = await timed(run);
        const count = found && 'pollIds' in found ? String(found.pollIds!.length) : '1';
        rows.push(
          `| ${size.toLocaleString('en-US')} | ${entries.toLocaleString('en-US')} | ${name} | ${count} | ${p50.toFixed(1)} ms | ${p95.toFixed(1)} ms |`,
        );
        log(rows.at(-1)!);
      }
    }
    const [one, five, fifteen] = loadavg();
    process.stdout.write(
      [
        '',
        `Admin search on FerretDB 1.24 / PostgreSQL, ${ROUNDS} rounds per row, load average ${one!.toFixed(1)} / ${five!.toFixed(1)} / ${fifteen!.toFixed(1)}:`,
        '',
        '| Polls | Search entries | Read | Polls found | p50 | p95 |',
        '| ----- | -------------- | ---- | ----------- | --- | --- |',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await mongoose.disconnect();
    await stopAll();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench:admin-search] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

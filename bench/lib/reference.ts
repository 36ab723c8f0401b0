/**
 * The reference server (bench/reference/server.ts) beside the stack: the floor the scale section's voter flows
 * and the vote storm are measured against, reached through the gateway's /reference route (startStack's
 * harnessRoute).
 */
import { join } from 'node:path';
import mongoose from 'mongoose';
import { repoRoot, spawnManaged, stopOnFailure, waitForHttp } from '@logovote/devstack';
import { seedReferencePolls } from '../reference/server';
import type { BenchPoll } from './polls';
import type { WatchedProcess } from './processes';

export async function startReferenceServer(options: { port: number; mongoUri: string; logDir: string }): Promise<WatchedProcess> {
  const proc = spawnManaged(
    'reference',
    process.execPath,
    ['--conditions=source', '--import', 'tsx', join(repoRoot, 'bench', 'reference', 'server.ts')],
    {
      cwd: repoRoot,
      logDir: options.logDir,
      env: { ...process.env, PORT: String(options.port), MONGODB_URI: options.mongoUri, LOG_LEVEL: 'info' },
    },
  );
  await stopOnFailure(proc, waitForHttp(`http://127.0.0.1:${options.port}/healthz`, { proc, timeoutMs: 60_000 }));
  return { name: 'reference server', pid: proc.pid };
}

/** Gives each poll a twin the reference server reads under the same key. */
export async function seedReferenceTwins(mongoUri: string, polls: BenchPoll[]): Promise<void> {
  await mongoose.connect(mongoUri);
  try {
    await seedReferencePolls(polls);
  } finally {
    await mongoose.disconnect();
  }
}

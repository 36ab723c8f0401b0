/**
 * A stack never runs with a service missing: when two of its servers are given the same port, one of them
 * cannot bind it, and the start fails with that server's name and the end of its log. Ready would be a lie
 * (the other server answers on the port, under the wrong name, to everything the gateway routes there).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, stopAll } from '@logovote/devstack';
import { freePorts, startStack } from '../../scripts/lib/stack';

// A private stack's servers start here, on a machine other tests keep busy.
jest.setTimeout(180_000);

const runDir = join(repoRoot, '.run', 'faults', `${process.pid}-port-collision`);

afterAll(async () => {
  // Only a start that wrongly succeeded leaves processes behind.
  await stopAll();
  rmSync(join(runDir, 'data'), { recursive: true, force: true });
});

describe('a stack whose votes and notify services are given the same port', () => {
  it('fails to start, naming the service that could not bind and showing its log', async () => {
    const ports = await freePorts();
    ports.services.notify = ports.services.votes;
    const started = startStack({ runDir, ports, external: {}, freshData: true, logLevel: 'info', env: {}, log: () => undefined });
    // Whichever of the two binds first, the other exits: its name, then the tail of its log with the bind error.
    await expect(started).rejects.toThrow(/\b(votes|notify) \(pid \d+\) exited early with exit code \d+[\s\S]*EADDRINUSE/);
  });
});

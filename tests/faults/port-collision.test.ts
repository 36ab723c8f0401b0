/**
 * A stack never runs with a service missing. Here the votes service's port is already held by another
 * service (answering as the notify service does): the votes service cannot bind it and exits, and the start
 * must fail with its name and the end of its log, not take the other service's answers for its readiness
 * (the gateway would then send every vote to the other service).
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { repoRoot, stopAll } from '@logovote/devstack';
import { freePorts, startStack } from '../../scripts/lib/stack';

// A private stack's servers start here, on a machine other tests keep busy.
jest.setTimeout(180_000);

const runDir = join(repoRoot, '.run', 'faults', `${process.pid}-port-collision`);

/** What the notify service answers: its health under its own name, 404 to everything else. */
const notifyService = createServer((req, res) => {
  const answers: Record<string, object> = {
    '/healthz': { status: 'ok', service: 'notify' },
    '/readyz': { status: 'ready', service: 'notify', checks: { mongodb: { ok: true } } },
  };
  const answer = answers[req.url ?? ''];
  res.writeHead(answer ? 200 : 404, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(answer ?? { message: 'Not found' }));
});

afterAll(async () => {
  notifyService.close();
  // Only a start that wrongly succeeded leaves processes behind.
  await stopAll();
  rmSync(join(runDir, 'data'), { recursive: true, force: true });
});

describe('a stack whose votes service is given the port another service holds', () => {
  it('fails to start, naming the votes service and showing the end of its log', async () => {
    const ports = await freePorts();
    await new Promise<void>((resolve) => notifyService.listen(ports.services.votes, '127.0.0.1', resolve));
    const started = startStack({ runDir, ports, external: {}, freshData: true, logLevel: 'info', env: {}, log: () => undefined });
    await expect(started).rejects.toThrow(/\bvotes \(pid \d+\) exited early with exit code 1\.[\s\S]*listen EADDRINUSE/);
  });
});

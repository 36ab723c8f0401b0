import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { repoRoot } from '../src/paths';
import { findFreePort, portRange } from '../src/ports';

// Another process starts (tsx compiles on the fly): seconds on a busy machine.
jest.setTimeout(60_000);

/** Enough ports that two random picks from the range would share some (the kernel's own picks repeat at once). */
const MANY = 500;

async function takePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await findFreePort());
  return ports;
}

/** Another process on this machine taking `count` ports; it holds them until `release`. */
function otherProcessTaking(count: number): { ports: Promise<number[]>; release: () => Promise<void> } {
  const script = `
    const { findFreePort } = require(${JSON.stringify(join(repoRoot, 'scripts/devstack/src/ports.ts'))});
    void (async () => {
      const ports = [];
      for (let i = 0; i < ${count}; i++) ports.push(await findFreePort());
      process.stdout.write(JSON.stringify(ports) + '\\n');
      process.stdin.on('end', () => process.exit(0)).resume();
    })();
  `;
  const child = spawn(process.execPath, [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), '--eval', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  const ports = new Promise<number[]>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.endsWith('\n')) resolve(JSON.parse(output) as number[]);
    });
    child.on('exit', (code) => reject(new Error(`the other process exited (${code}) before answering: ${output}`)));
  });
  return {
    ports,
    release: async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

describe('findFreePort', () => {
  it('picks the ports above the kernel ephemeral range when there is room, else below it', () => {
    expect(portRange([32768, 60999])).toEqual({ first: 61000, last: 65535 });
    expect(portRange([49152, 65535])).toEqual({ first: 10000, last: 49151 });
    expect(() => portRange([10500, 65000])).toThrow('leaves fewer than 1000 ports');
  });

  it('never hands out the same port twice in one process, and only ports outside the ephemeral range', async () => {
    const ports = await takePorts(MANY);
    expect(new Set(ports).size).toBe(MANY);
    const { first, last } = portRange();
    expect(ports.every((port) => port >= first && port <= last)).toBe(true);
  });

  it('never hands out a port another process on this machine got while that process runs', async () => {
    const other = otherProcessTaking(MANY);
    try {
      const mine = await takePorts(MANY);
      const theirs = await other.ports;
      expect(theirs).toHaveLength(MANY);
      expect(mine.filter((port) => theirs.includes(port))).toEqual([]);
    } finally {
      await other.release();
    }
  });
});

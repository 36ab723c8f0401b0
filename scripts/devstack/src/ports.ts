import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';

/** Below this are system services and most development servers' fixed ports. */
const LOWEST_PORT = 10_000;
/** The fewest ports a usable range holds: a stack takes 15, and several run at once. */
const SMALLEST_RANGE = 1000;

/** The kernel's ephemeral range: what binding port 0 and outgoing connections' source ports draw from. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // Not Linux: assume IANA's range, which macOS and Windows use.
  }
  return [49152, 65535];
}

/**
 * The ports findFreePort hands out: outside the ephemeral range, so that neither a server binding port 0 nor
 * an outgoing connection takes one of them between findFreePort's answer and its server's bind. Above the
 * range when it leaves room there, else below it.
 */
export function portRange([low, high]: [number, number] = ephemeralRange()): { first: number; last: number } {
  if (65535 - high >= SMALLEST_RANGE) return { first: high + 1, last: 65535 };
  if (low - LOWEST_PORT >= SMALLEST_RANGE) return { first: LOWEST_PORT, last: low - 1 };
  throw new Error(`the ephemeral port range ${low}-${high} leaves fewer than ${SMALLEST_RANGE} ports for servers`);
}

/** Ports this process has reserved, handed out or not: each is tried once. */
const tried = new Set<number>();
/** The reservations' sockets, held for the life of the process. */
const reservations: net.Server[] = [];

/**
 * Reserves `port` machine-wide for the rest of this process's life: a listening socket in Linux's abstract
 * Unix namespace named after the port, which no other process can open while this one holds it, and which
 * the kernel closes when this process ends, however it ends (no lock file can go stale). Elsewhere only
 * this process's own reservations are known.
 */
function reserve(port: number): Promise<boolean> {
  if (process.platform !== 'linux') return Promise.resolve(true);
  return new Promise((resolve, reject) => {
    const holder = net.createServer();
    holder.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    holder.listen(`\0logovote-port-${port}`, () => {
      holder.unref();
      reservations.push(holder);
      resolve(true);
    });
  });
}

/** Whether nothing listens on `port` of 127.0.0.1 (a server of another program, or one bound to every address). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A loopback port for a server about to start: free on 127.0.0.1 now, never handed out twice, by this
 * process or by any other process on this machine using this function while the one that got it runs,
 * and outside the range the kernel picks ports from itself (portRange). Asking the kernel for a free port
 * and closing it is not enough: it hands the same port out again at once.
 */
export async function findFreePort(): Promise<number> {
  const { first, last } = portRange();
  const size = last - first + 1;
  // A random starting point: processes asking at once mostly try different ports.
  const start = randomInt(size);
  for (let i = 0; i < size; i++) {
    const port = first + ((start + i) % size);
    if (tried.has(port) || !(await reserve(port))) continue;
    tried.add(port);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port left in ${first}-${last}`);
}

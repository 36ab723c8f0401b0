import * as net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { readLogTail, type ManagedProcess } from './processes';

export interface WaitForTcpOptions {
  timeoutMs?: number;
  proc?: ManagedProcess;
}

export interface WaitForHttpOptions extends WaitForTcpOptions {
  /** Which statuses count as ready; default 200-399. */
  expectStatus?: (status: number) => boolean;
  /**
   * Whether the answer's body comes from the server expected; default any. Another server can hold the port
   * (the expected one then exits at once, failing the wait, unless this accepts the other's answer first).
   */
  expectBody?: (body: string) => boolean;
}

function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  // fetch wraps socket errors (ECONNREFUSED...) in `cause`; DOMException codes are numbers, skip those.
  const code = (x: unknown): string | undefined => {
    const c = (x as { code?: unknown } | undefined)?.code;
    return typeof c === 'string' ? c : undefined;
  };
  return code(e.cause) ?? code(e) ?? e.message;
}

const logTail = (proc: ManagedProcess | undefined) => (proc ? `\n--- tail of ${proc.logFile} ---\n${readLogTail(proc.logFile)}` : '');

/**
 * Polls `check` until it resolves, else times out. Each attempt is given up on as soon as `proc` exits, so a
 * server that dies at start-up fails the wait at once (not after a connect or fetch timeout against a port
 * someone else holds).
 */
export async function waitFor(what: string, check: () => Promise<void>, opts: WaitForTcpOptions = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  const { proc } = opts;
  const exited = proc?.exited.then((code) => ({ code }));
  let lastError = 'no attempt yet';
  while (Date.now() < deadline) {
    const tried = check().then(() => undefined, describe);
    const outcome = await (exited ? Promise.race([tried, exited]) : tried);
    if (outcome === undefined) return;
    if (typeof outcome !== 'string') {
      const how = outcome.code === null ? 'a signal' : `exit code ${outcome.code}`;
      throw new Error(`while waiting for ${what}: ${proc!.name} (pid ${proc!.pid}) exited early with ${how}.${logTail(proc)}`);
    }
    lastError = outcome;
    await sleep(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last error: ${lastError})${logTail(proc)}`);
}

/** Polls `url` with GET until it answers with an expected status. */
export async function waitForHttp(url: string, opts: WaitForHttpOptions = {}): Promise<void> {
  const expect = opts.expectStatus ?? ((s: number) => s >= 200 && s < 400);
  const fetchTimeoutMs = Math.min(5000, opts.timeoutMs ?? 60_000);
  await waitFor(
    url,
    async () => {
      const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(fetchTimeoutMs) });
      const body = await res.text(); // read in full, which also releases the socket
      if (!expect(res.status)) throw new Error(`HTTP ${res.status}`);
      if (opts.expectBody && !opts.expectBody(body)) throw new Error(`HTTP ${res.status} from another server: ${body.slice(0, 200)}`);
    },
    opts,
  );
}

function tryConnect(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port });
    sock.setTimeout(timeoutMs, () => sock.destroy(new Error('connect timeout')));
    sock.once('connect', () => {
      sock.destroy();
      resolve();
    });
    sock.once('error', reject);
  });
}

/** Polls until a TCP connection to host:port succeeds. */
export async function waitForTcp(host: string, port: number, opts: WaitForTcpOptions = {}): Promise<void> {
  await waitFor(`tcp ${host}:${port}`, () => tryConnect(host, port, 2000), opts);
}

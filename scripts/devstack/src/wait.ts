import * as net from 'node:net';
import { readLogTail, type ManagedProcess } from './processes';

const POLL_MS = 100;
const DEFAULT_TIMEOUT_MS = 60_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Outcome = { ok: true } | { ok: false; error: string } | { exited: true };

/**
 * Runs one readiness attempt, but gives up on it as soon as `proc` exits, so a
 * server that dies at start-up fails the wait at once (not after a connect or
 * fetch timeout against a port someone else holds).
 */
function attempt(run: () => Promise<void>, proc: ManagedProcess | undefined): Promise<Outcome> {
  const tried: Promise<Outcome> = run().then(
    () => ({ ok: true }),
    (e: unknown) => ({ ok: false, error: describe(e) }),
  );
  if (!proc) return tried;
  return Promise.race([tried, proc.exited.then((): Outcome => ({ exited: true }))]);
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

function exitedError(what: string, proc: ManagedProcess): Promise<Error> {
  return proc.exited.then((code) => {
    const how = code === null ? 'a signal' : `exit code ${code}`;
    return new Error(
      `while waiting for ${what}: ${proc.name} (pid ${proc.pid}) exited early with ${how}.\n` +
        `--- tail of ${proc.logFile} ---\n${readLogTail(proc.logFile)}`,
    );
  });
}

/**
 * Polls `check` until it resolves; fails fast if `proc` exits, else times out.
 * Used for protocol-level readiness such as a MongoDB ping.
 */
export async function waitFor(what: string, check: () => Promise<void>, opts: WaitForTcpOptions = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no attempt yet';
  while (Date.now() < deadline) {
    const r = await attempt(check, opts.proc);
    if ('exited' in r) throw await exitedError(what, opts.proc as ManagedProcess);
    if (r.ok) return;
    lastError = r.error;
    await sleep(POLL_MS);
  }
  throw timeoutError(what, timeoutMs, lastError, opts.proc);
}

function timeoutError(what: string, timeoutMs: number, lastError: string, proc?: ManagedProcess): Error {
  let msg = `timed out after ${timeoutMs} ms waiting for ${what} (last error: ${lastError})`;
  if (proc) msg += `\n--- tail of ${proc.logFile} ---\n${readLogTail(proc.logFile)}`;
  return new Error(msg);
}

export interface WaitForHttpOptions {
  timeoutMs?: number;
  proc?: ManagedProcess;
  /** Which statuses count as ready; default 200-399. */
  expectStatus?: (status: number) => boolean;
  /**
   * Whether the answer's body comes from the server expected; default any. Another server can hold the port
   * (the expected one then exits at once, failing the wait, unless this accepts the other's answer first).
   */
  expectBody?: (body: string) => boolean;
}

/** Polls `url` with GET until it answers with an expected status. */
export async function waitForHttp(url: string, opts: WaitForHttpOptions = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const expect = opts.expectStatus ?? ((s: number) => s >= 200 && s < 400);
  const waitOpts: WaitForTcpOptions = { timeoutMs };
  if (opts.proc) waitOpts.proc = opts.proc;
  await waitFor(
    url,
    async () => {
      const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(Math.min(5000, timeoutMs)) });
      const body = await res.text(); // read in full, which also releases the socket
      if (!expect(res.status)) throw new Error(`HTTP ${res.status}`);
      if (opts.expectBody && !opts.expectBody(body)) throw new Error(`HTTP ${res.status} from another server: ${body.slice(0, 200)}`);
    },
    waitOpts,
  );
}

export interface WaitForTcpOptions {
  timeoutMs?: number;
  proc?: ManagedProcess;
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

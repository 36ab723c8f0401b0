import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ManagedProcess {
  name: string;
  pid: number;
  /** The stop signal (SIGTERM unless set) to the whole process group, SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
  /** Exit code, or null when killed by a signal. */
  exited: Promise<number | null>;
  logFile: string;
}

export interface SpawnManagedOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  logDir: string;
  /** Run as this user (a server that refuses root, started by root). */
  uid?: number;
  gid?: number;
  /** The signal that asks for an orderly stop (default SIGTERM). */
  stopSignal?: NodeJS.Signals;
}

const STOP_GRACE_MS = 5000;

const running = new Map<number, ManagedProcess>();
let handlersInstalled = false;

/** Signals the process group; false when nothing is left in it. */
function killGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw e;
  }
}

/** Last `lines` lines of a log file ('' if unreadable); used in error messages. */
export function readLogTail(logFile: string, lines = 40): string {
  try {
    return fs
      .readFileSync(logFile, 'utf8')
      .split('\n')
      .slice(-lines - 1)
      .join('\n');
  } catch {
    return '';
  }
}

/**
 * Spawns a server in its own process group (detached) so that stopping it also
 * stops any children it forked, and so a terminal Ctrl-C reaches us first and
 * we shut it down in order. stdout+stderr are appended to <logDir>/<name>.log.
 */
export function spawnManaged(name: string, command: string, args: string[], opts: SpawnManagedOptions): ManagedProcess {
  fs.mkdirSync(opts.logDir, { recursive: true });
  const logFile = path.join(opts.logDir, `${name}.log`);
  const fd = fs.openSync(logFile, 'a');
  fs.writeSync(fd, `\n=== ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      detached: true,
      stdio: ['ignore', fd, fd],
      uid: opts.uid,
      gid: opts.gid,
    });
  } finally {
    fs.closeSync(fd); // the child holds its own copy
  }
  const pid = child.pid;
  if (pid === undefined) {
    // spawn failures (ENOENT, EACCES) are reported asynchronously; pid is the sync signal.
    child.on('error', () => undefined);
    throw new Error(`${name}: failed to start ${command} (not found or not executable)`);
  }

  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', () => resolve(null));
  }).finally(() => (done = true));

  let stopping: Promise<void> | undefined;
  const proc: ManagedProcess = {
    name,
    pid,
    logFile,
    exited,
    stop(): Promise<void> {
      stopping ??= (async () => {
        if (!done) killGroup(pid, opts.stopSignal ?? 'SIGTERM');
        const deadline = Date.now() + STOP_GRACE_MS;
        // Escalate after the grace period; the timer is cleared so it never keeps node alive.
        const escalate = setTimeout(() => killGroup(pid, 'SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(escalate);
        // The leader is gone; give leftovers in its group the rest of the grace
        // period, then kill them so nothing keeps ports or files open.
        while (killGroup(pid, 0) && Date.now() < deadline) await sleep(50);
        killGroup(pid, 'SIGKILL');
        running.delete(pid);
      })();
      return stopping;
    },
  };
  running.set(pid, proc);
  installExitHandlers();
  return proc;
}

/**
 * Awaits a readiness check; if it fails, stops the half-started server before
 * rethrowing so the caller is not left with a process it has no handle to.
 */
export async function stopOnFailure(proc: ManagedProcess, ready: Promise<void>): Promise<void> {
  try {
    await ready;
  } catch (e) {
    await proc.stop();
    throw e;
  }
}

/** Stops every process started by spawnManaged (in parallel). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running.values()].map((proc) => proc.stop()));
}

// Last-resort cleanup so servers never outlive the dev runner or test harness:
// 'exit' can only act synchronously (SIGKILL); SIGINT/SIGTERM get an orderly stop.
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const proc of running.values()) killGroup(proc.pid, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      process.removeListener(signal, onSignal);
      void stopAll().finally(() => {
        // If nobody else handles this signal, behave like the default action.
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    };
    process.on(signal, onSignal);
  }
}

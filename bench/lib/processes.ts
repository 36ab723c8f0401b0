import { readdirSync, readFileSync } from 'node:fs';

/** A process of the stack whose memory the bench reports. */
export interface WatchedProcess {
  name: string;
  pid: number;
  /** Its own threads only, not the processes it started (the bench's own process, which started the stack). */
  alone?: boolean;
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/**
 * The pid whose command line contains every string of `cmdline` (and, when given, whose environment
 * holds `env`): several stacks may run at once on this machine, so the port tells ours apart.
 */
export function findPid(cmdline: string[], env?: string): number | undefined {
  return allPids().find((pid) => {
    const args = readProc(pid, 'cmdline')?.split('\0');
    if (!args || !cmdline.every((part) => args.some((arg) => arg.includes(part)))) return false;
    return env === undefined || (readProc(pid, 'environ')?.split('\0').includes(env) ?? false);
  });
}

/** The process and its descendants (nginx's workers, for example). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const stat = readProc(pid, 'stat');
    // Field 4 (after the parenthesised command, which may contain spaces) is the parent pid.
    const parent = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : Number.NaN;
    if (Number.isInteger(parent)) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** Resident memory (VmRSS) of a process and its descendants, in bytes; NaN once it is gone. */
export function residentBytes(pid: number): number {
  let total = 0;
  for (const member of processTree(pid)) {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readProc(member, 'status') ?? '');
    if (member === pid && !match) return Number.NaN;
    if (match) total += Number(match[1]) * 1024;
  }
  return total;
}

/** Open file descriptors (sockets included) of a process and its descendants; NaN once it is gone. */
export function openFiles(pid: number): number {
  let total = 0;
  for (const member of processTree(pid)) {
    try {
      total += readdirSync(`/proc/${member}/fd`).length;
    } catch {
      if (member === pid) return Number.NaN;
    }
  }
  return total;
}

export interface MemorySampler {
  /** Peak and mean resident bytes of each process since start(). */
  stop(): Record<string, { peak: number; mean: number }>;
}

/** Samples every process's resident memory every `intervalMs`. */
export function sampleMemory(processes: WatchedProcess[], intervalMs: number): MemorySampler {
  const samples = new Map<string, number[]>(processes.map(({ name }) => [name, []]));
  const take = () => {
    for (const { name, pid } of processes) {
      const bytes = residentBytes(pid);
      if (Number.isFinite(bytes)) samples.get(name)!.push(bytes);
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return Object.fromEntries(
        [...samples].map(([name, values]) => [
          name,
          { peak: Math.max(...values), mean: values.reduce((sum, value) => sum + value, 0) / values.length },
        ]),
      );
    },
  };
}

/** CPU seconds (user + system) a process and its descendants have used so far; NaN once it is gone. */
export function cpuSeconds({ pid, alone }: WatchedProcess): number {
  let ticks = 0;
  for (const member of alone ? [pid] : processTree(pid)) {
    const stat = readProc(member, 'stat');
    if (member === pid && !stat) return Number.NaN;
    if (!stat) continue;
    // Fields 14 and 15 (utime, stime), counted after the parenthesised command.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  // Linux reports these in USER_HZ, 100 per second on every architecture it runs on.
  return ticks / 100;
}

/** CPU seconds the whole machine has been busy so far, all cores together (from /proc/stat, in USER_HZ). */
export function machineBusySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: all but idle and iowait are busy.
  const busy = fields.slice(0, 8).reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  return busy / 100;
}

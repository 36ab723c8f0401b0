import { fork, type ChildProcess } from 'node:child_process';
import { extname, join } from 'node:path';
import type { FitJob, InspectJob, InspectResult, SvgJob, SvgJobRequest, SvgJobResult } from './svg-render-jobs';

/** A drawing the renderer stopped: it took longer than the time budget. */
export class SvgRenderTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`drawing it took longer than ${timeoutMs / 1000} s`);
    this.name = 'SvgRenderTimeout';
  }
}

/** Drawings at once: one per core of the machines it runs on; more wait their turn. */
const MAX_CHILDREN = 2;
/** The child's entry beside this file: compiled JavaScript in a service, TypeScript (run by tsx) in the tests. */
const CHILD_ENTRY = join(__dirname, `svg-render-child${extname(__filename)}`);
const CHILD_EXEC_ARGV = extname(__filename) === '.ts' ? ['--import', 'tsx'] : [];

interface Reply {
  id: number;
  result?: SvgJobResult;
  error?: string;
}

/**
 * Draws SVGs (librsvg, through sharp) in child processes under a time budget. A drawing cannot be interrupted
 * inside librsvg, so the child drawing past the budget is killed (and its job refused with SvgRenderTimeout);
 * no other drawing shares that child. Children are kept for the next drawing and do not keep the service
 * alive.
 */
export class SvgRenderer {
  private readonly idle: Promise<ChildProcess>[] = [];
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private nextId = 0;

  constructor(readonly timeoutMs: number) {}

  inspect(job: Omit<InspectJob, 'kind'>): Promise<InspectResult> {
    return this.run({ kind: 'inspect', ...job }) as Promise<InspectResult>;
  }

  async fit(job: Omit<FitJob, 'kind'>): Promise<Buffer> {
    const png = (await this.run({ kind: 'fit', ...job })) as Uint8Array;
    return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  }

  private async run(job: SvgJob): Promise<SvgJobResult> {
    if (this.running >= MAX_CHILDREN) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    const ready = this.idle.pop() ?? this.start();
    let child: ChildProcess | undefined;
    try {
      child = await ready;
      child.ref();
      child.channel?.ref();
      const result = await this.ask(child, job);
      child.unref();
      child.channel?.unref();
      this.idle.push(ready);
      return result;
    } catch (error: unknown) {
      child?.kill('SIGKILL');
      throw error;
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  /** A new child, once it has loaded (and so is ready to draw within the budget). */
  private start(): Promise<ChildProcess> {
    const child = fork(CHILD_ENTRY, { execArgv: CHILD_EXEC_ARGV, serialization: 'advanced', stdio: 'inherit' });
    const ready = new Promise<ChildProcess>((resolve, reject) => {
      child.once('message', () => resolve(child));
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        reject(new Error(`the SVG renderer stopped (${signal ?? `exit code ${code}`})`));
        // A child that dies while idle is not handed another drawing.
        const index = this.idle.indexOf(ready);
        if (index !== -1) this.idle.splice(index, 1);
      });
    });
    return ready;
  }

  private ask(child: ChildProcess, job: SvgJob): Promise<SvgJobResult> {
    const id = (this.nextId += 1);
    return new Promise<SvgJobResult>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        done();
        if (reply.error !== undefined) reject(new Error(reply.error));
        else resolve(reply.result!);
      };
      const onExit = (code: number | null, signal: string | null) => {
        done();
        reject(new Error(`the SVG renderer stopped (${signal ?? `exit code ${code}`})`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new SvgRenderTimeout(this.timeoutMs));
      }, this.timeoutMs);
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({ id, job } satisfies SvgJobRequest, (error) => {
        if (!error) return;
        done();
        reject(error);
      });
    });
  }
}

const renderers = new Map<number, SvgRenderer>();

/** The process's renderer for this time budget (the upload pipeline and the link preview share it). */
export function svgRenderer(timeoutMs: number): SvgRenderer {
  let renderer = renderers.get(timeoutMs);
  if (!renderer) renderers.set(timeoutMs, (renderer = new SvgRenderer(timeoutMs)));
  return renderer;
}

import Router from '@koa/router';
import type { Health, Readiness } from '@logovote/contracts';
import type { Logger } from 'pino';
import { dbCommandCounts } from './mongo';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2000;

const TIMED_OUT = `timed out after ${CHECK_TIMEOUT_MS} ms`;

/** The reason goes to the log; the answer (public through the gateway) names no host, port or bucket. */
async function runCheck(check: ReadinessCheck, logger: Logger): Promise<{ ok: boolean; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(TIMED_OUT)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check.check(), timeout]);
    return { ok: true };
  } catch (error: unknown) {
    logger.warn({ err: error, check: check.name }, 'readiness check failed');
    return { ok: false, error: error instanceof Error && error.message === TIMED_OUT ? TIMED_OUT : 'unavailable' };
  } finally {
    clearTimeout(timer);
  }
}

/** Counts by command name in Prometheus' text format; names sorted, so two scrapes compare line by line. */
export function dbCommandMetrics(counts: Record<string, number>): string {
  const lines = Object.keys(counts)
    .sort()
    .map((command) => `logovote_db_commands_total{command="${command.replace(/[\\"\n]/g, '_')}"} ${counts[command]}`);
  return [
    '# HELP logovote_db_commands_total Database commands this process started, by command name.',
    '# TYPE logovote_db_commands_total counter',
    ...lines,
    '',
  ].join('\n');
}

/**
 * `/healthz`: the process answers. `/readyz`: every dependency answers (503 otherwise). `/metrics`: the
 * database commands so far; on the service's own port only, since the gateway routes no path of that name.
 */
export function healthRouter(service: string, checks: ReadinessCheck[], logger: Logger): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    const body: Health = { status: 'ok', service };
    ctx.body = body;
  });
  router.get('/readyz', async (ctx) => {
    const results = await Promise.all(checks.map(async (check) => [check.name, await runCheck(check, logger)] as const));
    const ready = results.every(([, result]) => result.ok);
    const body: Readiness = { status: ready ? 'ready' : 'unavailable', service, checks: Object.fromEntries(results) };
    ctx.status = ready ? 200 : 503;
    ctx.body = body;
  });
  router.get('/metrics', (ctx) => {
    ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
    ctx.body = dbCommandMetrics(dbCommandCounts());
  });
  return router;
}

import Router from '@koa/router';
import { AdminRefusalsQuery, type UploadRefusalList } from '@logovote/contracts';
import { listUploadRefusals } from '@logovote/models';
import { parseInput } from '@logovote/service-kit';

/** The admin's list of the uploads poll creation refused in the last 30 days (behind the gateway's admin credentials). */
export function refusalsRouter(): Router {
  const router = new Router({ prefix: '/api/admin' });

  router.get('/refusals', async (ctx) => {
    const { before, limit } = parseInput(AdminRefusalsQuery, ctx.query);
    const { refusals, next } = await listUploadRefusals({ before, limit });
    const body: UploadRefusalList = refusals.map((refusal) => ({
      refusalId: refusal._id,
      at: refusal.at.toISOString(),
      fileName: refusal.fileName,
      declaredType: refusal.declaredType,
      size: refusal.size,
      stage: refusal.stage,
      status: refusal.status,
      message: refusal.message,
      ...(refusal.refusedBy ? { refusedBy: refusal.refusedBy } : {}),
      ...(refusal.checks ? { checks: refusal.checks.map(({ check, isValid, reason }) => ({ check, isValid, reason })) } : {}),
    }));
    ctx.set('Cache-Control', 'no-store');
    if (next !== undefined) ctx.set('Link', `</api/admin/refusals?before=${next}&limit=${limit}>; rel="next"`);
    ctx.body = body;
  });

  return router;
}

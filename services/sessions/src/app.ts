import type Koa from 'koa';
import { DEFAULT_SVG_SETTINGS, type SvgSettings, type UploadPipeline } from '@logovote/media-pipeline';
import { createServiceApp, mongoReadiness, objectStoreReadiness, type Logger, type ObjectStore } from '@logovote/service-kit';
import { requestLimits, type RequestLimits } from './config';
import { LiveCountsHub } from './live/live-counts';
import { UploadRefusalRecorder } from './polls/upload-refusals';
import { adminRouter } from './routes/admin';
import { adminLoginRouter } from './routes/admin-login';
import { channelsRouter } from './routes/channels';
import { closingRouter } from './routes/closing';
import { exportRouter } from './routes/export';
import { linkPreviewRouter } from './routes/link-preview';
import { liveRouter } from './routes/live';
import { refusalsRouter } from './routes/refusals';
import { resultsPassRouter } from './routes/results-pass';
import { sessionsRouter } from './routes/sessions';

export interface SessionsDeps {
  logger: Logger;
  store: ObjectStore;
  pipeline: UploadPipeline;
  csrfSecret: string;
  /** Keys the voter passes and the address's hash, as in the votes service (whether a viewer has voted). */
  ipHashSalt: string;
  /** votingUrl and resultsUrl start with it (no trailing slash). */
  publicOrigin: string;
  /** The live results' streams of this replica (one is made when none is given). */
  liveCounts?: LiveCountsHub;
  /** Records the uploads creation refuses (one is made when none is given). */
  refusals?: UploadRefusalRecorder;
  /** Poll creations per address, upload rate, proxies (the configuration's defaults when none are given). */
  limits?: RequestLimits;
  /** The SVG cost limits link previews draw logos within, as uploads are checked (the defaults when not given). */
  svg?: SvgSettings;
}

/**
 * Polls: creation, lookup, plan, closing, live counts, results export, link previews, admin listing and deletion, the
 * admin's list of refused uploads (the retention sweeps run beside it, see server.ts).
 */
export function buildApp(deps: SessionsDeps): Koa {
  const limits = deps.limits ?? requestLimits();
  return createServiceApp({
    service: 'sessions',
    logger: deps.logger,
    routers: [
      sessionsRouter({
        ...deps,
        refusals: deps.refusals ?? new UploadRefusalRecorder(deps.logger),
        creationLimits: limits.creations,
        uploadRate: limits.uploadRate,
      }),
      closingRouter(deps.csrfSecret),
      resultsPassRouter(deps.csrfSecret),
      liveRouter(deps.liveCounts ?? new LiveCountsHub({ logger: deps.logger }), deps),
      adminRouter(deps),
      adminLoginRouter(deps.csrfSecret),
      refusalsRouter(),
      exportRouter(deps.logger, deps),
      channelsRouter(deps),
      linkPreviewRouter({ ...deps, svg: deps.svg ?? DEFAULT_SVG_SETTINGS }),
    ],
    readiness: [mongoReadiness, objectStoreReadiness(deps.store)],
    trustedProxyHops: limits.trustedProxyHops,
  });
}

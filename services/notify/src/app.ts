import type Koa from 'koa';
import { createServiceApp, mongoReadiness, type Logger } from '@logovote/service-kit';
import type { Config } from './config';
import type { Mailer } from './mailer';
import { notifyRouter } from './routes/notify';

export interface NotifyDeps {
  logger: Logger;
  mailer: Mailer;
  config: Pick<Config, 'CSRF_SECRET' | 'PUBLIC_ORIGIN' | 'NOTIFY_EMAILS_PER_POLL_PER_HOUR'>;
}

/** E-mail: sends the creator the voting and results links. */
export function buildApp({ logger, mailer, config }: NotifyDeps): Koa {
  const router = notifyRouter({
    logger,
    mailer,
    csrfSecret: config.CSRF_SECRET,
    publicOrigin: config.PUBLIC_ORIGIN,
    emailsPerPollPerHour: config.NOTIFY_EMAILS_PER_POLL_PER_HOUR,
  });
  // The SMTP server is not a readiness check: while it is down the service still answers, with a 502.
  return createServiceApp({ service: 'notify', logger, routers: [router], readiness: [mongoReadiness] });
}

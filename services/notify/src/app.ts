import type Koa from 'koa';
import { createServiceApp, mongoReadiness, type Logger, type ObjectStore } from '@logovote/service-kit';
import type { Config } from './config';
import type { Mailer } from './mailer';
import { notifyRouter } from './routes/notify';

export interface NotifyDeps {
  logger: Logger;
  mailer: Mailer;
  /** Where the logos are: the e-mail shows them small. */
  store: ObjectStore;
  config: Pick<
    Config,
    | 'CSRF_SECRET'
    | 'PUBLIC_ORIGIN'
    | 'TRUSTED_PROXY_HOPS'
    | 'NOTIFY_EMAILS_PER_POLL_PER_HOUR'
    | 'NOTIFY_EMAILS_PER_SENDER_PER_HOUR'
    | 'NOTIFY_EMAILS_PER_RECIPIENT_PER_DAY'
  >;
}

/** E-mail: sends the creator the voting and results links. */
export function buildApp({ logger, mailer, store, config }: NotifyDeps): Koa {
  const router = notifyRouter({
    logger,
    mailer,
    store,
    csrfSecret: config.CSRF_SECRET,
    publicOrigin: config.PUBLIC_ORIGIN,
    limits: {
      perPollPerHour: config.NOTIFY_EMAILS_PER_POLL_PER_HOUR,
      perSenderPerHour: config.NOTIFY_EMAILS_PER_SENDER_PER_HOUR,
      perRecipientPerDay: config.NOTIFY_EMAILS_PER_RECIPIENT_PER_DAY,
    },
  });
  // The SMTP server is not a readiness check: while it is down the service still answers, with a 502. Nor is
  // the object store: without it the e-mail goes without the logos' thumbnails.
  return createServiceApp({
    service: 'notify',
    logger,
    routers: [router],
    readiness: [mongoReadiness],
    trustedProxyHops: config.TRUSTED_PROXY_HOPS,
  });
}

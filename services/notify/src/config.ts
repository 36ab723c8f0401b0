import { z } from 'zod';
import { csrfEnv, objectStoreEnv, parseEnv, portEnv, publicOriginEnv, serviceEnv, trustedProxyEnv } from '@logovote/service-kit';

const notifyEnv = serviceEnv
  .extend(portEnv(4004).shape)
  .extend(csrfEnv.shape)
  .extend(publicOriginEnv.shape)
  .extend(trustedProxyEnv.shape)
  // The logos, read for the e-mail's thumbnails.
  .extend(objectStoreEnv.shape)
  .extend({
    /** The SMTP server the links are sent through (MailDev locally); smtps:// for TLS, credentials in the URL. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .default('smtp://127.0.0.1:1025'),
    MAIL_FROM: z.string().min(3).default('LogoVote <no-reply@logovote.local>'),
    /** E-mails one poll may send in any hour, so the endpoint cannot be used to spam arbitrary addresses. */
    NOTIFY_EMAILS_PER_POLL_PER_HOUR: z.coerce.number().int().min(1).default(5),
    /**
     * E-mails one network address may have sent in any hour, across all its polls: twice the polls it may
     * create in an hour (a creator who mistyped the address sends again), so making polls does not make mail.
     */
    NOTIFY_EMAILS_PER_SENDER_PER_HOUR: z.coerce.number().int().min(1).default(20),
    /** E-mails one recipient's mailbox may get in any 24 hours, from all polls and senders: the most a stranger can be sent. */
    NOTIFY_EMAILS_PER_RECIPIENT_PER_DAY: z.coerce.number().int().min(1).default(10),
  });

export type Config = z.infer<typeof notifyEnv>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(notifyEnv, env);
}

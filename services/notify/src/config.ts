import { z } from 'zod';
import { csrfEnv, parseEnv, portEnv, publicOriginEnv, serviceEnv } from '@logovote/service-kit';

const notifyEnv = serviceEnv
  .extend(portEnv(4004).shape)
  .extend(csrfEnv.shape)
  .extend(publicOriginEnv.shape)
  .extend({
    /** The SMTP server the links are sent through (MailDev locally); smtps:// for TLS, credentials in the URL. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .default('smtp://127.0.0.1:1025'),
    MAIL_FROM: z.string().min(3).default('LogoVote <no-reply@logovote.local>'),
    /** E-mails one poll may send per hour, so the endpoint cannot be used to spam arbitrary addresses. */
    NOTIFY_EMAILS_PER_POLL_PER_HOUR: z.coerce.number().int().min(1).default(5),
  });

export type Config = z.infer<typeof notifyEnv>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(notifyEnv, env);
}

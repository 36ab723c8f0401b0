import { z } from 'zod';
import { csrfEnv, parseEnv, portEnv, serviceEnv } from '@logovote/service-kit';

const notifyEnv = serviceEnv
  .extend(portEnv(4004).shape)
  .extend(csrfEnv.shape)
  .extend({
    /** The SMTP server the links are sent through (MailDev locally); smtps:// for TLS, credentials in the URL. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .default('smtp://127.0.0.1:1025'),
    MAIL_FROM: z.string().min(3).default('LogoVote <no-reply@logovote.local>'),
    /** Where the product is reached: the e-mail's links are built from it. */
    PUBLIC_ORIGIN: z
      .url()
      .default('http://localhost:8080')
      .transform((origin) => origin.replace(/\/+$/, '')),
    /** E-mails one poll may send per hour, so the endpoint cannot be used to spam arbitrary addresses. */
    NOTIFY_EMAILS_PER_POLL_PER_HOUR: z.coerce.number().int().min(1).default(5),
  });

export type Config = z.infer<typeof notifyEnv>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(notifyEnv, env);
}

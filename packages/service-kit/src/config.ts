import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment with a zod schema and fails fast naming every bad variable. */
export function parseEnv<Schema extends z.ZodType>(schema: Schema, env: NodeJS.ProcessEnv = process.env): z.infer<Schema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}

const port = z.coerce.number().int().min(1).max(65535);

/** Settings every service reads. */
export const serviceEnv = z.object({
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URI')
    .default('mongodb://127.0.0.1:27017/logovote'),
});

/** Settings of services that read or write logo objects. */
export const objectStoreEnv = z.object({
  S3_ENDPOINT: z.url().default('http://127.0.0.1:9000'),
  S3_ACCESS_KEY: z.string().min(3),
  S3_SECRET_KEY: z.string().min(8),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name')
    .default('logovote-logos'),
  S3_REGION: z.string().default('us-east-1'),
});

export const portEnv = (defaultPort: number) => z.object({ PORT: port.default(defaultPort) });

/** Where people open the product; the links it hands out (voting, results) start with it. */
export const publicOriginEnv = z.object({
  PUBLIC_ORIGIN: z
    .url()
    .default('http://localhost:8080')
    .transform((origin) => origin.replace(/\/+$/, '')),
});

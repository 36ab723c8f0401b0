import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface StackSecrets {
  csrfSecret: string;
  ipHashSalt: string;
  adminUser: string;
  adminPassword: string;
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

/** Generated once per run folder and kept, so a restart keeps cookies and admin credentials valid. */
export function loadOrCreateSecrets(file: string, env: NodeJS.ProcessEnv): StackSecrets {
  const stored: Partial<StackSecrets> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<StackSecrets>) : {};
  const secrets: StackSecrets = {
    csrfSecret: env.CSRF_SECRET ?? stored.csrfSecret ?? token(32),
    ipHashSalt: env.IP_HASH_SALT ?? stored.ipHashSalt ?? token(32),
    adminUser: env.ADMIN_USER ?? stored.adminUser ?? 'admin',
    adminPassword: env.ADMIN_PASSWORD ?? stored.adminPassword ?? token(12),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}

/** One htpasswd line in nginx's salted SHA-1 scheme ({SSHA}), which nginx checks natively. */
export function htpasswdLine(user: string, password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `${user}:{SSHA}${Buffer.concat([digest, salt]).toString('base64')}\n`;
}

import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnManaged, stopOnFailure, type ManagedProcess } from './processes';
import { toolPath } from './tools';
import { waitForHttp } from './wait';

export interface StartMailCatcherOptions {
  smtpPort: number;
  /** The address SMTP listens on (default 127.0.0.1); the REST API stays on loopback. */
  smtpHost?: string;
  httpPort: number;
  logDir: string;
}

/**
 * MailDev on 127.0.0.1: SMTP on smtpPort (no auth, no TLS), web UI + REST API on
 * httpPort. apiUrl is the HTTP base (http://127.0.0.1:PORT); the REST API lives
 * under /api (see mailCatcherClient).
 */
export async function startMailCatcher(o: StartMailCatcherOptions): Promise<{ proc: ManagedProcess; smtpPort: number; apiUrl: string }> {
  // Without --mail-directory MailDev writes to a shared os.tmpdir()/maildev; with
  // it, it reloads whatever is there, so give each instance its own, emptied dir.
  const mailDir = path.resolve(o.logDir, `maildev-${o.smtpPort}`);
  fs.rmSync(mailDir, { recursive: true, force: true });
  fs.mkdirSync(mailDir, { recursive: true });
  const proc = spawnManaged(
    'maildev',
    // Run the JS entry with this node rather than relying on `env node` in PATH.
    process.execPath,
    [
      toolPath('maildev'),
      '--smtp',
      String(o.smtpPort),
      '--ip',
      o.smtpHost ?? '127.0.0.1',
      '--web',
      String(o.httpPort),
      '--web-ip',
      '127.0.0.1',
      '--mail-directory',
      mailDir,
    ],
    // cwd matters: MailDev picks up .maildevrc.json / maildev.config.* from cwd and its parents.
    { logDir: o.logDir, cwd: mailDir },
  );
  const apiUrl = `http://127.0.0.1:${o.httpPort}`;
  await stopOnFailure(proc, waitForHttp(`${apiUrl}/api/healthz`, { proc, timeoutMs: 60_000 }));
  return { proc, smtpPort: o.smtpPort, apiUrl };
}

export interface CaughtMail {
  id: string;
  subject: string;
  /** Recipient addresses (To header). */
  to: string[];
  /** SMTP envelope recipients (RCPT TO: includes Bcc). */
  envelopeTo: string[];
  /** Sender address (From header). */
  from: string;
  /** ISO time MailDev received it. */
  time: string;
  text?: string;
  html?: string;
  /** Raw MIME headers, lower-cased names. */
  headers: Record<string, string | string[]>;
  /** Attached files, inline images (with their Content-ID) too. */
  attachments: { fileName: string; contentType: string; contentId?: string }[];
}

type MailDevAddresses = { address: string }[];

interface MailDevEmail {
  id: string;
  time: string;
  subject?: string;
  from?: MailDevAddresses;
  to?: MailDevAddresses;
  text?: string;
  html?: string;
  headers?: Record<string, string | string[]>;
  envelope?: { to?: MailDevAddresses };
  attachments?: { generatedFileName: string; contentType: string; contentId?: string }[];
}

export type MailCatcherClient = ReturnType<typeof mailCatcherClient>;

/** Client for MailDev's REST API (GET /api/email, GET /api/email/{id}/attachment/{file}, DELETE /api/email/all). */
export function mailCatcherClient(apiUrl: string) {
  const base = apiUrl.replace(/\/+$/, '');
  const call = async (method: string, p: string): Promise<unknown> => {
    const res = await fetch(`${base}${p}`, { method });
    const body = await res.text();
    if (!res.ok) throw new Error(`MailDev ${method} ${p}: HTTP ${res.status} ${body.slice(0, 200)}`);
    return body ? (JSON.parse(body) as unknown) : undefined;
  };
  /** All caught mails, oldest first. */
  const list = async (): Promise<CaughtMail[]> => {
    const emails = (await call('GET', '/api/email')) as MailDevEmail[];
    return emails.map((e) => ({
      id: e.id,
      subject: e.subject ?? '',
      to: (e.to ?? []).map((a) => a.address),
      envelopeTo: (e.envelope?.to ?? []).map((a) => a.address),
      from: e.from?.[0]?.address ?? '',
      time: e.time,
      text: e.text,
      html: e.html,
      headers: e.headers ?? {},
      attachments: (e.attachments ?? []).map((a) => ({
        fileName: a.generatedFileName,
        contentType: a.contentType,
        contentId: a.contentId?.replace(/^<|>$/g, ''),
      })),
    }));
  };
  return {
    list,
    /** The bytes of one attachment of a caught mail. */
    async attachment(mailId: string, fileName: string): Promise<Buffer> {
      const res = await fetch(`${base}/api/email/${encodeURIComponent(mailId)}/attachment/${encodeURIComponent(fileName)}`);
      if (!res.ok) throw new Error(`MailDev attachment ${fileName}: HTTP ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
    /** Deletes all caught mails. */
    async clear(): Promise<void> {
      await call('DELETE', '/api/email/all');
    },
    /** Polls list() until a mail matches (mail delivery is asynchronous); throws after timeoutMs. */
    async waitFor(predicate: (m: CaughtMail) => boolean, opts: { timeoutMs?: number } = {}): Promise<CaughtMail> {
      const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
      for (;;) {
        const hit = (await list()).find(predicate);
        if (hit) return hit;
        if (Date.now() >= deadline) throw new Error(`no matching mail in MailDev after ${opts.timeoutMs ?? 10_000} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@logovote/devstack';
import { CSRF_COOKIE } from '@logovote/service-kit';

export interface BenchPoll {
  sessionId: string;
  logoIds: string[];
  filenames: string[];
  /** Valid with the anti-forgery cookie the polls were created with. */
  csrfToken: string;
}

/** The test fixtures, small real logos of four formats. */
const FIXTURES: [string, string][] = [
  ['logo-square.png', 'image/png'],
  ['logo-ring.png', 'image/png'],
  ['logo-triangle.jpg', 'image/jpeg'],
  ['logo-diamond.webp', 'image/webp'],
];

/**
 * Creates `count` polls of four logos through the gateway, as one browser: every poll's token is
 * valid with the one anti-forgery cookie returned (`lv_csrf=...`).
 */
export async function createPolls(gatewayUrl: string, count: number): Promise<{ polls: BenchPoll[]; csrfCookie: string }> {
  const polls: BenchPoll[] = [];
  let cookie = '';
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    form.append('feedbackPrompt', 'Which logo do you like best?');
    for (const [name, type] of FIXTURES) {
      form.append('logos', new Blob([readFileSync(join(repoRoot, 'tests', 'fixtures', name))], { type }), name);
    }
    const res = await fetch(`${gatewayUrl}/api/sessions`, { method: 'POST', body: form, headers: cookie ? { Cookie: cookie } : {} });
    if (res.status !== 201) throw new Error(`creating a poll failed: HTTP ${res.status} ${await res.text()}`);
    cookie ||=
      res.headers
        .getSetCookie()
        .find((header) => header.startsWith(`${CSRF_COOKIE}=`))
        ?.split(';')[0] ?? '';
    const created = (await res.json()) as { sessionId: string; csrfToken: string; logos: { id: string; filename: string }[] };
    polls.push({
      sessionId: created.sessionId,
      logoIds: created.logos.map((logo) => logo.id),
      filenames: created.logos.map((logo) => logo.filename),
      csrfToken: created.csrfToken,
    });
  }
  if (!cookie) throw new Error(`the gateway set no ${CSRF_COOKIE} cookie`);
  return { polls, csrfCookie: cookie.slice(CSRF_COOKIE.length + 1) };
}

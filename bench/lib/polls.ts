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

/** The question every poll of the bench asks. */
export const BENCH_QUESTION = 'Which logo do you like best?';

/** A logo file to upload. */
export interface LogoFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/** The test fixtures, real 256 × 256 logos of four formats. */
const FIXTURES: LogoFile[] = [
  ['logo-square.png', 'image/png'],
  ['logo-ring.png', 'image/png'],
  ['logo-triangle.jpg', 'image/jpeg'],
  ['logo-diamond.webp', 'image/webp'],
].map(([name, type]) => ({ name: name!, type: type!, bytes: readFileSync(join(repoRoot, 'tests', 'fixtures', name!)) }));

/**
 * Creates `count` polls of four logos (the test fixtures unless `logos` names others, with the creation form's other
 * `fields`) through the gateway, as one browser: every poll's token is valid with the one anti-forgery cookie
 * returned (`lv_csrf=...`).
 */
export async function createPolls(
  gatewayUrl: string,
  count: number,
  logos: LogoFile[] = FIXTURES,
  fields: Record<string, string> = {},
): Promise<{ polls: BenchPoll[]; csrfCookie: string }> {
  const polls: BenchPoll[] = [];
  let cookie = '';
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    form.append('feedbackPrompt', BENCH_QUESTION);
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const { name, type, bytes } of logos) form.append('logos', new Blob([bytes], { type }), name);
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

/** A poll's votes per logo id, as the API counts them. */
export async function voteCounts(gatewayUrl: string, pollId: string): Promise<Record<string, number>> {
  const session = (await (await fetch(`${gatewayUrl}/api/sessions/${pollId}`)).json()) as { logos: { id: string; voteCount: number }[] };
  return Object.fromEntries(session.logos.map((logo) => [logo.id, logo.voteCount]));
}

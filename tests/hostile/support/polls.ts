/** Polls and anti-forgery tokens made through the gateway, as a browser gets them. */
import type { CreatedSessionWithCreatorToken, SessionView } from '@logovote/contracts';
import { call, multipart, type Target } from './http';

/** Creates a poll of the given images through the gateway (201 expected). */
export async function createPollVia(target: Target, images: Buffer[], feedbackPrompt?: string): Promise<CreatedSessionWithCreatorToken> {
  const { body, contentType } = multipart([
    ...(feedbackPrompt ? [{ name: 'feedbackPrompt', data: feedbackPrompt }] : []),
    ...images.map((data, index) => ({ name: 'logos', filename: `logo-${index}.png`, type: 'image/png', data })),
  ]);
  const answer = await call(target, { method: 'POST', path: '/api/sessions', headers: { 'Content-Type': contentType }, body });
  if (answer.status !== 201) throw new Error(`poll creation answered ${answer.status}: ${answer.body}`);
  return JSON.parse(answer.body) as CreatedSessionWithCreatorToken;
}

/** The `lv_csrf=...` pair of a Set-Cookie header. */
export function csrfCookieOf(setCookie: string | undefined): string {
  const pair = /lv_csrf=[^;,\s]+/.exec(setCookie ?? '');
  if (!pair) throw new Error(`no anti-forgery cookie in ${String(setCookie)}`);
  return pair[0];
}

/** Looks a poll up as a browser holding `cookie` (or none yet): the token for it, and the cookie to send with it. */
export async function tokenFor(
  target: Target,
  sessionId: string,
  cookie?: string,
): Promise<{ cookie: string; token: string; view: SessionView }> {
  const answer = await call(target, { method: 'GET', path: `/api/sessions/${sessionId}`, headers: cookie ? { Cookie: cookie } : {} });
  if (answer.status !== 200) throw new Error(`session lookup answered ${answer.status}: ${answer.body}`);
  const view = JSON.parse(answer.body) as SessionView;
  if (!view.csrfToken) throw new Error('no csrfToken in the session lookup');
  return { cookie: cookie ?? csrfCookieOf(answer.headers['set-cookie']), token: view.csrfToken, view };
}

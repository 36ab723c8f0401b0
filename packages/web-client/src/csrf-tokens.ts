/**
 * The anti-forgery token of each poll (spec section 6), cached per session id. Every write to
 * `/api/sessions/{id}/...` sends the token of that id in X-CSRF-Token.
 */
export class CsrfTokenCache {
  private readonly tokens = new Map<string, string>();

  get(sessionId: string): string | undefined {
    return this.tokens.get(sessionId);
  }

  set(sessionId: string, token: string | undefined): void {
    if (token) this.tokens.set(sessionId, token);
  }
}

const SESSION_PATH = /\/api\/sessions\/([^/?#]+)/;

/** The session id in a URL of the form `.../api/sessions/{id}...`, or null (e.g. `POST /api/sessions`). */
export function sessionIdInUrl(url: string): string | null {
  const match = SESSION_PATH.exec(url);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

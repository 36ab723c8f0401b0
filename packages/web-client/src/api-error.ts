/**
 * A non-OK response of the API, as the browser sees it. Its message is the spec's generic one (section 8):
 * the status code, a colon and a space, then the response body text, or the status text when the body is empty.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly bodyText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
  }

  /** The `message` field of a JSON error body (every service answers errors as `{ message }`), if any. */
  get serverMessage(): string | undefined {
    try {
      const body: unknown = JSON.parse(this.bodyText);
      const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
      return typeof message === 'string' && message.trim() ? message : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Parses a JSON body; an empty body (204, or a 202 without content) is `undefined`. */
export function parseResponseJson<T>(text: string): T {
  return (text ? JSON.parse(text) : undefined) as T;
}

import { ApiError } from '@logovote/web-client';

/**
 * The server's message when a vote was refused because the poll closed meanwhile (409, docs/closing.md)
 * or was hidden pending review (409, docs/moderation.md), shown in the spec's 'Error' toast instead of the
 * bare status: the visitor learns why, and the page then shows the final results (or the notice).
 */
export function votingClosedMessage(error: Error): string | undefined {
  return error.cause instanceof ApiError && error.cause.status === 409 ? error.cause.serverMessage : undefined;
}

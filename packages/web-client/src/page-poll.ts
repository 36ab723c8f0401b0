import type { SessionView } from '@logovote/contracts';

/**
 * The poll the gateway wrote into the page's HTML (an SSI subrequest, see shells/web/index.html), so
 * the first screen of /vote/{id} and /results/{id} needs no request of its own before it can show the
 * poll. HTML-escaped there; a <template>'s text is the JSON as the sessions service answered it.
 * Free of state and of other modules, so the shell's entry can read it before the shared libraries load.
 */
export const PAGE_POLL_ELEMENT_ID = 'logovote-poll';

/** The text of the page's <template id={id}>, or undefined when the page has none or it is empty. */
export function embeddedText(id: string): string | undefined {
  const element = typeof document === 'undefined' ? null : document.getElementById(id);
  const text = element instanceof HTMLTemplateElement ? element.content.textContent?.trim() : undefined;
  return text || undefined;
}

/** The poll embedded in the page, if it is one (the gateway embeds nothing when the service does not answer with the poll). */
function embeddedPoll(): SessionView | undefined {
  const text = embeddedText(PAGE_POLL_ELEMENT_ID);
  if (!text) return undefined;
  try {
    const poll = JSON.parse(text) as Partial<SessionView> | null;
    return typeof poll?.sessionId === 'string' && Array.isArray(poll.logos) ? (poll as SessionView) : undefined;
  } catch {
    return undefined;
  }
}

/** How long after the page started the embedded poll still stands for a first read (its counts age). */
const PAGE_POLL_FRESH_MS = 60_000;

/**
 * The embedded poll, once, for the first read of that poll on this page and only while fresh: later
 * reads (the results page's next visit, the token refresh before a vote) ask the server.
 */
export function pagePollReader(
  read: () => SessionView | undefined = embeddedPoll,
  now: () => number = () => performance.now(),
): (sessionId: string) => SessionView | undefined {
  let unread = true;
  return (sessionId) => {
    if (!unread) return undefined;
    const poll = read();
    if (poll?.sessionId !== sessionId) return undefined;
    unread = false;
    return now() <= PAGE_POLL_FRESH_MS ? poll : undefined;
  };
}

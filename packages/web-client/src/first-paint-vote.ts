/**
 * The Vote button of the voting page's first paint (shells/web/index.html), which comes with the HTML, long
 * before the voting screen's code on a slow network. The page's first script (the shell's start.js) makes it
 * take a tap: the tap is kept on the document, the button reads 'Submitting...', and the voting screen sends
 * that vote once it has replaced the first paint (takeFirstPaintVote). It also counts the line above the button,
 * 'N logos not seen yet', from what this browser has seen of the poll. Free of state and of modules other than
 * the small ones it reads the page and the storage with, so start.js stays small.
 */
import { embeddedText, PAGE_POLL_ELEMENT_ID } from './page-poll';
import { seenLogos, unseenLogoCount, unseenLogosText } from './seen-logos';

/** The first paint's Vote button carries the id of the logo it shows in this attribute. */
const BUTTON_ATTRIBUTE = 'data-first-paint-vote';
/** The first paint's line on logos not seen yet, which describes the button. */
const UNSEEN_LINE_ID = 'first-paint-unseen';
/** On <html>: "{pollId} {logoId}" once the first paint's button was tapped, until the voting screen takes it. */
const KEPT_ATTRIBUTE = 'data-kept-vote';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The voting screen's spinner (the UI kit's SpinnerIcon), drawn without it: the kit has not loaded yet. */
function spinner(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  for (const [name, value] of Object.entries({
    viewBox: '0 0 24 24',
    width: '16',
    height: '16',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'aria-hidden': 'true',
    class: 'logovote-first-paint-spinner',
  }))
    svg.setAttribute(name, value);
  const arc = document.createElementNS(SVG_NS, 'path');
  arc.setAttribute('d', 'M21 12a9 9 0 1 1-6.22-8.56');
  svg.append(arc);
  return svg;
}

/** The ids of the logos of the poll the page's HTML holds (none if it holds no poll). */
function pagePollLogoIds(): string[] {
  try {
    const poll = JSON.parse(embeddedText(PAGE_POLL_ELEMENT_ID) ?? 'null') as { logos?: { id?: unknown }[] } | null;
    return (poll?.logos ?? []).map((logo) => logo.id).filter((id): id is string => typeof id === 'string');
  } catch {
    return [];
  }
}

/**
 * The gateway's line counts every logo but the one shown as unseen; a voter back on the poll has seen some or all
 * of them (seen-logos.ts): the line then says what the screen will say, or goes when every logo has been seen.
 */
function countUnseenLogos(button: HTMLButtonElement, pollId: string, shownId: string): void {
  const line = document.getElementById(UNSEEN_LINE_ID);
  const logoIds = pagePollLogoIds();
  if (!line || logoIds.length === 0) return;
  const unseen = unseenLogoCount(logoIds, seenLogos(pollId), shownId);
  if (unseen > 0) {
    line.textContent = unseenLogosText(unseen);
    return;
  }
  line.remove();
  button.removeAttribute('aria-describedby');
}

/**
 * Makes the first paint's Vote button (if the page has one) take a tap, its line on unseen logos counted for this
 * browser first: until then it is aria-disabled, so a tap before this script runs is visibly not taken rather than lost. One tap is kept; the button then reads
 * 'Submitting...' with a spinner until the voting screen replaces it.
 */
export function keepFirstPaintVote(): void {
  const button = document.querySelector<HTMLButtonElement>(`button[${BUTTON_ATTRIBUTE}]`);
  // Poll ids are URL-safe (base64url): the path holds them as they are.
  const pollId = /^\/vote\/([A-Za-z0-9_-]+)\/?$/.exec(window.location.pathname)?.[1];
  const logoId = button?.getAttribute(BUTTON_ATTRIBUTE);
  if (!button || !pollId || !logoId) return;
  countUnseenLogos(button, pollId, logoId);
  button.removeAttribute('aria-disabled');
  button.addEventListener(
    'click',
    () => {
      document.documentElement.setAttribute(KEPT_ATTRIBUTE, `${pollId} ${logoId}`);
      button.setAttribute('aria-disabled', 'true');
      button.setAttribute('aria-busy', 'true');
      button.replaceChildren(spinner(), 'Submitting...');
    },
    { once: true },
  );
}

/**
 * The logo the voter tapped 'Vote' for on the first paint of poll `pollId`'s voting page, once: taken by the
 * voting screen after it has replaced the first paint (no tap can come after that).
 */
export function takeFirstPaintVote(pollId: string): string | undefined {
  const root = typeof document === 'undefined' ? null : document.documentElement;
  const [keptPoll, logoId] = root?.getAttribute(KEPT_ATTRIBUTE)?.split(' ') ?? [];
  if (keptPoll !== pollId || !logoId) return undefined;
  root?.removeAttribute(KEPT_ATTRIBUTE);
  return logoId;
}

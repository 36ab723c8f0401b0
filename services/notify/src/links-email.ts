import type { pollLinks } from '@logovote/contracts';
import type { OutgoingMail } from './mailer';

export type PollLinks = ReturnType<typeof pollLinks>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

/** Before the private manage link (docs/closing.md), which only the creator's own request adds. */
const MANAGE_TEXT = 'Close or reopen voting (keep this link private: it lets anyone who has it manage your poll):';

/**
 * The e-mail that gives the creator the links, as plain text and as HTML. Its wording is fixed: the
 * poll's feedback prompt is left out on purpose, because anyone can create a poll and ask for this
 * e-mail to any address, and a prompt would let them write what that address receives.
 */
export function linksEmail(to: string, links: PollLinks, manageUrl?: string): OutgoingMail {
  const text = [
    'Your logo poll is ready.',
    '',
    'Share this link so people can vote:',
    links.votingUrl,
    '',
    'See the results at any time:',
    links.resultsUrl,
    '',
    ...(manageUrl ? [MANAGE_TEXT, manageUrl, ''] : []),
    'A poll and its data are deleted after 30 days without activity.',
  ].join('\n');
  const link = (url: string) => `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
  const html = [
    '<!doctype html>',
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    '<h1 style="font-size: 20px">Your logo poll is ready</h1>',
    `<p>Share this link so people can vote:<br>${link(links.votingUrl)}</p>`,
    `<p>See the results at any time:<br>${link(links.resultsUrl)}</p>`,
    ...(manageUrl ? [`<p>${escapeHtml(MANAGE_TEXT)}<br>${link(manageUrl)}</p>`] : []),
    '<p style="color: #666; font-size: 13px">A poll and its data are deleted after 30 days without activity.</p>',
    '</body></html>',
  ].join('\n');
  return { to, subject: 'Your LogoVote poll is ready', text, html };
}

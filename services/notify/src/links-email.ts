import { BACKDROP_COLOURS, type LogoBackdrop, type pollLinks } from '@logovote/contracts';
import escapeHtml from 'escape-html';
import type { MailAttachment, OutgoingMail } from './mailer';

/** The poll's links, and the voting link of each of its channels (docs/channels.md) in the order the creator named them. */
export type EmailedLinks = ReturnType<typeof pollLinks> & { channelVotingUrls?: readonly string[] };

/** A logo as the e-mail shows it: its name, and a small PNG on its backdrop (docs/logo-backdrops.md) when one could be made. */
export interface EmailedLogo {
  name: string;
  backdrop: LogoBackdrop;
  thumbnail?: Buffer;
}

/** What the e-mail says about the poll besides its links. */
export interface EmailedPoll {
  question?: string;
  logos: EmailedLogo[];
}

/**
 * Before the channels' links. The e-mail may go to any address, so it adds none of the creator's words beyond
 * the question and logo names it always carried: channels are numbered, not named (docs/channels.md).
 */
const CHANNELS_TEXT = "Or share each channel's own voting link, to see how each audience votes (numbered in the order you named them):";

/** A channel's link in the e-mail: by its number, never by the name the creator typed. */
const channelLabel = (index: number) => `Channel ${index + 1}`;

/** Before the private manage link (docs/closing.md), which only the creator's own request adds. */
const MANAGE_TEXT = 'Close or reopen voting (keep this link private: it lets anyone who has it manage your poll):';

/** The thumbnails' side in CSS pixels; the images are drawn at twice that for sharp screens. */
export const THUMBNAIL_SIDE = 64;

/** A subject line stays readable in an inbox list: a longer question is cut with an ellipsis. */
const MAX_SUBJECT_TOPIC = 70;

/** The poll's question, or without one its logos' names: the subject tells one poll's e-mail from another's. */
function subjectOf(poll: EmailedPoll): string {
  const question = poll.question?.replace(/\s+/g, ' ').trim();
  const topic = question ? `"${question}"` : poll.logos.map((logo) => logo.name).join(', ');
  const chars = [...topic];
  return `Your LogoVote poll is ready: ${
    chars.length > MAX_SUBJECT_TOPIC
      ? `${chars
          .slice(0, MAX_SUBJECT_TOPIC - 1)
          .join('')
          .trimEnd()}…`
      : topic
  }`;
}

/**
 * The e-mail that gives the creator the links, as plain text and as HTML: the question, each logo by its
 * name with a small image, and the links, each channel's voting link too. The images are inline attachments
 * (Content-ID): mail clients show those without loading anything remote, which many block, and most do not
 * show data: URLs.
 * The creator's words (question, names) are escaped and never linked; the send limits (send-limit.ts) bound
 * what a stranger could be sent.
 */
export function linksEmail(to: string, links: EmailedLinks, poll: EmailedPoll, manageUrl?: string): OutgoingMail {
  const question = poll.question?.trim();
  const channelUrls = links.channelVotingUrls ?? [];
  const attachments: MailAttachment[] = [];
  const logoCells = poll.logos.map((logo, index) => {
    let image = '';
    if (logo.thumbnail) {
      const cid = `logo-${index + 1}@logovote`;
      attachments.push({ filename: `logo-${index + 1}.png`, content: logo.thumbnail, contentType: 'image/png', cid });
      image = `<img src="cid:${cid}" width="${THUMBNAIL_SIDE}" height="${THUMBNAIL_SIDE}" alt="${escapeHtml(logo.name)}" style="display: block; margin: 0 auto 6px; border: 1px solid #e4e4e7; border-radius: 8px; background: ${BACKDROP_COLOURS[logo.backdrop]}">`;
    }
    return [
      '<td style="padding: 8px; text-align: center; vertical-align: top; width: 96px">',
      image,
      `<div style="font-size: 13px">${escapeHtml(logo.name)}</div>`,
      '</td>',
    ].join('');
  });
  const text = [
    'Your logo poll is ready.',
    '',
    ...(question ? ['Your question:', `"${question}"`, ''] : []),
    'Your logos:',
    // Names only: the results page's letters follow the votes, so they would not stay true.
    ...poll.logos.map((logo) => `- ${logo.name}`),
    '',
    'Share this link so people can vote:',
    links.votingUrl,
    '',
    ...(channelUrls.length > 0 ? [CHANNELS_TEXT, ...channelUrls.map((url, index) => `${channelLabel(index)}: ${url}`), ''] : []),
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
    ...(question ? [`<p style="font-size: 16px">Your question: <strong>&quot;${escapeHtml(question)}&quot;</strong></p>`] : []),
    `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse: collapse"><tr>${logoCells.join('')}</tr></table>`,
    `<p>Share this link so people can vote:<br>${link(links.votingUrl)}</p>`,
    ...(channelUrls.length > 0
      ? [`<p>${escapeHtml(CHANNELS_TEXT)}${channelUrls.map((url, index) => `<br>${channelLabel(index)}: ${link(url)}`).join('')}</p>`]
      : []),
    `<p>See the results at any time:<br>${link(links.resultsUrl)}</p>`,
    ...(manageUrl ? [`<p>${escapeHtml(MANAGE_TEXT)}<br>${link(manageUrl)}</p>`] : []),
    '<p style="color: #666; font-size: 13px">A poll and its data are deleted after 30 days without activity.</p>',
    '</body></html>',
  ].join('\n');
  return { to, subject: subjectOf(poll), text, html, attachments };
}

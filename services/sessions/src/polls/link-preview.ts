import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { PREVIEW_IMAGE_HEIGHT, PREVIEW_IMAGE_WIDTH, pollLinks, previewImagePath, type LinkPreviewPage } from '@logovote/contracts';
import { DEFAULT_PREVIEW_TITLE, renderLinkPreview, type SvgSettings } from '@logovote/media-pipeline';
import { logoName, readPollStatus, storedLogoBackdrop, type Poll } from '@logovote/models';
import { pollNotFound, type ObjectStore } from '@logovote/service-kit';
import escapeHtml from 'escape-html';
import { isMissing, previewObjectName } from './object-store';

type PreviewedPoll = Pick<Poll, '_id' | 'logos' | 'feedbackPrompt' | 'resultsVisibility'>;

/** A preview image as it is answered: from the store (a stream) or just made (the bytes). */
export interface PreviewImage {
  body: Readable | Buffer;
  size: number;
  etag: string;
  lastModified?: Date;
}

async function readLogo(store: ObjectStore, filename: string): Promise<Buffer> {
  // A logo gone from the store means the poll is being deleted.
  const stream = await store.client.getObject(store.bucket, filename).catch((error: unknown) => {
    throw isMissing(error) ? pollNotFound() : error;
  });
  return buffer(stream);
}

/** Makes and stores the poll's preview. Two first requests may both do it: each writes the same image, whole. */
async function createPreview(store: ObjectStore, poll: PreviewedPoll, svg: SvgSettings): Promise<PreviewImage> {
  const logos = await Promise.all(
    poll.logos.map(async (logo) => ({
      data: await readLogo(store, logo.filename),
      isSvg: logo.contentType === 'image/svg+xml',
      backdrop: storedLogoBackdrop(logo),
    })),
  );
  const image = await renderLinkPreview(logos, poll.feedbackPrompt ?? undefined, svg);
  const name = previewObjectName(poll._id);
  const { etag } = await store.client.putObject(store.bucket, name, image, image.length, { 'Content-Type': 'image/png' });
  // A deletion that began meanwhile may have removed the objects before this one was written: remove it here,
  // so no image outlives its poll (the deletion marks the poll before it removes anything).
  if ((await readPollStatus(poll._id)).state !== 'active') {
    await store.client.removeObject(store.bucket, name);
    throw pollNotFound();
  }
  return { body: image, size: image.length, etag };
}

/**
 * The link preview image of an active poll: made on first use and kept in the object store until the poll is
 * deleted (deletePoll removes it with the logos). The caller has checked that the poll is active. SVG logos
 * are drawn within the same cost limits as at upload (`svg`).
 */
export async function pollPreviewImage(
  store: ObjectStore,
  poll: PreviewedPoll,
  withBody: boolean,
  svg: SvgSettings,
): Promise<PreviewImage> {
  const name = previewObjectName(poll._id);
  const stat = await store.client
    .statObject(store.bucket, name)
    .catch((error: unknown) => (isMissing(error) ? null : Promise.reject(error)));
  if (!stat) return createPreview(store, poll, svg);
  const stored = { size: stat.size, etag: stat.etag, lastModified: stat.lastModified };
  if (!withBody) return { ...stored, body: Buffer.alloc(0) };
  const body = await store.client.getObject(store.bucket, name).catch((error: unknown) => {
    throw isMissing(error) ? pollNotFound() : error;
  });
  return { ...stored, body };
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
/** 'Wordmark, Monogram and Emblem': the logos' names in upload order. */
const namesList = (poll: PreviewedPoll) => new Intl.ListFormat('en', { type: 'conjunction' }).format(poll.logos.map(logoName));

/**
 * The Open Graph and Twitter card tags of a poll's page (what chat and social sites show for a pasted link;
 * their crawlers run no script), every value HTML-escaped. The gateway writes them into the page's head.
 */
export function linkPreviewTags(publicOrigin: string, page: LinkPreviewPage, poll: PreviewedPoll): string {
  const question = poll.feedbackPrompt?.trim();
  // The creator's names of the logos travel with the link ('3 logos (Wordmark, Monogram and Emblem)').
  const logos = `${plural(poll.logos.length, 'logo')} (${namesList(poll)})`;
  const links = pollLinks(publicOrigin, poll._id);
  const title = question || (page === 'vote' ? DEFAULT_PREVIEW_TITLE : 'Logo poll results');
  // A poll whose results are withheld says when they show, and no tag carries a count (docs/results-visibility.md).
  const withheldResults =
    poll.resultsVisibility === 'after-vote'
      ? 'are shown after you vote'
      : poll.resultsVisibility === 'after-close'
        ? 'are shown when voting closes'
        : undefined;
  const description =
    page === 'vote'
      ? `Vote anonymously for your favourite of ${logos} on LogoVote. No account needed.`
      : withheldResults
        ? `Vote on ${logos} on LogoVote: the results ${withheldResults}.`
        : `See how people voted on ${logos} on LogoVote: votes, percentages and the winner.`;
  const image = `${publicOrigin}${previewImagePath(poll._id)}`;
  const imageAlt = `The ${plural(poll.logos.length, 'logo')} of this LogoVote poll: ${namesList(poll)}`;
  const tags: [attribute: 'property' | 'name', key: string, value: string][] = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', 'LogoVote'],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', page === 'vote' ? links.votingUrl : links.resultsUrl],
    ['property', 'og:image', image],
    ['property', 'og:image:type', 'image/png'],
    ['property', 'og:image:width', String(PREVIEW_IMAGE_WIDTH)],
    ['property', 'og:image:height', String(PREVIEW_IMAGE_HEIGHT)],
    ['property', 'og:image:alt', imageAlt],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
    ['name', 'twitter:image', image],
    ['name', 'twitter:image:alt', imageAlt],
  ];
  return tags.map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`).join('\n    ');
}

import { randomBytes } from 'node:crypto';
import { DAY_MS, defaultLogoName, HOUR_MS, type Channel, type LogoOrder, type ResultsVisibility } from '@logovote/contracts';
import { UploadRejected, type InspectedImage, type UploadPipeline, type UploadedFile } from '@logovote/media-pipeline';
import {
  claimRateTicket,
  deleteLogoFiles,
  deletePollStatus,
  indexPollForSearch,
  insertPoll,
  listPoll,
  recordLogoFiles,
  recordPollActive,
  recordPollCreating,
  removePoll,
  unindexPollForSearch,
  unlistPoll,
  type StoredLogo,
} from '@logovote/models';
import type { Logger, ObjectStore } from '@logovote/service-kit';
import { putLogoObject, removeLogoObjects } from './object-store';
import type { UploadRefusalRecorder } from './upload-refusals';

interface CheckedLogo {
  file: UploadedFile;
  image: InspectedImage;
  /** The creator's name for it; empty or absent gives the default (the file name without its extension). */
  name?: string | undefined;
}

/** What the creator chose besides the logos. */
export interface PollChoices {
  feedbackPrompt: string | undefined;
  logoOrder: LogoOrder | undefined;
  /** The creator expects its voters on one shared network (docs/api/votes-and-notify.md). */
  sharedNetwork?: boolean | undefined;
  /** Who sees the results when (docs/results-visibility.md). */
  resultsVisibility?: ResultsVisibility | undefined;
  /** The channels' names (docs/channels.md), validated. */
  channels?: string[] | undefined;
  /** What voters rate the logos on after their vote (docs/attributes.md), validated. */
  attributes?: string[] | undefined;
}

export interface NewPoll extends Omit<PollChoices, 'resultsVisibility' | 'channels' | 'attributes'> {
  pollId: string;
  /** Absent when the creator named none. */
  attributes: string[] | undefined;
  /** Absent when the creator named none. */
  channels: Channel[] | undefined;
  /** The rule as stored: absent for 'everyone'. */
  resultsVisibility: Exclude<ResultsVisibility, 'everyone'> | undefined;
  logos: StoredLogo[];
}

export const STORAGE_FAILED = 'Could not save the poll. Please try again.';

/** Poll creation requests one network address may make in any hour and in any 24 hours. */
export interface CreationLimits {
  perHour: number;
  perDay: number;
}

export type CreationClaim = { allowed: true } | { allowed: false; limit: number; per: 'hour' | 'day'; retryAfterSeconds: number };

/**
 * Counts one creation request of a network address (its keyed hash) against its hourly and daily limits,
 * or says which limit it is over and when that limit lets it create again. Exact under concurrency
 * (packages/models rate-ticket.ts).
 */
export async function claimPollCreation(addressHash: string, limits: CreationLimits): Promise<CreationClaim> {
  const hour = { limit: limits.perHour, windowMs: HOUR_MS };
  const claim = await claimRateTicket(`poll-creations:${addressHash}`, [hour, { limit: limits.perDay, windowMs: DAY_MS }]);
  if (claim.allowed) return claim;
  return {
    allowed: false,
    limit: claim.window.limit,
    per: claim.window === hour ? 'hour' : 'day',
    retryAfterSeconds: claim.retryAfterSeconds,
  };
}

/** 12 random bytes: the 16 base64url characters of SessionId. */
const newPollId = () => randomBytes(12).toString('base64url');
/** 16 random bytes: the 22 base64url characters of LogoFilename; unguessable, so images cannot be enumerated. */
const newObjectName = (extension: string) => `${randomBytes(16).toString('base64url')}.${extension}`;
const newLogoId = () => randomBytes(9).toString('base64url');
/** 6 random bytes: 8 base64url characters, short in a voting link (ChannelId). */
const newChannelId = () => randomBytes(6).toString('base64url');

/**
 * Stores checked logos and records the poll. Without transactions the steps are ordered so that no
 * failure leaves anything behind: the poll's status is recorded as 'creating' first (so a crash midway
 * leaves a record the retention sweep finds and removes with the poll and its objects), then the poll,
 * then the images are stored, then the status becomes 'active'. Any failure removes what was stored at
 * once (if even that fails, the sweep finishes it later) and resolves 'storage-failed'.
 */
async function storePoll(
  store: ObjectStore,
  logger: Logger,
  logos: CheckedLogo[],
  choices: PollChoices,
  creatorTokenHash: string,
): Promise<NewPoll | 'storage-failed'> {
  const { feedbackPrompt } = choices;
  // Only the exception is stored: a poll without the field keeps the upload order.
  const logoOrder = choices.logoOrder === 'shuffled' ? choices.logoOrder : undefined;
  // Only the exception is stored, as with the order.
  const sharedNetwork = choices.sharedNetwork === true ? true : undefined;
  const resultsVisibility = choices.resultsVisibility === 'everyone' ? undefined : choices.resultsVisibility;
  const channels = choices.channels?.length ? choices.channels.map((name) => ({ id: newChannelId(), name })) : undefined;
  const attributes = choices.attributes?.length ? choices.attributes : undefined;
  const pollId = newPollId();
  const uploads = logos.map(({ file, image, name }) => ({
    path: file.path,
    logo: {
      id: newLogoId(),
      filename: newObjectName(image.extension),
      originalName: file.originalName,
      name: name || defaultLogoName(file.originalName),
      contentType: image.contentType,
      size: image.size,
      appearance: image.appearance,
    },
  }));
  const stored: StoredLogo[] = uploads.map(({ logo }) => logo);
  const put: string[] = [];
  let attempted: string | undefined;
  let recorded = false;
  try {
    await recordPollCreating(pollId);
    recorded = true;
    await insertPoll({
      _id: pollId,
      feedbackPrompt,
      logoOrder,
      sharedNetwork,
      resultsVisibility,
      channels,
      attributes,
      logos: stored,
      creatorTokenHash,
    });
    // Before any image is stored: the media service serves no image whose poll it cannot find.
    await recordLogoFiles(
      pollId,
      stored.map((logo) => logo.filename),
    );
    for (const { path, logo } of uploads) {
      attempted = logo.filename;
      await putLogoObject(store, logo.filename, path, logo.size, logo.contentType);
      put.push(logo.filename);
    }
    // Listed (and counted) and findable before it turns active, so an active poll is never missing from the admin list or its search.
    await indexPollForSearch({ _id: pollId, createdAt: new Date(), feedbackPrompt, logos: stored });
    await listPoll(pollId);
    await recordPollActive(pollId);
  } catch (error: unknown) {
    logger.error({ err: error, pollId }, 'poll creation failed; removing what was stored');
    // An S3 put is atomic, so a failed one stored nothing; removing its name anyway is only a precaution.
    if (attempted && !put.includes(attempted)) await removeLogoObjects(store, [attempted]).catch(() => undefined);
    // When the record itself could not be written (the database is down) there is nothing to delete, and
    // trying would only keep the client waiting for the same outage.
    await removeLogoObjects(store, put)
      .then(() =>
        recorded
          ? Promise.all([unlistPoll(pollId), unindexPollForSearch(pollId), deleteLogoFiles(pollId), removePoll(pollId)]).then(() =>
              deletePollStatus(pollId),
            )
          : undefined,
      )
      .catch((cleanupError: unknown) => logger.error({ err: cleanupError, pollId }, 'clean-up failed; the retention sweep will finish it'));
    return 'storage-failed';
  }
  return { pollId, feedbackPrompt, logoOrder, resultsVisibility, channels, attributes, logos: stored };
}

export interface CreatePollDeps {
  store: ObjectStore;
  pipeline: UploadPipeline;
  refusals: UploadRefusalRecorder;
  logger: Logger;
}

export interface CreatePollRequest {
  /** 1 to 4 uploaded files, in upload order. */
  files: UploadedFile[];
  /** The creator's names of the logos, in the same order. */
  logoNames?: (string | undefined)[] | undefined;
  choices: PollChoices;
  /** SHA-256 of the creator token (docs/closing.md): stored with the poll's first write, so it never lacks one. */
  creatorTokenHash: string;
}

/** How a creation went; `timing`: milliseconds spent checking the logos and storing the poll. */
export type CreatePollOutcome =
  | { outcome: 'created'; poll: NewPoll; timing: { checks: number; store: number } }
  /** The first logo, in upload order, that the checks refused (docs/moderation.md): its status and message. */
  | { outcome: 'logo-refused'; refusal: UploadRejected }
  | { outcome: 'storage-failed' };

/** Creating a poll, the use case: the logos checked (every refusal recorded for the admin), then stored with the poll. */
export function pollCreator(deps: CreatePollDeps): (request: CreatePollRequest) => Promise<CreatePollOutcome> {
  /** The pipeline's verdict on one logo; a refusal is recorded for the admin (without the image). */
  const inspect = (file: UploadedFile) =>
    deps.pipeline.inspect(file).catch((error: unknown) => {
      if (error instanceof UploadRejected) deps.refusals.record(file, error);
      throw error;
    });

  return async ({ files, logoNames, choices, creatorTokenHash }) => {
    const checksStarted = performance.now();
    // The logos together: the classifiers take turns on the main thread, but OCR reads one logo in its
    // worker thread while they judge another. Every outcome is awaited (so every refusal is recorded and
    // no check still reads a file once the request's files are gone); the first refused logo in upload
    // order answers.
    const outcomes = await Promise.allSettled(files.map(inspect));
    const checked: CheckedLogo[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === 'rejected') {
        if (outcome.reason instanceof UploadRejected) return { outcome: 'logo-refused', refusal: outcome.reason };
        throw outcome.reason;
      }
      checked.push({ file: files[index]!, image: outcome.value, name: logoNames?.[index] });
    }
    const storeStarted = performance.now();
    const poll = await storePoll(deps.store, deps.logger, checked, choices, creatorTokenHash);
    if (poll === 'storage-failed') return { outcome: 'storage-failed' };
    return { outcome: 'created', poll, timing: { checks: storeStarted - checksStarted, store: performance.now() - storeStarted } };
  };
}

import { Schema, type InferSchemaType } from 'mongoose';
import { LogoOrder, ResultsVisibility, SessionId, defaultLogoName, logoBackdrop, type LogoBackdrop } from '@logovote/contracts';
import { readPollStatus, type PollStatus } from './poll-status';
import { claimOnce, removeClaims } from './store/claim-once';
import { primitiveCollection } from './store/collections';

/** What a logo's pixels look like, measured once at upload (LogoAppearance, docs/logo-backdrops.md). */
const logoAppearanceSchema = new Schema(
  {
    transparent: { type: Boolean, required: true },
    darkLuminance: { type: Number, required: true },
    lightLuminance: { type: Number, required: true },
  },
  { _id: false },
);

const storedLogoSchema = new Schema(
  {
    /** Public id of the logo within its poll (what votes name). */
    id: { type: String, required: true },
    /** Object name in the bucket, also the public file name under /api/logos/. */
    filename: { type: String, required: true },
    originalName: { type: String, required: true },
    /** The creator's name for the logo; absent on polls stored before logos had names (see logoName). */
    name: { type: String },
    contentType: { type: String, required: true },
    size: { type: Number, required: true },
    /** Absent on polls stored before logos were measured (see storedLogoBackdrop). */
    appearance: { type: logoAppearanceSchema },
  },
  { _id: false },
);

/** A channel of a poll (docs/channels.md): its id names it in voting links and votes. */
const channelSchema = new Schema(
  {
    id: { type: String, required: true },
    name: { type: String, required: true },
  },
  { _id: false },
);

/**
 * A poll ("voting session"): what its creation fixed, inserted once by the sessions service and removed
 * once at the end of its deletion (claim-once, ./store/claim-once), never changed. What changes (its
 * state, plan, last activity, voting and moderation) is its status (./poll-status). Votes and their counts
 * belong to the votes service, the creator's address to the notify service (docs/vote-counts.md, "Who
 * writes which collection").
 */
const pollSchema = new Schema(
  {
    _id: { type: String, required: true },
    feedbackPrompt: { type: String },
    logos: { type: [storedLogoSchema], required: true },
    /** Set at creation only ('shuffled'); absent means the fixed upload order (docs/fair-order.md). */
    logoOrder: { type: String, enum: LogoOrder.options },
    /** Set at creation only (true): the creator expects one shared network, where proofs of work start later and rise more gently. */
    sharedNetwork: { type: Boolean },
    /**
     * Set at creation only ('after-vote' or 'after-close'): who sees the results when
     * (docs/results-visibility.md); absent means everyone at any time.
     */
    resultsVisibility: { type: String, enum: ResultsVisibility.exclude(['everyone']).options },
    /** Set at creation only: the audiences the creator tells apart (docs/channels.md); absent when none. */
    channels: { type: [channelSchema], default: undefined },
    /** Set at creation only: what voters rate the logos on after their vote (docs/attributes.md); absent when none. */
    attributes: { type: [String], default: undefined },
    /**
     * SHA-256 (hex) of the creator token answered once at creation (./creator-token): who may close and
     * reopen voting. Every answer names its fields, so none carries it.
     */
    creatorTokenHash: { type: String },
  },
  { collection: 'polls', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);

export type Poll = InferSchemaType<typeof pollSchema> & { _id: string; createdAt: Date };
export type StoredLogo = InferSchemaType<typeof storedLogoSchema>;
export const PollModel = primitiveCollection('claimOnce', 'Poll', pollSchema);

/** A stored logo's name, the default (its file name without the extension) for a logo stored without one. */
export const logoName = (logo: Pick<StoredLogo, 'name' | 'originalName'>): string => logo.name ?? defaultLogoName(logo.originalName);

/** The backdrop a stored logo is shown on; a logo stored without its appearance gets the light one. */
export const storedLogoBackdrop = (logo: Pick<StoredLogo, 'appearance'>): LogoBackdrop => logoBackdrop(logo.appearance);

/** Records a new poll (its creation, after its status says 'creating'). */
export async function insertPoll(
  poll: Omit<Poll, 'createdAt' | 'logos' | 'channels' | 'attributes'> & {
    logos: StoredLogo[];
    channels: { id: string; name: string }[] | undefined;
    attributes: string[] | undefined;
  },
): Promise<void> {
  if (!(await claimOnce(PollModel, poll))) throw new Error(`poll ${poll._id} exists already`);
}

/** Removes a poll's document (the end of its deletion, before its status). */
export async function removePoll(pollId: string): Promise<void> {
  await removeClaims(PollModel, { _id: pollId });
}

/** A poll by its id with its status, if it is active (two equality lookups, run together); null otherwise. */
export async function readActivePoll<Fields extends keyof Poll>(
  pollId: string,
  fields?: Fields[],
): Promise<{ poll: Pick<Poll, Fields | '_id'>; status: PollStatus } | null> {
  const projection = fields ? Object.fromEntries(fields.map((field) => [field, 1])) : undefined;
  const [poll, status] = await Promise.all([PollModel.findById(pollId, projection).lean<Poll>(), readPollStatus(pollId)]);
  return poll && status.state === 'active' ? { poll, status } : null;
}

/**
 * The poll a request names, if it may be shown or voted on; null for a malformed id, an unknown poll, a
 * half-created one or one being deleted (to a client, all the spec's 404 'Voting session not found':
 * service-kit's pollOr404).
 */
export async function findActivePoll<Fields extends keyof Poll>(
  sessionId: string | undefined,
  fields?: Fields[],
): Promise<Pick<Poll, Fields | '_id'> | null> {
  const parsed = SessionId.safeParse(sessionId);
  return parsed.success ? ((await readActivePoll(parsed.data, fields))?.poll ?? null) : null;
}

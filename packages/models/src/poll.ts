import { Schema, model, type InferSchemaType } from 'mongoose';
import {
  LogoOrder,
  PaymentPlan,
  ResultsVisibility,
  SessionId,
  defaultLogoName,
  logoBackdrop,
  type LogoBackdrop,
} from '@logovote/contracts';

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
 * Where a poll is in its life. Without multi-document transactions, creation and deletion span the
 * database and the object store in several steps; the state makes an interrupted one visible, so the
 * retention sweep can finish it: 'creating' until every image is stored, 'deleting' from the first
 * step of a deletion. Only 'active' polls are shown, listed or votable.
 */
export const POLL_STATES = ['creating', 'active', 'deleting'] as const;
export type PollState = (typeof POLL_STATES)[number];

/**
 * A poll ("voting session"), written by the sessions service only. Votes and their counts belong to
 * the votes service, the creator's address to the notify service (docs/vote-counts.md, "Who writes
 * which collection").
 */
const pollSchema = new Schema(
  {
    _id: { type: String, required: true },
    state: { type: String, enum: POLL_STATES, default: 'active', required: true },
    feedbackPrompt: { type: String },
    logos: { type: [storedLogoSchema], required: true },
    paymentPlan: { type: String, enum: PaymentPlan.options, default: 'free', required: true },
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
    /**
     * SHA-256 (hex) of the creator token answered once at creation (./creator-token): who may close and
     * reopen voting. Every answer names its fields, so none carries it. (Not `select: false`: mongoose then
     * adds a projection to findOneAndUpdate, which FerretDB does not implement.)
     */
    creatorTokenHash: { type: String },
    /**
     * Creating and choosing a plan, and (copied here by the retention sweep) the newest vote and request
     * for the links, which the votes and notify services keep in their own collections.
     */
    lastActivityAt: { type: Date, required: true, default: () => new Date(), index: true },
  },
  { collection: 'polls', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);
// The votes and notify services look for polls being deleted, to remove their own data of them.
pollSchema.index({ state: 1 });

export type Poll = InferSchemaType<typeof pollSchema> & { _id: string; createdAt: Date };
export type StoredLogo = InferSchemaType<typeof storedLogoSchema>;
export const PollModel = model('Poll', pollSchema);

/** A stored logo's name, the default (its file name without the extension) for a logo stored without one. */
export const logoName = (logo: Pick<StoredLogo, 'name' | 'originalName'>): string => logo.name ?? defaultLogoName(logo.originalName);

/** The backdrop a stored logo is shown on; a logo stored without its appearance gets the light one. */
export const storedLogoBackdrop = (logo: Pick<StoredLogo, 'appearance'>): LogoBackdrop => logoBackdrop(logo.appearance);

/** The filter for a poll that may be shown and voted on (not half-created, not being deleted). */
export function activePoll(pollId: string): { _id: string; state: 'active' } {
  return { _id: pollId, state: 'active' };
}

/**
 * The poll a request names, if it may be shown or voted on; null for a malformed id, an unknown poll, a
 * half-created one or one being deleted (to a client, all the spec's 404 'Voting session not found': service-kit's pollOr404).
 */
export async function findActivePoll<Fields extends keyof Poll>(
  sessionId: string | undefined,
  fields?: Fields[],
): Promise<Pick<Poll, Fields | '_id'> | null> {
  const parsed = SessionId.safeParse(sessionId);
  if (!parsed.success) return null;
  const projection = fields ? Object.fromEntries(fields.map((field) => [field, 1])) : undefined;
  return PollModel.findOne(activePoll(parsed.data), projection).lean<Poll>();
}

/** Polls being deleted: each service that keeps data of a poll removes its own when it sees one here. */
export async function deletingPollIds(): Promise<string[]> {
  return (await PollModel.find({ state: 'deleting' }, { _id: 1 }).lean()).map((poll) => poll._id);
}

import { REASONS_PAGE_SIZE } from '@logovote/contracts';
import { markThemesDue } from './reason-theme';
import { numberedSlots, type Slot } from './store/numbered-slots';

/** What a voter's words (a reason, a note) keep beside their text: whose, on which logo, through which channel. */
export const VOTER_WORDS_FIELDS = {
  pollId: { type: String, required: true },
  logoId: { type: String, required: true },
  voterKey: { type: String, required: true },
  /** The channel of the voter's seat (docs/channels.md), '' for the plain link. */
  channel: { type: String },
} as const;

/** A voter's words as a version of their slot holds them (a tombstone has none). */
export const VOTER_WORDS_VALUE = { text: { type: String } } as const;

/** Reason and note numbers per export read: one equality lookup returns at most this many versions. */
export const EXPORT_CHUNK = 1_000;

/** The fields of a reason's slot: whose, on which logo, and the vote revision it explains. */
interface ReasonFields {
  pollId: string;
  logoId: string;
  voterKey: string;
  rev: number;
  /** The channel the voter came through, '' for the plain link; absent on reasons stored before channels were kept. */
  channel?: string;
}

/**
 * Voters' one-line reasons for their votes (docs/reasons.md), written by the votes service.
 *
 * Each logo of a poll is a log of numbered slots (./store/numbered-slots) keyed `<pollId>|<logoId>`,
 * numbered in order of arrival without a gap, read newest first by equality lookups alone (pages of
 * REASONS_PAGE_SIZE numbers, export reads of EXPORT_CHUNK numbers). A slot is named for the vote revision
 * it explains (`<voterKey>#<rev>`: one reason per revision); an edit is the slot's next version, keeping its
 * number and date. When the vote changes, the reason is dropped: a tombstone, the number stays taken.
 * Everything goes with the poll.
 */
export const reasonSlots = numberedSlots<ReasonFields, { text: string }>({
  collection: 'vote_reasons',
  model: 'VoteReason',
  fields: { ...VOTER_WORDS_FIELDS, rev: { type: Number, required: true, min: 0 } },
  value: VOTER_WORDS_VALUE,
  indexed: ['voterKey', 'pollId'],
  groups: [REASONS_PAGE_SIZE, EXPORT_CHUNK],
});

/** Each logo of a poll is one log of reasons (and one of notes). */
export const logoLog = (pollId: string, logoId: string) => `${pollId}|${logoId}`;
export const reasonVoteKey = (voterKey: string, rev: number) => `${voterKey}#${rev}`;

export interface NewReason {
  pollId: string;
  logoId: string;
  voterKey: string;
  /** The vote revision the reason explains. */
  rev: number;
  text: string;
  /** The channel of the voter's seat (docs/channels.md), '' for the plain link; the service always knows it. */
  channel?: string;
}

export const reasonFields = (reason: NewReason): ReasonFields => ({
  pollId: reason.pollId,
  logoId: reason.logoId,
  voterKey: reason.voterKey,
  rev: reason.rev,
  ...(reason.channel === undefined ? {} : { channel: reason.channel }),
});

/**
 * Stores a reason in the next free slot of its logo. 'exists' when this vote revision already has one
 * (dropped or not); 'busy' when other reasons kept taking the next number (only under a flood).
 */
export async function insertReason(reason: NewReason): Promise<'stored' | 'exists' | 'busy'> {
  const stored = await reasonSlots.claim(
    logoLog(reason.pollId, reason.logoId),
    reasonVoteKey(reason.voterKey, reason.rev),
    reasonFields(reason),
    {
      text: reason.text,
    },
  );
  // The logo's themes are found again from its reasons (docs/reasons.md, "Themes").
  if (stored === 'stored') await markThemesDue(reason.pollId, [reason.logoId]);
  return stored;
}

/**
 * Replaces the text of the reason given for one vote revision: its slot's next version, with its number
 * and date, so pages and the export keep their order. false when that revision has no reason slot.
 */
export async function replaceReason(reason: NewReason): Promise<boolean> {
  if (!(await reasonSlots.replace(reasonVoteKey(reason.voterKey, reason.rev), { text: reason.text }))) return false;
  await markThemesDue(reason.pollId, [reason.logoId]);
  return true;
}

/** The reason given for one vote revision; undefined when none was given or it was dropped (one lookup). */
export async function reasonOf(voterKey: string, rev: number): Promise<string | undefined> {
  return (await reasonSlots.valueOf(reasonVoteKey(voterKey, rev)))?.text;
}

/**
 * Drops the reasons of a voter's vote revisions up to `throughRev` (the reason explained a choice the
 * voter no longer holds). One lookup by `voterKey` when there is none; repeatable.
 */
export async function dropReasons(voterKey: string, throughRev: number): Promise<number> {
  const logos = new Map<string, Set<string>>();
  const dropped = await reasonSlots.dropWhere('voterKey', voterKey, (reason) => {
    if (reason.rev > throughRev) return false;
    logos.set(reason.pollId, (logos.get(reason.pollId) ?? new Set()).add(reason.logoId));
    return true;
  });
  if (dropped > 0) for (const [pollId, logoIds] of logos) await markThemesDue(pollId, logoIds);
  return dropped;
}

export type StoredReason = Slot<ReasonFields, { text: string }>;

/**
 * A logo's reasons, newest first: up to `limit` of them numbered below `before` (the newest when
 * absent), and the number to continue below (null: no older reasons). Dropped reasons are skipped.
 */
export async function readReasons(
  pollId: string,
  logoId: string,
  before?: number,
  limit = REASONS_PAGE_SIZE,
): Promise<{ reasons: StoredReason[]; next: number | null }> {
  const { slots, next } = await reasonSlots.read(logoLog(pollId, logoId), before, limit);
  return { reasons: slots, next };
}

/** Every kept reason of a logo, newest first, EXPORT_CHUNK numbers per read (the export streams them). */
export const allReasons = (pollId: string, logoId: string): AsyncGenerator<StoredReason> => reasonSlots.all(logoLog(pollId, logoId));

/** Removes a poll's reasons (with its votes, when the poll is deleted). */
export const deleteReasons = (pollId: string): Promise<number> => reasonSlots.removeWhere('pollId', pollId, `${pollId}|`);

export const hasReasons = (pollId: string): Promise<boolean> => reasonSlots.existsWhere('pollId', pollId);

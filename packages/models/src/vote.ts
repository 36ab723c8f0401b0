import { Schema, type InferSchemaType } from 'mongoose';
import { primitiveCollection } from './store/collections';
import { removeClaims } from './store/claim-once';
import { DIRECT_LINK_GROUP } from '@logovote/contracts';
import { deletingPollIds } from './poll-status';
import { deleteAttributeAnswers, hasAttributeAnswers } from './attribute-ledger';
import { deleteReasonThemes, hasReasonThemes } from './reason-theme';
import { deleteReasons, hasReasons } from './vote-reason';
import { deleteNotes, hasNotes } from './logo-note';
import { deleteAnalyticsEvents, hasAnalyticsEvents } from './analytics-event';
import { deleteReports, hasReports } from './poll-report';
import { voteLedger } from './vote-ledger';
import { deleteChannelTallies, hasChannelTallies } from './channel-ledger';

/**
 * A voter's seat in a poll: one row per voter, written once when the voter first votes, keyed by
 * `voterKeyOf` (below). What the voter voted for is in the vote ledger (./vote-ledger), which is what counts.
 *
 * The seat keeps the per-address cap, which neither FerretDB nor MongoDB without transactions can check
 * as "fewer than N rows, then insert" (FerretDB even loses concurrent `$inc`s). Each new voter claims one
 * of the seats of its address, numbered 0..cap-1 (`seat`): the unique {pollId, ipHash, seat} index
 * makes a seat impossible to take twice, so no address ever has more than `cap` voters in a poll,
 * however many requests race. A voter takes its seat before its first revision, so a voter with
 * revisions has a seat.
 */
const voterSeatSchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    fingerprint: { type: String, required: true },
    /** Salted hash of the voter's network address: the address itself is never stored. */
    ipHash: { type: String, required: true },
    /** The seat this voter holds among the voters from the same address (see above). */
    seat: { type: Number, required: true, min: 0 },
    /** `<pollId>|<ipHash>`: an address's seats in a poll in one single-field lookup (seatsOfAddress). */
    pollAddress: { type: String, required: true },
    /** The channel of the link the voter first came through (docs/channels.md); absent for the plain link. */
    channel: { type: String },
  },
  { collection: 'voter_seats', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);
voterSeatSchema.index({ pollId: 1, ipHash: 1, seat: 1 }, { unique: true });
voterSeatSchema.index({ pollAddress: 1 });

export type VoterSeat = InferSchemaType<typeof voterSeatSchema>;

/**
 * The key of a voter in a poll, from what identified the voter when it first came: its fingerprint and
 * its network (the first 64 bits of its ipHash), so people who share a device profile on different
 * networks are different voters. It stays the voter's key when its address changes (its browser's voter
 * pass, @logovote/service-kit's voterPasses, names it from there).
 */
export const voterKeyOf = (pollId: string, fingerprint: string, ipHash: string): string =>
  `${pollId}:${fingerprint}:${ipHash.slice(0, 16)}`;
export const VoterSeatModel = primitiveCollection('claimOnce', 'VoterSeat', voterSeatSchema);

const pollAddress = (pollId: string, ipHash: string) => `${pollId}|${ipHash}`;

/** A voter's seat row, as it is written once. */
export const seatRow = (seat: {
  voterKey: string;
  pollId: string;
  fingerprint: string;
  ipHash: string;
  seat: number;
  channel?: string | undefined;
}) => ({
  _id: seat.voterKey,
  pollId: seat.pollId,
  fingerprint: seat.fingerprint,
  ipHash: seat.ipHash,
  seat: seat.seat,
  pollAddress: pollAddress(seat.pollId, seat.ipHash),
  ...(seat.channel ? { channel: seat.channel } : {}),
});

/** The seat numbers an address holds in a poll (one equality lookup; an address holds few). */
export async function seatsOfAddress(pollId: string, ipHash: string): Promise<number[]> {
  const seats = await VoterSeatModel.find({ pollAddress: pollAddress(pollId, ipHash) }, { seat: 1, _id: 0 }).lean();
  return seats.map((row) => row.seat);
}

/** The channel of a voter's seat (docs/channels.md): '' for the plain link or a voter without a seat (one key lookup). */
export async function seatChannel(id: string): Promise<string> {
  const seat = await VoterSeatModel.findById(id, { channel: 1 }).lean();
  return seat?.channel ?? '';
}

/**
 * The group a voter's words (a reason, a note) came from, in a poll with `channels`: the name of the
 * channel stored with them, else (stored before they kept it) of the voter's seat, looked up once per
 * voter; 'Other / direct link' for the plain link (docs/channels.md).
 */
export function channelNamer(channels: readonly { id: string; name: string }[]) {
  const names = new Map(channels.map((channel) => [channel.id, channel.name]));
  const seats = new Map<string, Promise<string>>();
  return async (entry: { voterKey: string; channel?: string | undefined }): Promise<string> => {
    let channel = entry.channel;
    if (typeof channel !== 'string') {
      const seat = seats.get(entry.voterKey) ?? seatChannel(entry.voterKey);
      seats.set(entry.voterKey, seat);
      channel = await seat;
    }
    return names.get(channel) ?? DIRECT_LINK_GROUP;
  };
}

/** A voter's vote: its newest revision and logo (rev 0, null: none), and whether the voter holds a seat. */
export interface CurrentVote {
  rev: number;
  logoId: string | null;
  seated: boolean;
}

/** The voter's current vote (one equality lookup: the voter's revisions). */
export async function currentVote(id: string): Promise<CurrentVote> {
  const newest = (await voteLedger.revisions(id)).at(-1);
  return newest ? { rev: newest.rev, logoId: newest.to, seated: true } : { rev: 0, logoId: null, seated: false };
}

/**
 * The votes service's part of deleting a poll: removes its seats, ledger, tallies, attribute answers, reasons and their themes,
 * notes, reports and analytics events. Resolves with the seats removed. Repeatable: a vote that finds its poll gone once it is
 * written removes what it wrote this way.
 */
export async function removeVoteData(pollId: string): Promise<number> {
  const removed = await removeClaims(VoterSeatModel, { pollId });
  await voteLedger.deleteTally(pollId);
  await deleteChannelTallies(pollId);
  await deleteAttributeAnswers(pollId);
  await deleteReasons(pollId);
  await deleteReasonThemes(pollId);
  await deleteNotes(pollId);
  await deleteReports(pollId);
  await deleteAnalyticsEvents(pollId);
  return removed;
}

/**
 * The votes service's part of deleting polls: removes the vote data of every poll the sessions service marked
 * 'deleting' (it removes the poll itself once nothing of it is left here). Resolves with the seats removed.
 */
export async function purgeVotesOfDeletedPolls(): Promise<number> {
  let removed = 0;
  for (const pollId of await deletingPollIds()) removed += await removeVoteData(pollId);
  return removed;
}

/** Whether any vote data of a poll is left (the sessions service waits for none before removing the poll). */
export async function hasVoteData(pollId: string): Promise<boolean> {
  return (
    (await VoterSeatModel.exists({ pollId })) !== null ||
    (await voteLedger.hasTally(pollId)) ||
    (await hasChannelTallies(pollId)) ||
    (await hasAttributeAnswers(pollId)) ||
    (await hasReasons(pollId)) ||
    (await hasReasonThemes(pollId)) ||
    (await hasNotes(pollId)) ||
    (await hasReports(pollId)) ||
    (await hasAnalyticsEvents(pollId))
  );
}

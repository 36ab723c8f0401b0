import { REASONS_PAGE_SIZE } from '@logovote/contracts';
import { numberedSlots, type Slot } from './store/numbered-slots';
import { EXPORT_CHUNK, VOTER_WORDS_FIELDS, VOTER_WORDS_VALUE, logoLog } from './vote-reason';

/** The fields of a note's slot: whose, on which logo, through which channel. */
interface NoteFields {
  pollId: string;
  logoId: string;
  voterKey: string;
  channel?: string;
}

/**
 * Voters' notes on logos, 'What would you change?' (docs/reasons.md, "Notes"), written by the votes
 * service. A voter may leave one note on any logo of the poll, whichever it voted for.
 *
 * Each logo of a poll is a log of numbered slots (./store/numbered-slots) in a collection of its own, as
 * for reasons. A slot is named `<voterKey>|<logoId>`: one note per voter and logo, so a voter's second note
 * on a logo is the slot's next version (it keeps its number and date), and removing a note drops the slot
 * (a tombstone; given again, the note takes the same slot back). A note is about a logo, not about a
 * choice: a changed vote keeps it. Everything goes with the poll.
 */
export const noteSlots = numberedSlots<NoteFields, { text: string }>({
  collection: 'logo_notes',
  model: 'LogoNote',
  fields: VOTER_WORDS_FIELDS,
  value: VOTER_WORDS_VALUE,
  indexed: ['voterKey', 'pollId'],
  groups: [REASONS_PAGE_SIZE, EXPORT_CHUNK],
});

export const noteName = (voterKey: string, logoId: string) => `${voterKey}|${logoId}`;

export interface NewNote {
  pollId: string;
  logoId: string;
  voterKey: string;
  text: string;
  /** The channel of the voter's seat (docs/channels.md), '' for the plain link. */
  channel: string;
}

export const noteFields = (note: NewNote): NoteFields => ({
  pollId: note.pollId,
  logoId: note.logoId,
  voterKey: note.voterKey,
  channel: note.channel,
});

/**
 * Gives or edits the voter's note on a logo: an edit (or a note given again after its removal) is its
 * slot's next version; a first note takes the next free slot of the logo. 'busy' when other notes kept
 * taking the next number (only under a flood).
 */
export async function putNote(note: NewNote): Promise<'stored' | 'busy'> {
  return noteSlots.put(logoLog(note.pollId, note.logoId), noteName(note.voterKey, note.logoId), noteFields(note), { text: note.text });
}

/** Removes the voter's note on a logo (its slot is dropped). false when there was none. */
export async function removeNote(voterKey: string, logoId: string): Promise<boolean> {
  return noteSlots.drop(noteName(voterKey, logoId));
}

/** The voter's notes in a poll, per logo id (one equality lookup: a voter has at most one per logo). */
export async function notesOfVoter(voterKey: string): Promise<{ logoId: string; text: string }[]> {
  return (await noteSlots.slotsWhere('voterKey', voterKey)).map(({ logoId, text }) => ({ logoId, text }));
}

export type StoredNote = Slot<NoteFields, { text: string }>;

/** A logo's notes, newest first, a page at a time (as readReasons). Removed notes are skipped. */
export async function readNotes(pollId: string, logoId: string, before?: number): Promise<{ notes: StoredNote[]; next: number | null }> {
  const { slots, next } = await noteSlots.read(logoLog(pollId, logoId), before);
  return { notes: slots, next };
}

/** Every kept note of a logo, newest first, EXPORT_CHUNK numbers per read (the export streams them). */
export const allNotes = (pollId: string, logoId: string): AsyncGenerator<StoredNote> => noteSlots.all(logoLog(pollId, logoId));

/** Removes a poll's notes (with its votes, when the poll is deleted). */
export const deleteNotes = (pollId: string): Promise<number> => noteSlots.removeWhere('pollId', pollId, `${pollId}|`);

export const hasNotes = (pollId: string): Promise<boolean> => noteSlots.existsWhere('pollId', pollId);

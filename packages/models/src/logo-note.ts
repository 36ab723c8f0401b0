import { Schema, model } from 'mongoose';
import { REASONS_PAGE_SIZE } from '@logovote/contracts';
import { indexNumberedSlots, numberedLog, type LogEntry } from './store/numbered-log';
import { EXPORT_CHUNK, VOTER_WORDS_FIELDS } from './vote-reason';

/**
 * Voters' notes on logos, 'What would you change?' (docs/reasons.md, "Notes"), written by the votes
 * service. A voter may leave one note on any logo of the poll, whichever it voted for.
 *
 * Each logo of a poll is a numbered log of notes (./store/numbered-log), as for reasons: insert-only
 * slots keyed `<pollId>|<logoId>|<seq>` in their own collection, read newest first by equality lookups
 * alone. One note per voter and logo: `note` = `<voterKey>|<logoId>` is unique, so a voter's second note on
 * a logo is an edit of the first, in place (one equality update: the note keeps its number and date), and
 * removing a note removes its text while the slot stays, as a dropped reason does. A note is about a logo,
 * not about a choice: a changed vote keeps it. Everything goes with the poll.
 */
const logoNoteSchema = new Schema(
  {
    ...VOTER_WORDS_FIELDS,
    /** `<voterKey>|<logoId>`: one note per voter and logo. */
    note: { type: String, required: true },
  },
  { collection: 'logo_notes', versionKey: false },
);
indexNumberedSlots(logoNoteSchema);
logoNoteSchema.index({ note: 1 }, { unique: true });
logoNoteSchema.index({ voterKey: 1 });
logoNoteSchema.index({ pollId: 1 });
export const LogoNoteModel = model('LogoNote', logoNoteSchema);

/** What a reader gets with each note beside its text and date. */
export interface NoteExtra {
  voterKey: string;
  channel?: string;
}
export const noteLog = numberedLog<NoteExtra>(LogoNoteModel, {
  pageSize: REASONS_PAGE_SIZE,
  chunkSize: EXPORT_CHUNK,
  extraFields: ['voterKey', 'channel'],
});

/** Each logo of a poll is one numbered log of notes. */
export const logoLog = (pollId: string, logoId: string) => `${pollId}|${logoId}`;
const noteKey = (voterKey: string, logoId: string) => `${voterKey}|${logoId}`;

export interface NewNote {
  pollId: string;
  logoId: string;
  voterKey: string;
  text: string;
  /** The channel of the voter's seat (docs/channels.md), '' for the plain link. */
  channel: string;
}

export const noteFields = (note: NewNote, at?: Date) => ({
  pollId: note.pollId,
  logoId: note.logoId,
  note: noteKey(note.voterKey, note.logoId),
  voterKey: note.voterKey,
  text: note.text,
  channel: note.channel,
  ...(at ? { at } : {}),
});

/** Sets the text of the voter's note on a logo, in place: one equality update, the last edit wins. */
async function replaceNote(voterKey: string, logoId: string, text: string): Promise<boolean> {
  const result = await LogoNoteModel.updateOne({ note: noteKey(voterKey, logoId) }, { $set: { text } });
  return result.matchedCount > 0;
}

/**
 * Gives or edits the voter's note on a logo: an edit (or a note given again after its removal) sets the
 * text of the voter's slot; a first note takes the next free slot of the logo. 'busy' when other notes
 * kept taking the next number (only under a flood).
 */
export async function putNote(note: NewNote): Promise<'stored' | 'busy'> {
  if (await replaceNote(note.voterKey, note.logoId, note.text)) return 'stored';
  const key = noteKey(note.voterKey, note.logoId);
  const appended = await noteLog.append(
    logoLog(note.pollId, note.logoId),
    noteFields(note),
    async () => (await LogoNoteModel.exists({ note: key })) !== null,
  );
  // Another request of the same voter wrote the first note meanwhile: this one is the later edit.
  if (appended === 'exists') await replaceNote(note.voterKey, note.logoId, note.text);
  return appended === 'busy' ? 'busy' : 'stored';
}

/** Removes the voter's note on a logo (its text; the slot stays). false when there was none. */
export async function removeNote(voterKey: string, logoId: string): Promise<boolean> {
  const result = await LogoNoteModel.updateOne({ note: noteKey(voterKey, logoId), text: { $exists: true } }, { $unset: { text: 1 } });
  return result.modifiedCount > 0;
}

/** The voter's notes in a poll, per logo id (one equality lookup: a voter has at most one per logo). */
export async function notesOfVoter(voterKey: string): Promise<{ logoId: string; text: string }[]> {
  const rows = await LogoNoteModel.find({ voterKey }, { logoId: 1, text: 1 }).lean();
  return rows.flatMap((row) => (typeof row.text === 'string' ? [{ logoId: row.logoId, text: row.text }] : []));
}

export type StoredNote = LogEntry<NoteExtra>;

/** A logo's notes, newest first, a page at a time (as readReasons). Removed notes are skipped. */
export async function readNotes(pollId: string, logoId: string, before?: number): Promise<{ notes: StoredNote[]; next: number | null }> {
  const { entries, next } = await noteLog.read(logoLog(pollId, logoId), before);
  return { notes: entries, next };
}

/** Every kept note of a logo, newest first, EXPORT_CHUNK numbers per read (the export streams them). */
export const allNotes = (pollId: string, logoId: string): AsyncGenerator<StoredNote> => noteLog.all(logoLog(pollId, logoId));

/** Removes a poll's notes (with its votes, when the poll is deleted). */
export async function deleteNotes(pollId: string): Promise<number> {
  noteLog.forget(`${pollId}|`);
  return (await LogoNoteModel.deleteMany({ pollId })).deletedCount;
}

export const hasNotes = async (pollId: string): Promise<boolean> => (await LogoNoteModel.exists({ pollId })) !== null;

import { randomUUID } from 'node:crypto';
import { Schema } from 'mongoose';
import { claimAll, removeClaims } from './store/claim-once';
import { primitiveCollection } from './store/collections';
import { versionedValue, type Version } from './store/versioned-value';
import { logoLog } from './vote-reason';

/** One theme of a logo's reasons as stored: its label, its member reasons (slot names) and one or two verbatim quotes. */
export interface StoredTheme {
  label: string;
  count: number;
  quotes: string[];
  members: string[];
}

/**
 * A logo's reason themes (docs/reasons.md, "Themes"): those of all its reasons, and, when its voters came
 * through channels, those of each channel's own (the channel of the reasons' voters, '' for the plain link).
 */
export interface LogoThemes {
  pollId: string;
  logoId: string;
  /** How many reasons they were found in. */
  reasons: number;
  themes: StoredTheme[];
  channels: { channel: string; reasons: number; themes: StoredTheme[] }[];
}

/**
 * A versioned value per logo (./store/versioned-value), keyed like its reasons' log: the votes service's
 * folder writes it, everyone reads it, and it goes with the poll (`groupedBy`).
 */
const logoThemes = versionedValue<LogoThemes>({
  collection: 'reason_themes',
  model: 'ReasonThemes',
  fields: {
    pollId: { type: String, required: true },
    logoId: { type: String, required: true },
    reasons: { type: Number, required: true, min: 0 },
    themes: { type: Schema.Types.Mixed, required: true },
    channels: { type: Schema.Types.Mixed, required: true },
  },
  groupedBy: 'pollId',
});

/**
 * "This logo's reasons changed": a claim-once record per change, written after the change, each under an
 * id of its own. The folder removes only the records it read before finding the themes, so a change made
 * while it works leaves a record and is folded next time; a folder stopped halfway leaves them all.
 */
const themesDueSchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    logoId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'reason_themes_due', versionKey: false },
);
themesDueSchema.index({ pollId: 1 });
const ThemesDueModel = primitiveCollection('claimOnce', 'ReasonThemesDue', themesDueSchema);

/** Notes that these logos' reasons changed (one insert), after the change is stored. */
export async function markThemesDue(pollId: string, logoIds: Iterable<string>, at: Date = new Date()): Promise<void> {
  await claimAll(
    ThemesDueModel,
    [...new Set(logoIds)].map((logoId) => ({ _id: `${logoLog(pollId, logoId)}#${randomUUID()}`, pollId, logoId, at })),
  );
}

/** A logo whose themes are due, with the records that said so. */
export interface DueThemes {
  pollId: string;
  logoId: string;
  records: string[];
}

/** Up to `limit` logos whose reasons changed since their themes were last found, oldest change first (one read of a small collection). */
export async function dueThemes(limit: number): Promise<DueThemes[]> {
  const records = await ThemesDueModel.find({})
    .sort({ at: 1 })
    .limit(limit * 4)
    .lean<{ _id: string; pollId: string; logoId: string }[]>();
  const byLogo = new Map<string, DueThemes>();
  for (const record of records) {
    const key = logoLog(record.pollId, record.logoId);
    const due = byLogo.get(key) ?? { pollId: record.pollId, logoId: record.logoId, records: [] };
    due.records.push(record._id);
    byLogo.set(key, due);
  }
  return [...byLogo.values()].slice(0, limit);
}

/** Removes the records a fold of themes read (once its themes are stored). */
export async function clearDueThemes(records: string[]): Promise<void> {
  for (const id of records) await removeClaims(ThemesDueModel, { _id: id });
}

/** A logo's themes as last found, with their version (null: never found). */
export async function readLogoThemes(pollId: string, logoId: string): Promise<Version<LogoThemes> | null> {
  return logoThemes.read(logoLog(pollId, logoId));
}

/**
 * Stores a logo's themes if they are still at the version the folder read before finding them ('stale':
 * another folder stored newer ones meanwhile, and these are dropped).
 */
export async function storeLogoThemes(
  found: Omit<LogoThemes, 'pollId' | 'logoId'> & { pollId: string; logoId: string },
  readSeq: number | null,
): Promise<'stored' | 'stale'> {
  let stale = false;
  await logoThemes.change(logoLog(found.pollId, found.logoId), (current) => {
    if ((current?.seq ?? null) === readSeq) return found;
    stale = true;
    return undefined;
  });
  return stale ? 'stale' : 'stored';
}

/** Removes a poll's themes and its due records (with its votes, when the poll is deleted). */
export async function deleteReasonThemes(pollId: string): Promise<void> {
  await removeClaims(ThemesDueModel, { pollId });
  await logoThemes.removeGroup(pollId);
}

/** Whether anything of a poll's themes is stored. */
export const hasReasonThemes = async (pollId: string): Promise<boolean> =>
  (await logoThemes.groupExists(pollId)) || (await ThemesDueModel.exists({ pollId })) !== null;

import { storedChannelIds } from './channel-ledger';
import { exactTally } from './store/tally';

/**
 * Brief-fit ratings (docs/attributes.md): voters' answers to a poll's attribute questions ("Which looks most
 * trustworthy?"), an exact tally per poll (`<pollId>`), and per poll and channel (`<pollId>|<channelId>`)
 * for the voters who came through one. A member is a voter's answer to one attribute
 * (`<voterKey>#<attribute>`, and `…@<channelId>` in its channel's tally); its value names the attribute and
 * the logo (`<attribute> <logoId>`, or `<attribute> ?` for "Can't say"), so one read of a poll's tally gives
 * every attribute's counts. A changed answer is the member's next revision, so it moves exactly, as a changed
 * vote does. The votes service writes and folds it; polls without attributes have none.
 */
export const attributeLedger = exactTally({ revisions: 'attribute_ledger', steps: 'attribute_tallies', model: 'AttributeAnswer' });

/** The value of "Can't say": counted, and kept out of the shares. */
const CANT_SAY = '?';

export const attributeTally = (pollId: string, channelId?: string): string => (channelId ? `${pollId}|${channelId}` : pollId);
export const attributeMember = (voterKey: string, attribute: number, channelId?: string): string =>
  `${voterKey}#${attribute}${channelId ? `@${channelId}` : ''}`;
/** An answer's value: the attribute and the logo (null: "Can't say"). */
export const attributeValue = (attribute: number, logoId: string | null): string => `${attribute} ${logoId ?? CANT_SAY}`;

/** One attribute's answers in a group of voters: per logo id, and "Can't say". */
export interface AttributeTally {
  logos: Map<string, number>;
  cantSay: number;
}

/** A tally's counts as each attribute's (`attributes` of them). */
export function attributeTallies(counts: ReadonlyMap<string, number>, attributes: number): AttributeTally[] {
  const tallies = Array.from({ length: attributes }, (): AttributeTally => ({ logos: new Map(), cantSay: 0 }));
  for (const [value, count] of counts) {
    const space = value.indexOf(' ');
    const tally = tallies[Number(value.slice(0, space))];
    const logoId = value.slice(space + 1);
    if (!tally) continue;
    if (logoId === CANT_SAY) tally.cantSay += count;
    else tally.logos.set(logoId, (tally.logos.get(logoId) ?? 0) + count);
  }
  return tallies;
}

/** One voter's current answer to one attribute (logoId null: "Can't say"). */
export interface StoredAnswer {
  voterKey: string;
  attribute: number;
  logoId: string | null;
}

/** One voter's current answers in a poll of `attributes` attributes: the answered ones, in the poll's order (logoId null: "Can't say"). */
export async function voterAnswers(voterKey: string, attributes: number): Promise<{ attribute: number; logoId: string | null }[]> {
  const heads = await Promise.all(
    Array.from({ length: attributes }, (_, attribute) => attributeLedger.head(attributeMember(voterKey, attribute))),
  );
  return heads.flatMap(({ value }, attribute) => {
    if (value === null) return [];
    const logoId = value.slice(value.indexOf(' ') + 1);
    return [{ attribute, logoId: logoId === CANT_SAY ? null : logoId }];
  });
}

/** Every voter's current answer to each attribute of a poll (the export's rows; read whole, see memberValues). */
export async function attributeAnswers(pollId: string): Promise<StoredAnswer[]> {
  const answers: StoredAnswer[] = [];
  for (const [member, value] of await attributeLedger.memberValues(attributeTally(pollId))) {
    if (value === null) continue;
    const logoId = value.slice(value.indexOf(' ') + 1);
    const cut = member.lastIndexOf('#');
    answers.push({ voterKey: member.slice(0, cut), attribute: Number(member.slice(cut + 1)), logoId: logoId === CANT_SAY ? null : logoId });
  }
  return answers.sort((a, b) => a.attribute - b.attribute || (a.voterKey < b.voterKey ? -1 : a.voterKey > b.voterKey ? 1 : 0));
}

/** Removes a poll's answers, its channels' too. */
export async function deleteAttributeAnswers(pollId: string): Promise<void> {
  for (const id of await storedChannelIds(pollId)) await attributeLedger.deleteTally(attributeTally(pollId, id));
  await attributeLedger.deleteTally(attributeTally(pollId));
}

/** Whether anything of a poll's answers is stored. */
export async function hasAttributeAnswers(pollId: string): Promise<boolean> {
  if (await attributeLedger.hasTally(attributeTally(pollId))) return true;
  for (const id of await storedChannelIds(pollId)) if (await attributeLedger.hasTally(attributeTally(pollId, id))) return true;
  return false;
}

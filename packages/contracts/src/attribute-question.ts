/**
 * Brief-fit ratings (docs/attributes.md): the attributes a creator picks ("Trustworthy", or their own words),
 * the question each becomes for voters, and the sentence the results page says when an attribute's leader is
 * not the poll's. Free of zod, so the browser and the services say the same.
 */

/** The presets the creation page offers, each with its question. */
export const ATTRIBUTE_PRESETS = {
  Trustworthy: 'Which looks most trustworthy?',
  Modern: 'Which looks most modern?',
  Memorable: 'Which is most memorable?',
  Premium: 'Which looks most premium?',
  Playful: 'Which looks most playful?',
  'Easy to read': 'Which is easiest to read?',
} as const;

const presetQuestion = (attribute: string): string | undefined =>
  Object.entries(ATTRIBUTE_PRESETS).find(([preset]) => preset.toLocaleLowerCase('en-US') === attribute.toLocaleLowerCase('en-US'))?.[1];

/** The question voters answer for an attribute: a preset's own, or the creator's words quoted. */
export function attributeQuestion(attribute: string): string {
  return presetQuestion(attribute) ?? `Which best fits “${attribute}”?`;
}

/** How a sentence names a logo's fit: "looks most trustworthy", "best fits “a neighbourhood bakery”". */
function fitPhrase(attribute: string): string {
  const question = presetQuestion(attribute);
  return question ? question.replace(/^Which /, '').replace(/\?$/, '') : `best fits “${attribute}”`;
}

/**
 * The results page's sentence when the logo that looks most `attribute` is not the one picked most often:
 * "Logo C is picked most often, but Logo A looks most trustworthy: 81% likely".
 */
export function attributeLeaderSentence(pollLeader: string, attributeLeader: string, attribute: string, chanceText: string): string {
  return `${pollLeader} is picked most often, but ${attributeLeader} ${fitPhrase(attribute)}: ${chanceText} likely`;
}

import winkNLP, { type ItsFunction, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { MIN_REASONS_FOR_THEMES } from '@logovote/contracts';
import { CONCEPTS } from './lexicon';

/** A reason as stored: `name` is unique within the input (the store's slot name), `text` the verbatim reason. */
export interface ReasonForThemes {
  name: string;
  text: string;
}

export interface ReasonTheme {
  /** Short label, 1-3 words, sentence case, e.g. "Warm and homely", "Easy to read", "Too busy". */
  label: string;
  /** How many of the input reasons belong to it (= members.length). */
  count: number;
  /** One or two quotes: the `text` of member reasons, verbatim (byte-identical), the most representative first. */
  quotes: string[];
  /** The names of the member reasons (each reason in at most one theme). */
  members: string[];
}

/** Enough for the ideas of a logo with many reasons; a results page may show fewer. */
export const MAX_THEMES = 6;
const MIN_MEMBERS = 2;
const MAX_QUOTES = 2;

/** Plain code-unit order: the same on every machine, unlike localeCompare. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Words too common in reasons to make a theme of their own when no concept matched. */
const GENERIC_WORDS = new Set([
  'logo',
  'one',
  'like',
  'love',
  'look',
  'good',
  'nice',
  'great',
  'best',
  'better',
  'feel',
  'think',
  'thing',
  'really',
  'design',
  'make',
  'get',
  'option',
  'choice',
  'prefer',
  'pick',
  'other',
  'way',
  'bit',
  'lot',
  'want',
  'go',
  'say',
  'see',
  'seem',
  'cool',
  'awesome',
  'lovely',
  'amazing',
  'perfect',
  'favourite',
  'favorite',
]);
const SALIENT_POS = new Set(['NOUN', 'PROPN', 'ADJ', 'VERB']);
/** Clause openings that put the clause about the other logos, so its words mean the opposite ("the others are too busy"). */
const OTHERS = new Set(['other', 'others', 'rest']);

interface Token {
  /** Lemma, normal form and text (lowercase): what a cue may match. */
  forms: Set<string>;
  lemma: string;
  text: string;
  negated: boolean;
  salient: boolean;
}

interface Cue {
  words: string[];
  concept: string;
  weight: number;
  opposite: string | undefined;
}

/** A reason as read: its concepts by preference (score, then first position, then label) and its salient lemmas. */
interface ReadReason extends ReasonForThemes {
  scores: Map<string, { score: number; first: number }>;
  preferences: string[];
  tokens: Token[];
}

/** Every cue by its first word, longest phrase first so that "hard to read" wins over "read". */
const CUES_BY_FIRST_WORD = new Map<string, Cue[]>();
for (const concept of CONCEPTS) {
  const cues = [...concept.cues.map((cue) => [cue, 2] as const), ...(concept.hints ?? []).map((hint) => [hint, 1] as const)];
  for (const [phrase, weight] of cues) {
    const words = phrase.split(' ');
    const list = CUES_BY_FIRST_WORD.get(words[0]!) ?? [];
    list.push({ words, concept: concept.label, weight, opposite: concept.opposite });
    list.sort((a, b) => b.words.length - a.words.length);
    CUES_BY_FIRST_WORD.set(words[0]!, list);
  }
}

let nlp: WinkMethods | undefined;

function tokensOf(text: string): Token[] {
  nlp ??= winkNLP(model, ['sbd', 'negation', 'pos']);
  const { its } = nlp;
  // Lowercase first: wink-nlp reads a capitalised word as a proper noun and leaves it unlemmatised ("Owls").
  const tokens = nlp.readDoc(text.toLowerCase()).tokens();
  // wink-nlp's typings give its.lemma a third parameter that its ItsFunction type does not accept; it runs as documented.
  const lemmas = tokens.out(its.lemma as ItsFunction<string>) as string[];
  const normals = tokens.out(its.normal) as string[];
  const values = tokens.out(its.value) as string[];
  const types = tokens.out(its.type) as string[];
  const pos = tokens.out(its.pos) as string[];
  const negations = tokens.out(its.negationFlag) as boolean[];
  const stopWords = tokens.out(its.stopWordFlag) as boolean[];
  const read: Token[] = [];
  let aboutOthers = false;
  let clauseStart = true;
  let negationCut = false;
  values.forEach((value, index) => {
    if (types[index] === 'punctuation' || pos[index] === 'CCONJ') {
      clauseStart = true;
      aboutOthers = false;
      negationCut ||= value === 'and' || value === 'but';
      return;
    }
    // wink-nlp carries a negation across "and" ("not busy and warm"); here it ends there, until a new negator.
    negationCut &&= negations[index]!;
    const lemma = lemmas[index]!;
    if (clauseStart && OTHERS.has(lemma)) aboutOthers = true;
    clauseStart = clauseStart && (value === 'the' || value === 'all');
    read.push({
      forms: new Set([lemma, normals[index]!, value]),
      lemma,
      text: value,
      negated: (negations[index]! && !negationCut) !== aboutOthers,
      salient:
        types[index] === 'word' && SALIENT_POS.has(pos[index]!) && !stopWords[index] && lemma.length > 2 && !GENERIC_WORDS.has(lemma),
    });
  });
  return read;
}

/** The concepts a reason's words name: the longest cue at each position, a negated cue counting for its opposite. */
function readReason(reason: ReasonForThemes): ReadReason {
  const tokens = tokensOf(reason.text);
  const scores = new Map<string, { score: number; first: number }>();
  for (let start = 0; start < tokens.length;) {
    const cue = [...tokens[start]!.forms]
      .flatMap((form) => CUES_BY_FIRST_WORD.get(form) ?? [])
      .sort((a, b) => b.words.length - a.words.length)
      .find((candidate) => candidate.words.every((word, offset) => tokens[start + offset]?.forms.has(word)));
    if (!cue) {
      start += 1;
      continue;
    }
    const concept = tokens[start]!.negated ? cue.opposite : cue.concept;
    if (concept) {
      const seen = scores.get(concept);
      scores.set(concept, { score: (seen?.score ?? 0) + cue.weight, first: seen?.first ?? start });
    }
    start += cue.words.length;
  }
  const preferences = [...scores.keys()].sort((a, b) => {
    const [left, right] = [scores.get(a)!, scores.get(b)!];
    return right.score - left.score || left.first - right.first || byCodeUnits(a, b);
  });
  return { ...reason, scores, preferences, tokens };
}

const countBy = (keys: string[]) => keys.reduce((counts, key) => counts.set(key, (counts.get(key) ?? 0) + 1), new Map<string, number>());

/**
 * Each reason joins its preferred concept; a concept that only one reason joins is dropped and that reason
 * tries its next, until every concept left has at least two.
 */
function groupByConcept(reasons: ReadReason[]): Map<string, ReadReason[]> {
  const dropped = new Set<string>();
  for (;;) {
    const choice = (reason: ReadReason) => reason.preferences.find((concept) => !dropped.has(concept));
    const counts = countBy(reasons.map(choice).filter((concept) => concept !== undefined));
    const tooSmall = [...counts].filter(([, count]) => count < MIN_MEMBERS).map(([concept]) => concept);
    if (tooSmall.length === 0) {
      const groups = new Map<string, ReadReason[]>();
      for (const reason of reasons) {
        const concept = choice(reason) ?? '';
        groups.set(concept, [...(groups.get(concept) ?? []), reason]);
      }
      return groups;
    }
    for (const concept of tooSmall) dropped.add(concept);
  }
}

/** Reasons that no concept took, grouped by a salient lemma they share: the commonest lemma first. */
function groupByLemma(reasons: ReadReason[]): Map<string, ReadReason[]> {
  const groups = new Map<string, ReadReason[]>();
  let left = reasons;
  for (;;) {
    const counts = countBy(left.flatMap((reason) => [...new Set(reason.tokens.filter((t) => t.salient).map((t) => t.lemma))]));
    const [lemma, count] = [...counts].sort(([a, x], [b, y]) => y - x || byCodeUnits(a, b))[0] ?? ['', 0];
    if (count < MIN_MEMBERS) return groups;
    const members = left.filter((reason) => reason.tokens.some((token) => token.salient && token.lemma === lemma));
    const spellings = countBy(members.flatMap((reason) => reason.tokens.filter((t) => t.lemma === lemma).map((t) => t.text)));
    const [spelling] = [...spellings].sort(([a, x], [b, y]) => y - x || byCodeUnits(a, b))[0]!;
    groups.set(spelling.charAt(0).toUpperCase() + spelling.slice(1), members);
    left = left.filter((reason) => !members.includes(reason));
  }
}

/** The most representative members first: the strongest match, then the fewest other concepts, then short but not a word or two. */
function quotesOf(label: string, members: ReadReason[]): string[] {
  const rank = (reason: ReadReason) => [
    -(reason.scores.get(label)?.score ?? 0),
    reason.preferences.length,
    reason.text.split(' ').length < 3 ? 1 : 0,
    reason.text.length,
  ];
  const ranked = [...members].sort((a, b) => {
    const [left, right] = [rank(a), rank(b)];
    return left.reduce((order, value, index) => order || value - right[index]!, 0) || byCodeUnits(a.text, b.text);
  });
  return [...new Set(ranked.map((reason) => reason.text))].slice(0, MAX_QUOTES);
}

/** Themes of one logo's reasons, biggest first (ties by label); reasons in no theme are left out. Deterministic and independent of input order. */
export function reasonThemes(reasons: readonly ReasonForThemes[]): ReasonTheme[] {
  if (reasons.length < MIN_REASONS_FOR_THEMES) return [];
  const read = [...reasons].sort((a, b) => byCodeUnits(a.name, b.name)).map(readReason);
  const byConcept = groupByConcept(read);
  const unmatched = byConcept.get('') ?? [];
  byConcept.delete('');
  const themes = [...byConcept, ...groupByLemma(unmatched)].map(([label, members]) => ({
    label,
    count: members.length,
    quotes: quotesOf(label, members),
    members: members.map((member) => member.name),
  }));
  return themes.sort((a, b) => b.count - a.count || byCodeUnits(a.label, b.label)).slice(0, MAX_THEMES);
}

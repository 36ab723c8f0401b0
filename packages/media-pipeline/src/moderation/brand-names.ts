import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One line of the brand list (data/brand-names.txt). */
export interface BrandName {
  /** As the brand writes it, e.g. "Coca-Cola". */
  name: string;
  /** What the text read is compared with: the name folded by brandKey, e.g. "cocacola". */
  key: string;
  /** Refused only when the name is all the logo says (everyday words, and names of three characters or fewer). */
  alone: boolean;
  /** Read letter for letter: no OCR error forgiven (a name an OCR error away from an everyday word). */
  exact: boolean;
}

/** A word the OCR read, with its confidence (0..100). */
export interface ReadWord {
  text: string;
  confidence: number;
}

/** What matched: the brand, and the words that spell it as they were read. */
export interface BrandMatch {
  brand: string;
  read: string;
  /** One OCR error was forgiven. */
  approximate: boolean;
}

/**
 * The list lives outside src/ (data/), because the service images keep a package's dist/ and drop its src/;
 * the path is the same from src/moderation (tests, tsx) and dist/moderation (services).
 */
export const BRAND_LIST_FILE = join(__dirname, '..', '..', 'data', 'brand-names.txt');

/** Names this short are matched only when they are the logo's whole text, read with high confidence. */
export const SHORT_NAME_LENGTH = 3;
/** The confidence (0..100) a short name's words must be read with: the OCR reads icons as short capitals. */
export const SHORT_NAME_MIN_CONFIDENCE = 80;
/** From this length, one OCR error (a letter missing, extra, wrong or two swapped) is forgiven. */
export const APPROXIMATE_MIN_LENGTH = 8;
/** Words read with less confidence are noise (an icon's edges read as letters) when the whole text counts. */
export const NOISE_MAX_CONFIDENCE = 40;

/** Case, accents, spaces and punctuation removed: "Nestlé" -> "nestle", "AT&T" -> "att", "G O O G L E" -> "google". */
export function brandKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The letters OCR confuses most (rn/m, vv/w, 0/o, 1/l/i/|, 5/s), folded to one, so "rnicrosoft" and
 * "G00GLE" are what they look like. Applied to both sides of a comparison.
 */
function foldConfusables(key: string): string {
  return key.replace(/rn/g, 'm').replace(/vv/g, 'w').replace(/0/g, 'o').replace(/[1i]/g, 'l').replace(/5/g, 's');
}

/** Parses the list's text: one name a line, # comments, optional [alone] or [exact] marker after the name. */
export function parseBrandList(text: string): BrandName[] {
  const brands: BrandName[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const marker = /\s*\[(alone|exact)\]$/.exec(line);
    const name = marker ? line.slice(0, marker.index).trim() : line;
    const key = brandKey(name);
    // Two characters are a monogram more often than a brand (see the list's header).
    if (key.length <= 2) throw new Error(`brand list: "${name}" is too short to tell from a monogram`);
    brands.push({
      name,
      key,
      alone: marker?.[1] === 'alone' || key.length <= SHORT_NAME_LENGTH,
      exact: marker?.[1] === 'exact',
    });
  }
  return brands;
}

export function loadBrandList(file = BRAND_LIST_FILE): BrandName[] {
  return parseBrandList(readFileSync(file, 'utf8'));
}

/** At most one edit apart (a letter inserted, deleted, substituted, or two neighbours swapped). */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  if (a.length === b.length) {
    if (a.slice(start + 1) === b.slice(start + 1)) return true;
    return a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2);
  }
  return a.length > b.length ? a.slice(start + 1) === b.slice(start) : a.slice(start) === b.slice(start + 1);
}

/**
 * Finds a brand name in what the OCR read. A name matches when consecutive whole words spell it, whatever
 * their case and spacing ("Google", "GOOGLE", "G O O G L E", "goo gle"), but never inside a longer word
 * ("Metaphor" is not "Meta", "Teslarian" is not "Tesla"): a name that is part of another word is a
 * different name. Names marked [alone] and short names match only the logo's whole text, letter for letter.
 * The other names forgive the usual OCR confusions, and one error from APPROXIMATE_MIN_LENGTH letters,
 * unless marked [exact].
 */
export class BrandMatcher {
  private readonly exactKeys = new Map<string, BrandName>();
  /** The names that forgive OCR errors, by their folded key. */
  private readonly foldedKeys = new Map<string, BrandName & { folded: string }>();
  private readonly longestKey: number;

  constructor(brands: readonly BrandName[]) {
    for (const brand of brands) {
      this.exactKeys.set(brand.key, brand);
      if (!brand.alone && !brand.exact) this.foldedKeys.set(foldConfusables(brand.key), { ...brand, folded: foldConfusables(brand.key) });
    }
    this.longestKey = Math.max(...brands.map((brand) => brand.key.length));
  }

  match(words: readonly ReadWord[]): BrandMatch | undefined {
    const tokens = words.map((word) => ({ ...word, key: brandKey(word.text) })).filter((token) => token.key !== '');
    const found = (brand: BrandName, spelled: readonly ReadWord[], approximate: boolean): BrandMatch => ({
      brand: brand.name,
      read: spelled.map((word) => word.text).join(' '),
      approximate,
    });

    // The whole text, without the noise an icon reads as.
    const meaningful = tokens.filter((token) => token.confidence >= NOISE_MAX_CONFIDENCE);
    const whole = meaningful.map((token) => token.key).join('');
    const alone = this.exactKeys.get(whole);
    if (alone && (alone.key.length > SHORT_NAME_LENGTH || meaningful.every((token) => token.confidence >= SHORT_NAME_MIN_CONFIDENCE)))
      return found(alone, meaningful, false);

    // Runs of consecutive whole words, anywhere in the text.
    for (let first = 0; first < tokens.length; first += 1) {
      let spelled = '';
      for (let last = first; last < tokens.length; last += 1) {
        spelled += tokens[last]!.key;
        if (spelled.length > this.longestKey + 1) break;
        const run = tokens.slice(first, last + 1);
        const exact = this.exactKeys.get(spelled);
        if (exact && !exact.alone) return found(exact, run, false);
        const folded = foldConfusables(spelled);
        const confused = this.foldedKeys.get(folded);
        if (confused) return found(confused, run, false);
        for (const brand of this.foldedKeys.values())
          if (brand.key.length >= APPROXIMATE_MIN_LENGTH && withinOneEdit(brand.folded, folded)) return found(brand, run, true);
      }
    }
    return undefined;
  }
}

import { ATTRIBUTE_PRESETS } from '@logovote/contracts/attribute-question';
import { MAX_ATTRIBUTE_LENGTH, MAX_ATTRIBUTES_PER_POLL } from '@logovote/contracts/limits';

import { addAttribute, ATTRIBUTE_PRESET_NAMES, isChosen, isFull, removeAttribute, togglePreset } from '../src/attribute-choice';

const full = ['Trustworthy', 'Modern', 'Fits a bakery', 'Warm'];

describe("the creator's attributes", () => {
  it('offers the presets in their order', () => {
    expect(ATTRIBUTE_PRESET_NAMES).toEqual(Object.keys(ATTRIBUTE_PRESETS));
    expect(full).toHaveLength(MAX_ATTRIBUTES_PER_POLL);
  });

  it('adds own words, trimmed, at the end', () => {
    expect(addAttribute(['Modern'], '  Fits a neighbourhood bakery ')).toEqual({ attributes: ['Modern', 'Fits a neighbourhood bakery'] });
  });

  it("takes words that name a preset for the preset, in the preset's spelling", () => {
    expect(addAttribute([], 'easy TO read')).toEqual({ attributes: ['Easy to read'] });
  });

  it.each([
    ['empty words', [], '   ', 'Type what the logos should be rated on first.'],
    ['a duplicate in another letter case', ['Fits a bakery'], 'fits a BAKERY', '“Fits a bakery” is already chosen.'],
    ['a chosen preset typed', ['Modern'], 'modern', '“Modern” is already chosen.'],
    ['a fifth attribute', full, 'Bold', `A poll can ask about at most ${MAX_ATTRIBUTES_PER_POLL} attributes.`],
    [
      'words too long',
      [],
      'x'.repeat(MAX_ATTRIBUTE_LENGTH + 1),
      `Keep it to ${MAX_ATTRIBUTE_LENGTH} characters or fewer (this has ${MAX_ATTRIBUTE_LENGTH + 1}).`,
    ],
  ])('refuses %s', (_what, chosen, text, refusal) => {
    expect(addAttribute(chosen, text)).toEqual({ refusal });
  });

  it('accepts words exactly as long as allowed, counted after trimming', () => {
    const longest = 'x'.repeat(MAX_ATTRIBUTE_LENGTH);
    expect(addAttribute([], ` ${longest} `)).toEqual({ attributes: [longest] });
  });

  it('toggles a preset on at the end and off again, and adds none once full', () => {
    expect(togglePreset(['Fits a bakery'], 'Playful')).toEqual(['Fits a bakery', 'Playful']);
    expect(togglePreset(['Fits a bakery', 'Playful'], 'Playful')).toEqual(['Fits a bakery']);
    expect(togglePreset(full, 'Premium')).toEqual(full);
    expect(togglePreset(full, 'Modern')).toEqual(['Trustworthy', 'Fits a bakery', 'Warm']);
  });

  it('tells chosen ones and a full list in any letter case, and removes one', () => {
    expect(isChosen(['Fits a bakery'], 'FITS A BAKERY')).toBe(true);
    expect(isChosen(['Fits a bakery'], 'Modern')).toBe(false);
    expect(isFull(full)).toBe(true);
    expect(isFull(full.slice(1))).toBe(false);
    expect(removeAttribute(full, 'warm')).toEqual(['Trustworthy', 'Modern', 'Fits a bakery']);
  });
});

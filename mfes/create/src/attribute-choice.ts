import { ATTRIBUTE_PRESETS } from '@logovote/contracts/attribute-question';
import { MAX_ATTRIBUTE_LENGTH, MAX_ATTRIBUTES_PER_POLL } from '@logovote/contracts/limits';

/**
 * The rules of the creator's attributes (docs/attributes.md), as the server applies them (AttributeNames):
 * at most MAX_ATTRIBUTES_PER_POLL, each one line of at most MAX_ATTRIBUTE_LENGTH characters, no two alike
 * in any letter case. Said here first, so the creator learns it beside the field instead of after the upload;
 * the characters plain text refuses (contracts' text.ts) are rare enough in a typed line to be left to the server.
 */

export const ATTRIBUTE_PRESET_NAMES = Object.keys(ATTRIBUTE_PRESETS) as (keyof typeof ATTRIBUTE_PRESETS)[];

const sameName = (a: string, b: string) => a.toLocaleLowerCase('en-US') === b.toLocaleLowerCase('en-US');

export const isChosen = (attributes: readonly string[], name: string): boolean => attributes.some((chosen) => sameName(chosen, name));

export const isFull = (attributes: readonly string[]): boolean => attributes.length >= MAX_ATTRIBUTES_PER_POLL;

export type AttributeAddition = { attributes: string[]; refusal?: never } | { attributes?: never; refusal: string };

/**
 * The list with the creator's own words added at its end, or why they cannot be. Words that name a preset
 * ('trustworthy') become that preset, so its toggle shows it chosen and voters get its question.
 */
export function addAttribute(attributes: readonly string[], text: string): AttributeAddition {
  const name = text.trim();
  if (!name) return { refusal: 'Type what the logos should be rated on first.' };
  if (isFull(attributes)) return { refusal: `A poll can ask about at most ${MAX_ATTRIBUTES_PER_POLL} attributes.` };
  // In UTF-16 code units, as the server counts.
  if (name.length > MAX_ATTRIBUTE_LENGTH)
    return { refusal: `Keep it to ${MAX_ATTRIBUTE_LENGTH} characters or fewer (this has ${name.length}).` };
  const chosen = attributes.find((attribute) => sameName(attribute, name));
  if (chosen) return { refusal: `“${chosen}” is already chosen.` };
  return { attributes: [...attributes, ATTRIBUTE_PRESET_NAMES.find((preset) => sameName(preset, name)) ?? name] };
}

/** The list without `name` (in any letter case). */
export const removeAttribute = (attributes: readonly string[], name: string): string[] =>
  attributes.filter((attribute) => !sameName(attribute, name));

/** A preset's toggle: chosen ones are removed, others added while there is room. */
export function togglePreset(attributes: readonly string[], preset: string): string[] {
  if (isChosen(attributes, preset)) return removeAttribute(attributes, preset);
  return isFull(attributes) ? [...attributes] : [...attributes, preset];
}

import { MAX_LOGO_NAME_LENGTH } from './limits';

/**
 * `text` cut to at most `max` UTF-16 code units (the unit of zod's and the input's maxLength), never
 * between the two halves of a character.
 */
function cutToLength(text: string, max: number): string {
  let cut = '';
  for (const character of text) {
    if (cut.length + character.length > max) break;
    cut += character;
  }
  return cut;
}

/**
 * A logo's name unless its creator gave one: the file name without its extension ('wordmark.svg' gives
 * 'wordmark'), cut to the names' limit. A name that would be empty ('.png') keeps the whole file name.
 * The creation page prefills it, the server stores it for a creation without names, and polls stored
 * without a name are answered with it (@logovote/models' logoName).
 */
export function defaultLogoName(fileName: string): string {
  const name = fileName.trim();
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot).trim() : name;
  return cutToLength(stem || name, MAX_LOGO_NAME_LENGTH).trim();
}

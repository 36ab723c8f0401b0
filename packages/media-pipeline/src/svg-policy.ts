import { SaxesParser } from 'saxes';

export interface SvgVerdict {
  /** Well-formed XML whose root element is <svg>. */
  isSvg: boolean;
  /** Why the document may not be stored; empty when it is safe. */
  problems: string[];
}

/** Elements that run code, embed other documents or load media from elsewhere. */
const FORBIDDEN_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'handler', 'listener', 'audio', 'video']);
const ANIMATION_ELEMENTS = new Set(['set', 'animate', 'animatemotion', 'animatetransform']);
const REFERENCE_ATTRIBUTES = new Set(['href', 'src']);
/** Raster images embedded in the file itself are fine: they are rasterised with the rest for moderation. */
const EMBEDDED_RASTER = /^data:image\/(png|jpe?g|gif|webp)[;,]/i;
const CSS_URL = /url\(\s*(['"]?)(.*?)\1\s*\)/gi;
const MAX_PROBLEMS = 5;

const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1).toLowerCase();
/** Browsers ignore whitespace and control characters inside a URL scheme ("java\tscript:"). */
function hasScriptUrl(value: string): boolean {
  const squeezed = [...value].filter((char) => char.charCodeAt(0) > 0x20).join('');
  return /javascript:|vbscript:/i.test(squeezed);
}

function isInternalReference(target: string): boolean {
  const trimmed = target.trim();
  return trimmed.startsWith('#') || EMBEDDED_RASTER.test(trimmed);
}

function cssProblems(css: string): string[] {
  const problems: string[] = [];
  if (/@import/i.test(css)) problems.push('a CSS @import');
  // CSS escapes can spell url( or @import in ways a reader would miss; logos have no use for them.
  if (css.includes('\\')) problems.push('escaped characters in CSS');
  for (const match of css.matchAll(CSS_URL)) {
    if (!isInternalReference(match[2] ?? '')) problems.push(`an external reference url(${(match[2] ?? '').slice(0, 60)})`);
  }
  return problems;
}

/**
 * Decides whether an SVG document is safe to store and serve: refused when it carries scripts, event
 * handlers, foreignObject or other embedding, external references (href, src, CSS url() and
 * @import), or a DOCTYPE with its own entity declarations. Parsed with a real XML parser, so markup
 * tricks that fool a regular expression fool nothing here.
 */
export function checkSvg(text: string): SvgVerdict {
  const problems = new Set<string>();
  let depth = 0;
  let rootIsSvg = false;
  let styleDepth = 0;
  let css = '';
  const parser = new SaxesParser({ xmlns: false, position: false });

  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) problems.add('a DOCTYPE with entity declarations');
  });
  parser.on('processinginstruction', ({ target }) => problems.add(`a processing instruction <?${target}?>`));
  parser.on('opentag', (tag) => {
    const element = localName(tag.name);
    if (depth === 0) rootIsSvg = element === 'svg';
    depth += 1;
    if (FORBIDDEN_ELEMENTS.has(element)) problems.add(`a <${tag.name}> element`);
    if (element === 'style') styleDepth += 1;
    for (const [name, value] of Object.entries(tag.attributes as Record<string, string>)) {
      const attribute = localName(name);
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      if (attribute.startsWith('on')) problems.add(`an event handler attribute ${name}`);
      else if (REFERENCE_ATTRIBUTES.has(attribute) && !isInternalReference(value))
        problems.add(`an external reference ${name}="${value.slice(0, 60)}"`);
      else if (hasScriptUrl(value)) problems.add(`a script URL in ${name}`);
      else if (attribute === 'style' || /url\(/i.test(value)) for (const problem of cssProblems(value)) problems.add(problem);
      if (ANIMATION_ELEMENTS.has(element) && attribute === 'attributename' && /^((xlink:)?href|on)/i.test(value.trim())) {
        problems.add(`an animation of ${value.trim()}`);
      }
    }
  });
  parser.on('closetag', (tag) => {
    depth -= 1;
    if (localName(tag.name) === 'style') styleDepth -= 1;
  });
  const collectCss = (content: string) => {
    if (styleDepth > 0) css += content;
  };
  parser.on('text', collectCss);
  parser.on('cdata', collectCss);

  try {
    parser.write(text).close();
  } catch {
    return { isSvg: false, problems: [] };
  }
  for (const problem of cssProblems(css)) problems.add(problem);
  if (hasScriptUrl(css)) problems.add('a script URL in CSS');
  return { isSvg: rootIsSvg, problems: [...problems].slice(0, MAX_PROBLEMS) };
}

import { SaxesParser } from 'saxes';
import { DEFAULT_SVG_SETTINGS, SvgTree, costProblems, type SvgCosts, type SvgSettings } from './svg-costs';

export interface SvgVerdict {
  /** Well-formed XML whose root element is <svg> (false too when markup too large to parse was not read). */
  isSvg: boolean;
  /** Why the document may not be stored; empty when it is safe. */
  problems: string[];
  /** What drawing it costs (counted up to the element limit, where parsing stops). */
  costs: SvgCosts;
  /** Which cost limits it exceeds; empty when it is cheap enough to draw. */
  tooComplex: string[];
}

/** Elements that run code, embed other documents or load media from elsewhere. */
const FORBIDDEN_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'handler', 'listener', 'audio', 'video']);
const ANIMATION_ELEMENTS = new Set(['set', 'animate', 'animatemotion', 'animatetransform', 'animatecolor', 'discard']);
/** Elements whose href is not drawn where they are: a link's destination, an animation's target. */
const HREF_NOT_DRAWN = new Set(['a', ...ANIMATION_ELEMENTS]);
const REFERENCE_ATTRIBUTES = new Set(['href', 'src']);
/** Raster images embedded in the file itself are fine: they are rasterised with the rest for moderation. */
const EMBEDDED_RASTER = /^data:image\/(png|jpe?g|gif|webp)[;,]/i;
const MAX_PROBLEMS = 5;
/**
 * Browsers ignore whitespace and control characters inside a URL scheme ("java\tscript:"): the letters may
 * have any of them in between. A regular expression rather than a squeezed copy, so a 2 MB path costs nothing.
 */
const SCRIPT_URL = new RegExp(
  ['javascript:', 'vbscript:'].map((scheme) => [...scheme].map((char) => `${char}[\\x00-\\x20]*`).join('')).join('|'),
  'i',
);

/** An attribute's or a value's name without its prefix, whatever namespace the prefix is bound to. */
const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1).toLowerCase();
const hasScriptUrl = (value: string) => SCRIPT_URL.test(value);

function isInternalReference(target: string): boolean {
  const trimmed = target.trim();
  return trimmed.startsWith('#') || EMBEDDED_RASTER.test(trimmed);
}

/**
 * Every `url(...)` target in CSS or an attribute, found in one pass: each search for the closing parenthesis
 * starts where the last one ended, so no input makes it quadratic.
 */
function cssUrls(css: string): string[] {
  const urls: string[] = [];
  const lower = css.toLowerCase();
  let close = -1;
  for (let open = lower.indexOf('url('); open !== -1; open = lower.indexOf('url(', open + 4)) {
    if (close < open) close = css.indexOf(')', open);
    if (close === -1) {
      urls.push(css.slice(open + 4).trim());
      break;
    }
    urls.push(css.slice(open + 4, close).trim());
  }
  return urls.map((url) => (/^(["']).*\1$/s.test(url) ? url.slice(1, -1) : url));
}

/** The ids a value's `url(#id)` references point at. */
const urlReferences = (value: string) =>
  value.toLowerCase().includes('url(') ? cssUrls(value).flatMap((url) => (url.trim().startsWith('#') ? [url.trim().slice(1)] : [])) : [];

function cssProblems(css: string): string[] {
  const problems: string[] = [];
  if (/@import/i.test(css)) problems.push('a CSS @import');
  // CSS escapes can spell url( or @import in ways a reader would miss; logos have no use for them.
  if (css.includes('\\')) problems.push('escaped characters in CSS');
  for (const url of cssUrls(css)) if (!isInternalReference(url)) problems.push(`an external reference url(${url.slice(0, 60)})`);
  return problems;
}

/**
 * How many tags, comments, CDATA sections and processing instructions the text can hold at most: each starts
 * with "<", which neither text nor an attribute value may hold. Counted in a few milliseconds for 2 MB, far
 * faster than the XML parser reads it.
 */
function markupCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at + 1)) count += 1;
  return count;
}

/** Thrown from the parser's callbacks to stop parsing a document that is already over a limit. */
class StopParsing extends Error {}

/**
 * Decides whether an SVG document is safe to store and serve: refused when it carries scripts, event
 * handlers, foreignObject or other embedding, external references (href, src, CSS url() and
 * @import), an animation of a link or an event handler, or a DOCTYPE with its own entity declarations.
 * Parsed with a real XML parser, so markup tricks that fool a regular expression fool nothing here.
 * Attributes are known by their local name whatever their prefix, so `xl:href` with `xl` bound to the XLink
 * namespace is an href like `xlink:href` and SVG 2's plain `href`.
 *
 * Also measures what drawing it costs (svg-costs.ts) without expanding any reference, and stops parsing
 * as soon as it has more elements than the limit: the check's time is bounded by the limits, not the input.
 */
export function checkSvg(text: string, settings: SvgSettings = DEFAULT_SVG_SETTINGS): SvgVerdict {
  const problems = new Set<string>();
  const tree = new SvgTree();
  // An element is one tag or two: more markup than twice the element limit is refused without parsing it.
  if (markupCount(text) > 2 * settings.SVG_MAX_ELEMENTS + 2) {
    return { isSvg: false, problems: [], costs: tree.costs(), tooComplex: [`more than ${2 * settings.SVG_MAX_ELEMENTS} tags`] };
  }
  let tooLarge = '';
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
    let id: string | undefined;
    const references: string[] = [];
    for (const [name, value] of Object.entries(tag.attributes as Record<string, string>)) {
      const attribute = localName(name);
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      if (attribute === 'id') id = value.trim();
      if (attribute === 'href' && value.trim().startsWith('#') && !HREF_NOT_DRAWN.has(element)) references.push(value.trim().slice(1));
      for (const reference of urlReferences(value)) references.push(reference);
      // A base URL turns an internal-looking link ("#top") into one to another site.
      if (name === 'xml:base') problems.add('an xml:base attribute');
      if (attribute.startsWith('on')) problems.add(`an event handler attribute ${name}`);
      else if (REFERENCE_ATTRIBUTES.has(attribute) && !isInternalReference(value))
        problems.add(`an external reference ${name}="${value.slice(0, 60)}"`);
      else if (hasScriptUrl(value)) problems.add(`a script URL in ${name}`);
      else if (attribute === 'style' || /url\(/i.test(value)) for (const problem of cssProblems(value)) problems.add(problem);
      // The animated attribute's name may carry any prefix bound to the XLink namespace ("xl:href").
      if (ANIMATION_ELEMENTS.has(element) && attribute === 'attributename' && /^(href$|on|base$)/.test(localName(value.trim()))) {
        problems.add(`an animation of ${value.trim()}`);
      }
    }
    tree.openElement(id, references, element === 'use');
    if (tree.elements > settings.SVG_MAX_ELEMENTS) {
      tooLarge = `more than ${settings.SVG_MAX_ELEMENTS} elements`;
      throw new StopParsing();
    }
  });
  let attributes = 0;
  parser.on('opentagstart', () => (attributes = 0));
  parser.on('attribute', () => {
    attributes += 1;
    if (attributes > settings.SVG_MAX_ATTRIBUTES) {
      tooLarge = `an element with more than ${settings.SVG_MAX_ATTRIBUTES} attributes`;
      throw new StopParsing();
    }
  });
  parser.on('closetag', (tag) => {
    depth -= 1;
    tree.closeElement();
    if (localName(tag.name) === 'style') styleDepth -= 1;
  });
  const collectCss = (content: string) => {
    if (styleDepth > 0) css += content;
  };
  parser.on('text', collectCss);
  parser.on('cdata', collectCss);

  try {
    parser.write(text).close();
  } catch (error: unknown) {
    const costs = tree.costs();
    // Too large to read on: refused for that alone, whatever the rest would have shown.
    if (error instanceof StopParsing) return { isSvg: rootIsSvg, problems: [], costs, tooComplex: [tooLarge] };
    return { isSvg: false, problems: [], costs, tooComplex: [] };
  }
  for (const problem of cssProblems(css)) problems.add(problem);
  if (hasScriptUrl(css)) problems.add('a script URL in CSS');
  const costs = tree.costs();
  return { isSvg: rootIsSvg, problems: [...problems].slice(0, MAX_PROBLEMS), costs, tooComplex: costProblems(costs, settings) };
}

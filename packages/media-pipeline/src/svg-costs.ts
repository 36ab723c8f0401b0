import { z } from 'zod';

/**
 * How much drawing an SVG can ask for, read from its parsed tree without expanding any reference. A reference
 * (a `<use>`, a pattern or gradient that inherits another, `url(#id)` in fill, clip-path, mask, filter or
 * marker) draws the referenced element with everything inside it, and that may hold references of its own:
 * the instances multiply with each level.
 */
export interface SvgCosts {
  elements: number;
  /** `<use>` elements. */
  uses: number;
  /** The longest chain of references, each drawn inside the one before (1 for a `<use>` of a plain shape). */
  referenceDepth: number;
  /** Every element a renderer draws once every reference is expanded (saturates above 10^15). */
  instances: number;
  /** A reference that draws itself (directly, or through others, or an element inside itself). */
  cycle: boolean;
}

/** The limits an SVG's costs must stay within; docs/moderation.md says how they were set from real logos. */
export const svgEnv = z.object({
  /** Elements an SVG logo may have; parsing stops as soon as there are more. */
  SVG_MAX_ELEMENTS: z.coerce.number().int().positive().default(20_000),
  /** Attributes one element may have (the XML parser's time grows faster than their number). */
  SVG_MAX_ATTRIBUTES: z.coerce.number().int().positive().default(256),
  /** `<use>` elements an SVG logo may have. */
  SVG_MAX_USES: z.coerce.number().int().nonnegative().default(1_000),
  /** How deep references may nest (a `<use>` of a group that holds a `<use>` is 2). */
  SVG_MAX_REFERENCE_DEPTH: z.coerce.number().int().nonnegative().default(12),
  /** Elements drawn once every reference is expanded. */
  SVG_MAX_INSTANCES: z.coerce.number().int().positive().default(30_000),
  /** How long drawing one SVG (for moderation or a link preview) may take before it is stopped and refused. */
  SVG_RENDER_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
});
export type SvgSettings = z.infer<typeof svgEnv>;
export const DEFAULT_SVG_SETTINGS: SvgSettings = svgEnv.parse({});

const SATURATED = 1e15;

/**
 * The parsed tree, as the SVG policy records it while parsing: elements in document order, so an element's
 * descendants are the elements from its index to its `end`.
 */
export class SvgTree {
  /** Index just past each element's last descendant. */
  readonly end: number[] = [];
  /** The ids of the elements each element draws by reference. */
  readonly references: string[][] = [];
  readonly ids = new Map<string, number>();
  uses = 0;
  private readonly open: number[] = [];

  get elements(): number {
    return this.end.length;
  }

  openElement(id: string | undefined, references: string[], isUse: boolean): void {
    const index = this.end.length;
    this.end.push(index + 1);
    this.references.push(references);
    // The first element with an id is the one references find, as in browsers.
    if (id !== undefined && !this.ids.has(id)) this.ids.set(id, index);
    if (isUse) this.uses += 1;
    this.open.push(index);
  }

  closeElement(): void {
    const index = this.open.pop();
    if (index !== undefined) this.end[index] = this.end.length;
  }

  /**
   * The costs, in one pass over elements and references (each element's subtree is summed once, whoever
   * references it), with an explicit stack so that no nesting depth overflows the call stack.
   */
  costs(): SvgCosts {
    const count = this.elements;
    const end = this.end;
    const targets = this.references.map((ids) => ids.map((id) => this.ids.get(id) ?? -1).filter((target) => target >= 0));
    // Per element, its subtree drawn in full: how many elements, and the deepest reference chain inside it.
    const instances = new Float64Array(count);
    const depth = new Int32Array(count);
    const state = new Uint8Array(count); // 0 not seen, 1 on the current path, 2 done
    let cycle = false;
    const stack: number[] = [];
    const reach = (next: number) => {
      if (state[next] === 1) cycle = true;
      else if (state[next] === 0) stack.push(next);
    };
    const visit = (root: number) => {
      stack.push(root);
      while (stack.length > 0) {
        const index = stack[stack.length - 1]!;
        if (state[index] === 0) {
          state[index] = 1;
          for (let child = index + 1; child < end[index]!; child = end[child]!) reach(child);
          for (const target of targets[index]!) reach(target);
          continue;
        }
        stack.pop();
        if (state[index] === 2) continue;
        state[index] = 2;
        let total = 1;
        let deepest = 0;
        for (let child = index + 1; child < end[index]!; child = end[child]!) {
          total += instances[child]!;
          deepest = Math.max(deepest, depth[child]!);
        }
        for (const target of targets[index]!) {
          total += instances[target]!;
          deepest = Math.max(deepest, depth[target]! + 1);
        }
        instances[index] = Math.min(total, SATURATED);
        depth[index] = deepest;
      }
    };
    let total = 0;
    let deepest = 0;
    // The top-level elements (normally the root alone) in turn.
    for (let index = 0; index < count; index = end[index]!) {
      visit(index);
      total += instances[index]!;
      deepest = Math.max(deepest, depth[index]!);
    }
    return { elements: count, uses: this.uses, referenceDepth: deepest, instances: Math.min(total, SATURATED), cycle };
  }
}

/** What is over the limits, in words, or nothing. */
export function costProblems(costs: SvgCosts, settings: SvgSettings): string[] {
  const problems: string[] = [];
  if (costs.uses > settings.SVG_MAX_USES) problems.push(`${costs.uses} <use> elements (at most ${settings.SVG_MAX_USES})`);
  if (costs.cycle) problems.push('a reference that draws itself');
  if (costs.referenceDepth > settings.SVG_MAX_REFERENCE_DEPTH)
    problems.push(`references nested ${costs.referenceDepth} deep (at most ${settings.SVG_MAX_REFERENCE_DEPTH})`);
  if (costs.instances > settings.SVG_MAX_INSTANCES)
    problems.push(
      `${costs.instances >= SATURATED ? 'more than ' : ''}${costs.instances.toLocaleString('en-US')} elements to draw once references are expanded (at most ${settings.SVG_MAX_INSTANCES.toLocaleString('en-US')})`,
    );
  return problems;
}

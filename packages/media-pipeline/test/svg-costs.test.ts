import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { DEFAULT_SVG_SETTINGS, SvgRenderTimeout, SvgRenderer, SvgTooComplex, checkSvg, renderLinkPreview, type SvgSettings } from '../src';
import { nestedUseSvg } from './fixtures';

const XLINK = 'http://www.w3.org/1999/xlink';
const doc = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="${XLINK}" width="64" height="64">${body}</svg>`;

const settings = (overrides: Partial<SvgSettings>): SvgSettings => ({ ...DEFAULT_SVG_SETTINGS, ...overrides });

describe('SVG costs', () => {
  it('counts the instances of nested <use> without expanding them, and refuses 10^8 of them', () => {
    const verdict = checkSvg(nestedUseSvg(8).toString());
    expect(verdict.isSvg).toBe(true);
    expect(verdict.costs.uses).toBe(81);
    expect(verdict.costs.instances).toBeGreaterThan(1e8);
    expect(verdict.tooComplex.join('; ')).toMatch(/elements to draw once references are expanded \(at most 30,000\)/);
  });

  it('refuses 10^5 instances in a kilobyte', () => {
    const bomb = nestedUseSvg(5);
    expect(bomb.length).toBeLessThan(1500);
    expect(checkSvg(bomb.toString()).tooComplex).not.toEqual([]);
  });

  it('counts a <use> of a group of uses as the product, not the sum', () => {
    const { costs } = checkSvg(nestedUseSvg(2, 3).toString());
    // a0 and its rect: 2; a1 and 3 uses of a0: 1 + 3 × 3 = 10; a2 and 3 uses of a1: 1 + 3 × 11 = 34;
    // the root, defs, those three, and the top use of a2.
    expect(costs).toEqual({ elements: 13, uses: 7, referenceDepth: 3, instances: 1 + 1 + 2 + 10 + 34 + 35, cycle: false });
  });

  it('follows references whatever the prefix bound to the XLink namespace, and url(#id) references', () => {
    const viaPrefix = checkSvg(doc(`<g id="a"><rect/></g><use xmlns:xl="${XLINK}" xl:href="#a"/><rect fill="url(#a)"/>`));
    expect(viaPrefix.costs.referenceDepth).toBe(1);
    expect(viaPrefix.costs.instances).toBe(1 + 2 + 3 + 3);
  });

  it.each([
    ['a <use> of itself', doc('<use id="u" href="#u"/>')],
    ['a <use> of its own group', doc('<g id="g"><rect/><use href="#g"/></g>')],
    ['two groups using each other', doc('<g id="a"><use href="#b"/></g><g id="b"><use xlink:href="#a"/></g>')],
    ['a pattern filled with itself', doc('<pattern id="p"><rect fill="url(#p)"/></pattern><rect fill="url(#p)"/>')],
  ])('refuses a cycle: %s', (_, text) => {
    const verdict = checkSvg(text);
    expect(verdict.costs.cycle).toBe(true);
    expect(verdict.tooComplex).toContain('a reference that draws itself');
  });

  it('does not take a link or an animation target for a drawing', () => {
    const verdict = checkSvg(doc('<g id="top"><a href="#top"><rect id="r"/></a><animate href="#top" attributeName="opacity" to="0"/></g>'));
    expect(verdict.costs.cycle).toBe(false);
    expect(verdict.problems).toEqual([]);
  });

  it('stops parsing at the element limit', () => {
    const verdict = checkSvg(doc('<rect/>'.repeat(90)), settings({ SVG_MAX_ELEMENTS: 50 }));
    expect(verdict.isSvg).toBe(true);
    expect(verdict.costs.elements).toBe(51);
    expect(verdict.tooComplex).toEqual(['more than 50 elements']);
  });

  it('refuses more markup than the element limit allows without parsing it', () => {
    const verdict = checkSvg(doc('<!---->'.repeat(200)), settings({ SVG_MAX_ELEMENTS: 50 }));
    expect(verdict.tooComplex).toEqual(['more than 100 tags']);
  });

  it('stops parsing at the attribute limit', () => {
    const attributes = Array.from({ length: 5000 }, (_, index) => `data-a${index}="1"`).join(' ');
    const verdict = checkSvg(doc(`<rect ${attributes}/>`), settings({ SVG_MAX_ATTRIBUTES: 20 }));
    expect(verdict.tooComplex).toEqual(['an element with more than 20 attributes']);
  });

  it('holds the <use> count and the reference depth to their limits', () => {
    expect(checkSvg(doc('<rect id="r"/>' + '<use href="#r"/>'.repeat(11)), settings({ SVG_MAX_USES: 10 })).tooComplex).toEqual([
      '11 <use> elements (at most 10)',
    ]);
    expect(checkSvg(nestedUseSvg(3, 1).toString(), settings({ SVG_MAX_REFERENCE_DEPTH: 3 })).tooComplex).toEqual([
      'references nested 4 deep (at most 3)',
    ]);
  });

  it('does not overflow the call stack on deep nesting', () => {
    const verdict = checkSvg(doc(`${'<g>'.repeat(19_000)}<rect id="r"/>${'</g>'.repeat(19_000)}<use href="#r"/>`));
    expect(verdict.costs.elements).toBe(19_003);
    expect(verdict.tooComplex).toEqual([]);
  });
});

describe('the SVG policy, by namespace rather than prefix', () => {
  it.each([
    ['xl:href bound to XLink', `<a href="#x"><set xmlns:xl="${XLINK}" attributeName="xl:href" to="http://attacker.example/"/><rect/></a>`],
    ['xlink:href', '<a href="#x"><set attributeName="xlink:href" to="http://attacker.example/"/><rect/></a>'],
    ['plain href', '<a href="#x"><animate attributeName="href" values="#x;https://attacker.example/"/><rect/></a>'],
    ['an event handler with a prefix', '<rect><set attributeName="svg:onclick" to="alert(1)"/></rect>'],
    ['xml:base', '<a href="#x"><set attributeName="xml:base" to="https://attacker.example/"/><rect/></a>'],
  ])('refuses an animation of %s', (_, body) => {
    expect(checkSvg(doc(body)).problems.join('; ')).toMatch(/an animation of/);
  });

  it('refuses an external reference under any prefix bound to XLink', () => {
    expect(checkSvg(doc(`<use xmlns:xl="${XLINK}" xl:href="https://evil.example/s.svg#a"/>`)).problems.join('; ')).toMatch(
      /external reference xl:href/,
    );
  });

  it('refuses xml:base, which turns an internal link into an external one', () => {
    expect(checkSvg(doc('<a xml:base="https://evil.example/" href="#x"><rect/></a>')).problems).toContain('an xml:base attribute');
  });

  it('finds url() references in linear time, including unclosed ones', () => {
    const verdict = checkSvg(doc(`<rect style="${'url('.repeat(200_000)}"/>`));
    expect(verdict.problems.join('; ')).toMatch(/external reference url\(/);
  });
});

describe('real logos', () => {
  const folders = [
    join(__dirname, 'real-svgs'),
    join(__dirname, 'labelled', 'plain'),
    join(__dirname, '..', '..', '..', 'tests', 'fixtures'),
  ];
  const logos = folders.flatMap((folder) =>
    readdirSync(folder)
      .filter((name) => name.endsWith('.svg'))
      .map((name): [string, string] => [name, readFileSync(join(folder, name), 'utf8')]),
  );

  it('has the heaviest measured logos (docs/moderation.md)', () => {
    expect(logos.length).toBeGreaterThanOrEqual(29);
  });

  it.each(logos)('passes every check: %s', (_, text) => {
    const verdict = checkSvg(text);
    expect(verdict).toMatchObject({ isSvg: true, problems: [], tooComplex: [] });
  });
});

describe('SVG renderer', () => {
  // Each test starts a child process (TypeScript compiled on the fly by tsx here).
  jest.setTimeout(60_000);

  it('stops a drawing that runs past its time budget, and draws the next one in a new process', async () => {
    const renderer = new SvgRenderer(1500);
    // 13^5 (371,293) instances: within librsvg's own limit, and about twice the budget of its time on an idle
    // machine (3 s here), more on a busy one.
    const slow = nestedUseSvg(5, 13);
    await expect(renderer.fit({ svg: slow, side: 256 })).rejects.toBeInstanceOf(SvgRenderTimeout);
    const png = await renderer.fit({ svg: Buffer.from(doc('<rect width="64" height="64" fill="#36c"/>')), side: 128 });
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('draws an SVG no larger than the size it is used at, whatever size it declares', async () => {
    const renderer = new SvgRenderer(30_000);
    const declared = doc('<rect width="64" height="64"/>').replace(
      'width="64" height="64"',
      'width="4000" height="4000" viewBox="0 0 64 64"',
    );
    const inspected = await renderer.inspect({ svg: Buffer.from(declared), maxPixels: 25_000_000, side: 512 });
    expect(inspected).toMatchObject({ format: 'svg', width: 4000, height: 4000, preview: { width: 512, height: 512 } });
  });

  it('draws a link preview of an SVG logo, and refuses one over the limits with a 422 rather than drawing it', async () => {
    const logo = { data: Buffer.from(doc('<circle cx="32" cy="32" r="24" fill="#1e5ac8"/>')), isSvg: true, backdrop: 'light' as const };
    const preview = await renderLinkPreview([logo], 'Which one?');
    expect((await sharp(preview).metadata()).width).toBe(1200);
    const bomb = { data: nestedUseSvg(8), isSvg: true, backdrop: 'light' as const };
    const refusal = await renderLinkPreview([logo, bomb], 'Which one?').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SvgTooComplex);
    expect(refusal).toMatchObject({ status: 422, message: expect.stringMatching(/^A logo of this poll is too complex to draw safely/) });
  });
});

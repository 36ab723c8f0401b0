import { checkSvg } from '../src';

const doc = (body: string, rootAttributes = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"${rootAttributes}>${body}</svg>`;

describe('SVG policy', () => {
  it('accepts what logo tools export: gradients, internal references, styles, embedded rasters, a DTD reference', () => {
    const verdict = checkSvg(
      '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
        doc(
          '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><path id="p" d="M0 0h5v5z"/></defs>' +
            '<style>.a{fill:url(#g)} .b { stroke: #000 }</style><!-- Generator: tool -->' +
            '<rect class="a" width="10" height="10" style="fill: url(\'#g\')"/><use xlink:href="#p"/><use href="#p"/>' +
            '<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/><a href="#p"><text>Logo &amp; Co</text></a>',
        ),
    );
    expect(verdict).toMatchObject({ isSvg: true, problems: [], tooComplex: [] });
  });

  it.each([
    ['a script element', doc('<script>alert(1)</script>'), /<script>/],
    ['a namespaced script element', doc('<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>'), /<svg:script>/],
    ['an onload handler on the root', doc('<rect/>', ' onload="alert(1)"'), /event handler attribute onload/],
    ['an onclick handler in upper case', doc('<rect ONCLICK="alert(1)"/>'), /event handler attribute ONCLICK/],
    ['foreignObject', doc('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>'), /<foreignObject>/],
    ['an external image', doc('<image href="https://evil.example/track.png"/>'), /external reference href/],
    ['an external xlink:href', doc('<use xlink:href="other.svg#x"/>'), /external reference xlink:href/],
    ['a javascript: link', doc('<a href="javascript:alert(1)"><rect/></a>'), /external reference href/],
    ['a javascript: URL split by whitespace', doc('<rect filter="java&#x09;script:alert(1)"/>'), /script URL/],
    ['an embedded SVG document', doc('<image href="data:image/svg+xml;base64,PHN2Zz4="/>'), /external reference/],
    ['a CSS @import', doc('<style>@import url(https://evil.example/x.css);</style>'), /@import/],
    ['a CSS url() to elsewhere', doc('<rect style="fill: url(https://evil.example/p.svg#x)"/>'), /url\(https:\/\/evil/],
    ['a presentation attribute url() to elsewhere', doc('<rect fill="url(http://evil.example/#g)"/>'), /url\(http:\/\/evil/],
    ['CSS escapes', doc('<style>.a{background:\\75 rl(x)}</style>'), /escaped characters/],
    ['an animation that rewrites a link', doc('<a><set attributeName="href" to="javascript:alert(1)"/></a>'), /animation of href/],
    ['a stylesheet processing instruction', `<?xml-stylesheet href="https://evil.example/x.css"?>${doc('')}`, /processing instruction/],
    ['a DOCTYPE declaring entities', `<!DOCTYPE svg [<!ENTITY x "y">]>${doc('')}`, /DOCTYPE with entity declarations/],
    ['an iframe', doc('<iframe src="https://evil.example"/>'), /<iframe>/],
  ])('refuses %s', (_, text, problem) => {
    const verdict = checkSvg(text);
    expect(verdict.isSvg).toBe(true);
    expect(verdict.problems.join('; ')).toMatch(problem);
  });

  it('does not take other markup, or broken markup, for SVG', () => {
    expect(checkSvg('<html><body>hi</body></html>').isSvg).toBe(false);
    expect(checkSvg('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>').isSvg).toBe(false);
    expect(checkSvg(`<!DOCTYPE svg [<!ENTITY lol "lol">]>${doc('&lol;')}`).isSvg).toBe(false);
  });
});

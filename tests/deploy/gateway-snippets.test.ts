/**
 * The blocks the gateway's locations share (gateway/templates/snippets): plain files nothing renders, and the
 * security headers kept on every answer, since nginx drops the server block's add_header lines in a location
 * that adds headers of its own. Where each deployment puts them is checked by nginx -t in compose.test.ts,
 * helm.test.ts and gateway-main-config.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support';

const snippetsDir = join(repoRoot, 'gateway', 'templates', 'snippets');
const template = readFileSync(join(repoRoot, 'gateway', 'templates', 'default.conf.template'), 'utf8');

/** Each block of the template opened by `location ...` or `server`, by its opening line, with what it holds. */
function blocks(text: string): { opening: string; body: string }[] {
  const lines = text.split('\n').map((line) => line.replace(/#.*$/, '').trim());
  const found: { opening: string; body: string }[] = [];
  const open: { opening: string; body: string[]; depth: number }[] = [];
  let depth = 0;
  for (const line of lines) {
    // A one-line location ({ ... } on its line) is not read: none adds headers.
    const opens = (line.match(/\{/g) ?? []).length;
    const closes = (line.match(/\}/g) ?? []).length;
    for (const block of open) block.body.push(line);
    if (/^(location|server)\b/.test(line) && opens > closes) open.push({ opening: line, body: [], depth });
    depth += opens - closes;
    while (open.length > 0 && depth <= open[open.length - 1]!.depth) {
      const block = open.pop()!;
      found.push({ opening: block.opening, body: block.body.join('\n') });
    }
  }
  return found;
}

describe("the gateway's snippets", () => {
  it('are plain .conf files without placeholders: the image renders only *.template files, into conf.d', () => {
    const names = readdirSync(snippetsDir);
    expect(names.sort()).toEqual(['api-error-pages.conf', 'proxy-headers.conf', 'security-headers.conf']);
    for (const name of names) {
      expect({ name, placeholders: readFileSync(join(snippetsDir, name), 'utf8').match(/\$\{[A-Z0-9_]+\}/g) }).toEqual({
        name,
        placeholders: null,
      });
    }
  });

  it('are each included by the template', () => {
    for (const name of readdirSync(snippetsDir))
      expect({ name, included: template.includes(`include snippets/${name};`) }).toEqual({ name, included: true });
  });

  it('keep the security headers on every answer: each block that adds headers of its own includes them', () => {
    const withHeaders = blocks(template).filter(({ body }) => /^add_header /m.test(body));
    expect(withHeaders.length).toBeGreaterThan(1);
    for (const { opening, body } of withHeaders) {
      // A location's own add_header lines are in its body; a nested block's would show there too, and there is none.
      expect({ opening, includes: body.includes('include snippets/security-headers.conf;') }).toEqual({ opening, includes: true });
    }
  });
});

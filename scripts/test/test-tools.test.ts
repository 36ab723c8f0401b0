import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installerToolOf, type ToolName } from '@logovote/devstack';
import { TEST_TOOLS } from '../lib/test-tools';

const root = join(__dirname, '..', '..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.includes('node_modules'))
    .map((file) => join(root, dir, file));
}

describe('what `npm test` installs', () => {
  it("installs the tool of every binary the tests and the tiers they drive run: the cluster's beside the projects, every other before them", () => {
    const binaries = new Set<string>();
    for (const file of ['tests', 'scripts/lib', 'scripts/deploy'].flatMap(sourcesUnder)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/toolPath\('([a-z0-9_-]+)'\)/g)) binaries.add(match[1] ?? '');
    }
    expect(binaries.size).toBeGreaterThan(5);
    const installed = Object.values(TEST_TOOLS).flat();
    const missing = [...binaries].filter((binary) => !installed.includes(installerToolOf(binary as ToolName)));
    expect(missing).toEqual([]);
  });
});

describe('CI', () => {
  it("runs the README's two commands as a newcomer types them, with no install step of its own", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = firstBlock
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm install && npm start', 'npm test']);

    const ciLines = readFileSync(join(root, '.ci', 'run'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => !line.startsWith('#'));
    const npmCommands = ciLines.flatMap((line) => /^(?:setsid )?(npm [a-z:-]+)/.exec(line)?.[1] ?? []);
    expect(npmCommands).toEqual(['npm install', 'npm start', 'npm test']);
    expect(ciLines.join('\n')).not.toMatch(/infra:install|install-infra|npm ci/);
  });
});

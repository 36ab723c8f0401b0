/**
 * The readers the deployment checks rely on follow Docker's and Compose's rules, so a check that passes means
 * what Docker and Compose would do.
 */
import { interpolate, parseEnvFile, variablesIn } from '../../scripts/ci/compose';
import { imageMetadata, parseAssignments, parseDockerfile, parseHealthcheck, substitute } from '../../scripts/ci/dockerfile';
import { isIgnored, parseDockerignore } from '../../scripts/ci/dockerignore';
import { schemaFileName, standalone } from '../../scripts/ci/standalone-k8s-schemas';

describe('.dockerignore rules', () => {
  const rules = parseDockerignore('# comment\n**/node_modules\ndist\n*.log\n.env*\n!.env.example\ndocs/**/draft-?.md\n');

  it.each([
    ['node_modules/a/b.js', true],
    ['packages/ui/node_modules/x', true],
    ['dist/main.js', true],
    ['services/votes/dist/server.js', false], // "dist" alone is the context root's only
    ['error.log', true],
    ['logs/error.log', false], // "*" does not cross a slash
    ['.env', true],
    ['.env.local', true],
    ['.env.example', false], // the last matching line wins
    ['docs/a/b/draft-1.md', true],
    ['docs/draft-12.md', false],
  ])('%s ignored: %s', (path, ignored) => {
    expect(isIgnored(rules, path)).toBe(ignored);
  });
});

describe('compose interpolation', () => {
  const env = { SET: 'value', EMPTY: '' };

  it.each([
    ['${SET}', 'value'],
    ['$SET/x', 'value/x'],
    ['${UNSET:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${EMPTY-fallback}', ''],
    ['${SET:+alt}', 'alt'],
    ['${EMPTY+alt}', 'alt'],
    ['${UNSET+alt}', ''],
    ['$$SET', '$SET'],
    ['a ${SET} b ${UNSET}', 'a value b '],
  ])('%s gives "%s"', (text, expected) => {
    expect(interpolate(text, env)).toBe(expected);
  });

  it('fails on a required variable, with its message', () => {
    expect(() => interpolate('${EMPTY:?set it}', env)).toThrow('EMPTY: set it');
    expect(() => interpolate('${EMPTY?set it}', env)).not.toThrow();
    expect(() => interpolate('${UNSET?set it}', env)).toThrow('UNSET: set it');
  });

  it('lists the variables a string uses, not escaped ones', () => {
    expect(variablesIn('$A ${B:-x} $$C ${D:?e}')).toEqual(['A', 'B', 'D']);
  });

  it('reads .env files', () => {
    expect(parseEnvFile('# c\nA=1\nB = two words\nC="quoted"\n\nexport D=4\n')).toEqual({ A: '1', B: 'two words', C: 'quoted', D: '4' });
  });
});

describe('Dockerfile parsing', () => {
  const dockerfile = parseDockerfile(
    [
      '# syntax=docker/dockerfile:1',
      'ARG BASE=node:20.20-alpine',
      'FROM ${BASE} AS build',
      'WORKDIR /app',
      'RUN --mount=type=cache,target=/root/.npm npm install \\',
      '  # a comment inside the continuation is dropped',
      ' --omit=dev',
      'FROM build AS runtime',
      'ENV A=1 B="two words" PORT=8080',
      'USER node',
      'EXPOSE 8080/tcp',
      'HEALTHCHECK --interval=10s --start-period=1m CMD ["node", "-e", "0"]',
      'CMD node server.js',
    ].join('\n'),
  );

  it('splits stages and instructions, with flags and continuations', () => {
    expect(dockerfile.globalArgs.map((arg) => arg.args)).toEqual(['BASE=node:20.20-alpine']);
    expect(dockerfile.stages.map((stage) => [stage.from, stage.name])).toEqual([
      ['${BASE}', 'build'],
      ['build', 'runtime'],
    ]);
    const run = dockerfile.stages[0]!.instructions[1]!;
    expect(run.flags).toEqual({ mount: 'type=cache,target=/root/.npm' });
    expect(run.args).toBe('npm install  --omit=dev');
  });

  it('reads what the image declares, following FROM an earlier stage', () => {
    const image = imageMetadata(dockerfile);
    expect(image.baseImage).toBe('node:20.20-alpine');
    expect(image.env).toEqual({ A: '1', B: 'two words', PORT: '8080' });
    expect(image.user).toBe('node');
    expect(image.exposedPorts).toEqual([8080]);
    expect(image.cmd).toEqual(['/bin/sh', '-c', 'node server.js']);
    expect(image.healthcheck).toEqual({
      command: ['node', '-e', '0'],
      intervalMs: 10_000,
      timeoutMs: 30_000,
      startPeriodMs: 60_000,
      retries: 3,
    });
    expect(parseHealthcheck(dockerfile.stages[1]!.instructions.find((i) => i.keyword === 'HEALTHCHECK')!).retries).toBe(3);
  });

  it('substitutes variables as Docker does', () => {
    expect(substitute('${A}-$B-${C:-c}-${A:+set}', { A: 'a', B: 'b' })).toBe('a-b-c-set');
    expect(parseAssignments('PATH /usr/bin')).toEqual([['PATH', '/usr/bin']]);
  });
});

describe('Kubernetes schemas made standalone', () => {
  it('names files as kubeconform looks them up', () => {
    expect(schemaFileName('apps/v1', 'Deployment')).toBe('deployment-apps-v1.json');
    expect(schemaFileName('v1', 'Service')).toBe('service-v1.json');
    expect(schemaFileName('networking.k8s.io/v1', 'NetworkPolicy')).toBe('networkpolicy-networking-v1.json');
  });

  it('inlines the definitions a kind reaches, and only those', () => {
    const definitions = {
      'a.Spec': { type: 'object', description: 'dropped', properties: { item: { $ref: '#/$defs/a.Item' } } },
      'a.Item': { type: 'string' },
      'a.Unused': { type: 'number' },
    };
    const kind = { $id: 'https://kubernetes.io/x', properties: { spec: { $ref: '/api/_definitions.json#/$defs/a.Spec' } } };
    expect(standalone(kind, definitions)).toEqual({
      properties: { spec: { $ref: '#/$defs/a.Spec' } },
      $defs: { 'a.Item': { type: 'string' }, 'a.Spec': { type: 'object', properties: { item: { $ref: '#/$defs/a.Item' } } } },
    });
  });
});

/**
 * The readers the deployment checks rely on follow Docker's and Compose's rules, so a check that passes means
 * what Docker and Compose would do.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeBuilds, interpolate, parseEnvFile, variablesIn, type ComposeFile } from '../../scripts/ci/compose';
import {
  imageMetadata,
  parseAssignments,
  parseDockerfile,
  parseHealthcheck,
  stagesFor,
  substitute,
  unusedBuildArgs,
} from '../../scripts/ci/dockerfile';
import { isIgnored, parseDockerignore } from '../../scripts/ci/dockerignore';
import { buildImage, type BuildSession } from '../../scripts/ci/image-steps';
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

describe('compose build sections', () => {
  it('give the Dockerfile, target and build arguments docker build is told, in map or list form', () => {
    const compose = {
      services: {
        a: { build: { context: '.', target: 'service', args: { WORKSPACE: 'services/a', PORT: 4001, EMPTY: '', UNSET: null } } },
        b: { build: { context: 'sub', dockerfile: 'Other.Dockerfile', args: ['X=1', 'Y=a=b', 'FROM_ENV'] } },
        c: { build: 'ctx' },
        d: { image: 'nginx' },
      },
    } as unknown as ComposeFile;
    expect(composeBuilds(compose)).toEqual([
      {
        service: 'a',
        context: '.',
        dockerfile: 'Dockerfile',
        target: 'service',
        args: { WORKSPACE: 'services/a', PORT: '4001', EMPTY: '' },
      },
      { service: 'b', context: 'sub', dockerfile: 'Other.Dockerfile', target: undefined, args: { X: '1', Y: 'a=b' } },
      { service: 'c', context: 'ctx', dockerfile: 'Dockerfile', target: undefined, args: {} },
    ]);
  });
});

describe('Dockerfile targets and build arguments', () => {
  const dockerfile = parseDockerfile(
    [
      'ARG BASE=node:20.20-bookworm-slim',
      'ARG SMALL=node:20.20-alpine',
      'ARG SHARED=global',
      'FROM ${BASE} AS deps',
      'RUN npm ci',
      'FROM deps AS build',
      'ARG NAME',
      'RUN make "$NAME"',
      'FROM ${BASE} AS one',
      'ARG NAME',
      'ARG PORT=1000',
      'ARG SHARED',
      'LABEL title="app ${NAME}" shared=${SHARED}',
      'ENV PORT=${PORT}',
      'COPY --from=build /app/${NAME} ./${NAME}',
      'WORKDIR /app/${NAME}',
      'USER node',
      'EXPOSE ${PORT}',
      'FROM ${SMALL} AS two',
      'ARG SHARED=own',
      'ARG DERIVED=from-${SHARED}',
      'ENV SHARED=${SHARED} DERIVED=${DERIVED} PORT=${PORT}',
      'EXPOSE 80',
    ].join('\n'),
  );

  it('builds the stages a target needs: FROM and COPY --from, followed; without a target, the last stage', () => {
    expect(stagesFor(dockerfile, 'one', { NAME: 'x' })).toEqual([0, 1, 2]);
    expect(stagesFor(dockerfile, 'build')).toEqual([0, 1]);
    expect(stagesFor(dockerfile)).toEqual([3]);
    expect(() => stagesFor(dockerfile, 'missing')).toThrow('--target missing: no stage of that name');
  });

  it('reads the target with the build arguments, each ARG scoped to its stage', () => {
    const one = imageMetadata(dockerfile, { target: 'one', buildArgs: { NAME: 'votes', PORT: '4002' } });
    expect(one).toMatchObject({
      baseImage: 'node:20.20-bookworm-slim',
      labels: { title: 'app votes', shared: 'global' }, // ARG SHARED without a value takes the global one
      env: { PORT: '4002' },
      exposedPorts: [4002],
      workdir: '/app/votes',
      user: 'node',
      target: 2,
    });
    // Without the argument, the ARG's default; a build argument also overrides a global ARG (used in FROM).
    expect(imageMetadata(dockerfile, { target: 'one', buildArgs: { NAME: 'votes' } }).exposedPorts).toEqual([1000]);
    expect(imageMetadata(dockerfile, { target: 'one', buildArgs: { BASE: 'node:20.21-bookworm-slim' } }).baseImage).toBe(
      'node:20.21-bookworm-slim',
    );
    // The stage's own default wins over the global value, defaults see earlier ARGs, and an ARG of another
    // stage (PORT) is not in scope.
    expect(imageMetadata(dockerfile).env).toEqual({ SHARED: 'own', DERIVED: 'from-own', PORT: '' });
    expect(imageMetadata(dockerfile, { buildArgs: { SHARED: 'given' } }).env).toMatchObject({ SHARED: 'given', DERIVED: 'from-given' });
  });

  it('fails on an EXPOSE left without its port', () => {
    expect(() => imageMetadata(dockerfile, { target: 'one', buildArgs: { PORT: '' } })).toThrow('EXPOSE "" is no port');
  });

  it('names the build arguments no ARG of the build declares', () => {
    expect(unusedBuildArgs(dockerfile, 'one', { NAME: 'x', PORT: '1', BASE: 'node:20', HTTP_PROXY: 'http://proxy' })).toEqual([]);
    expect(unusedBuildArgs(dockerfile, 'two', { NAME: 'x', SHARED: 'y' })).toEqual(['NAME']);
  });
});

describe('image-steps: a target built with build arguments', () => {
  const base = `node:${process.versions.node.split('.')[0]}-bookworm-slim`;
  let session: BuildSession;
  const logs: string[] = [];

  beforeAll(() => {
    const contextDir = mkdtempSync(join(tmpdir(), 'logovote-image-steps-context-'));
    writeFileSync(join(contextDir, 'input.txt'), 'from the context\n');
    writeFileSync(
      join(contextDir, 'Dockerfile'),
      [
        `ARG BASE=${base}`,
        'FROM ${BASE} AS broken',
        'RUN exit 1',
        'FROM ${BASE} AS build',
        'WORKDIR /app',
        'COPY input.txt ./',
        'ARG NAME',
        'RUN mkdir -p "out/$NAME" && cat input.txt > "out/$NAME/input.txt" && printf %s "$NAME" > "out/$NAME/name.txt"',
        'FROM ${BASE} AS runtime',
        'ARG NAME',
        'ARG VERSION=dev',
        'LABEL version="${VERSION}" name="${NAME}"',
        'ENV NAME=${NAME}',
        'WORKDIR /srv/${NAME}',
        'COPY --from=build /app/out/${NAME} ./',
        'USER node',
        'CMD ["node", "-e", "0"]',
        'FROM broken AS last',
      ].join('\n'),
    );
    session = {
      contextDir,
      workDir: mkdtempSync(join(tmpdir(), 'logovote-image-steps-')),
      cache: new Map(),
      log: (line) => logs.push(line),
    };
  });

  afterAll(() => {
    rmSync(session.contextDir, { recursive: true, force: true });
    rmSync(session.workDir, { recursive: true, force: true });
  });

  it('runs only the stages the target needs, with the arguments in RUN, COPY, WORKDIR, LABEL and ENV', () => {
    const image = buildImage(session, { dockerfile: 'Dockerfile', target: 'runtime', buildArgs: { NAME: 'votes' } });
    expect(image.name).toBe('-f Dockerfile --target runtime --build-arg NAME=votes');
    expect(image.config).toMatchObject({
      workdir: '/srv/votes',
      user: 'node',
      env: { NAME: 'votes' },
      labels: { version: 'dev', name: 'votes' },
    });
    expect(readFileSync(join(image.rootfs, 'srv', 'votes', 'name.txt'), 'utf8')).toBe('votes');
    expect(readFileSync(join(image.rootfs, 'srv', 'votes', 'input.txt'), 'utf8')).toBe('from the context\n');
    expect(logs.some((line) => line.includes('[broken]'))).toBe(false);
  });

  it('reuses a stage built with the same arguments, and builds it again for others', () => {
    logs.length = 0;
    const again = buildImage(session, { dockerfile: 'Dockerfile', target: 'runtime', buildArgs: { NAME: 'votes' } });
    expect(logs.filter((line) => line.includes('reused'))).toHaveLength(2);
    const other = buildImage(session, { dockerfile: 'Dockerfile', target: 'runtime', buildArgs: { NAME: 'media', VERSION: '1.2.3' } });
    expect(other.rootfs).not.toBe(again.rootfs);
    expect(other.config.labels).toEqual({ version: '1.2.3', name: 'media' });
    expect(existsSync(join(other.rootfs, 'srv', 'media', 'name.txt'))).toBe(true);
  });

  it('refuses a build argument no ARG declares, and builds the last stage without a target', () => {
    expect(() => buildImage(session, { dockerfile: 'Dockerfile', target: 'runtime', buildArgs: { NAME: 'x', NAEM: 'y' } })).toThrow(
      'no ARG of the build declares NAEM',
    );
    expect(() => buildImage(session, { dockerfile: 'Dockerfile' })).toThrow(/\[broken\] line 3: RUN exit 1 failed/);
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

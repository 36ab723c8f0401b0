/**
 * The one Dockerfile, read for every image docker-compose.yml builds from it (its target and build arguments):
 * multi-stage, a runtime stage that starts from a base image (not from the build stage, so no compiler or dev
 * dependency ships), an unprivileged user, a HEALTHCHECK, OCI labels, pinned base images, exactly the lockfile
 * installed, the port the rest of the deployment expects; and a build context that leaves out what must never
 * reach an image.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeBuilds, interpolateCompose, parseEnvFile, readComposeRaw } from '../../scripts/ci/compose';
import {
  declareArgs,
  globalArgValues,
  imageMetadata,
  parseDockerfile,
  stagesFor,
  substitute,
  unusedBuildArgs,
  type Dockerfile,
  type Stage,
  type Vars,
} from '../../scripts/ci/dockerfile';
import { isIgnored, parseDockerignore } from '../../scripts/ci/dockerignore';
import { WORKSPACES, packageVersion, repoRoot } from './support';

const compose = interpolateCompose(
  readComposeRaw(join(repoRoot, 'docker-compose.yml')),
  parseEnvFile(readFileSync(join(repoRoot, '.env.example'), 'utf8')),
);
const builds = composeBuilds(compose);
const dockerfile: Dockerfile = parseDockerfile(readFileSync(join(repoRoot, 'Dockerfile'), 'utf8'));

/** The port each component listens on (README's process map). */
const PORTS: Record<string, number> = {
  'services/sessions': 4001,
  'services/votes': 4002,
  'services/media': 4003,
  'services/notify': 4004,
  'shells/web': 3000,
  'mfes/create': 3001,
  'mfes/vote': 3002,
  'mfes/results': 3003,
  'mfes/admin': 3004,
};

/** Every file named Dockerfile in the repository (installed dependencies, builds and local tooling aside). */
function dockerfilesInRepository(): string[] {
  const skip = new Set(['node_modules', 'dist', '.git', '.tools', '.run', '.data', 'coverage', 'test-results']);
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(repoRoot, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !skip.has(entry.name)) walk(path);
      else if (entry.isFile() && /(^|\.)Dockerfile$|^Dockerfile\./.test(entry.name)) found.push(path);
    }
  };
  walk('');
  return found.sort();
}

/** The RUN lines of a stage that install packages. */
const installs = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN' && /\bnpm (install|i|ci)\b/.test(i.args));

describe('Dockerfile', () => {
  it('is the only one, and compose builds every service and front end from it: its workspace, and a target per kind', () => {
    expect(dockerfilesInRepository()).toEqual(['Dockerfile']);
    expect(builds.map((build) => build.args.WORKSPACE).sort()).toEqual(Object.values(WORKSPACES).sort());
    for (const build of builds) {
      const workspace = build.args.WORKSPACE!;
      expect({ service: build.service, context: build.context, dockerfile: build.dockerfile, target: build.target }).toEqual({
        service: build.service,
        context: '.',
        dockerfile: 'Dockerfile',
        target: workspace.startsWith('services/') ? 'service' : 'static',
      });
    }
  });

  it('installs the whole workspace once for every image: in a stage no build argument reaches, from the lockfile', () => {
    const shared = dockerfile.stages.filter(
      (stage) => installs(stage).some((run) => !run.args.includes('--omit=dev')) && !stage.instructions.some((i) => i.keyword === 'ARG'),
    );
    expect(shared.map((stage) => stage.name)).toEqual(['deps']);
    for (const build of builds) {
      const needed = stagesFor(dockerfile, build.target, build.args).map((index) => dockerfile.stages[index]!.name);
      expect({ service: build.service, usesSharedInstall: needed.includes('deps') }).toEqual({
        service: build.service,
        usesSharedInstall: true,
      });
    }
  });

  it('installs exactly the lockfile (npm ci), with install scripts off', () => {
    const runs = dockerfile.stages.flatMap(installs).map((run) => run.args);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs)
      expect({ run, ci: /\bnpm ci\b/.test(run), ignoreScripts: run.includes('--ignore-scripts') }).toEqual({
        run,
        ci: true,
        ignoreScripts: true,
      });
  });

  describe.each(builds)('$service (--target $target)', (build) => {
    const { target, args } = build;
    const workspace = args.WORKSPACE!;
    const image = imageMetadata(dockerfile, { target, buildArgs: args });
    const needed = stagesFor(dockerfile, target, args);
    const globals = globalArgValues(dockerfile, args);

    it('is given its workspace, port and version, and no build argument the Dockerfile does not declare', () => {
      expect(unusedBuildArgs(dockerfile, target, args)).toEqual([]);
      expect({ WORKSPACE: args.WORKSPACE, PORT: args.PORT, VERSION: args.VERSION }).toEqual({
        WORKSPACE: workspace,
        PORT: String(PORTS[workspace]),
        VERSION: packageVersion(workspace),
      });
    });

    it('builds in stages and ships a runtime stage that starts from a base image', () => {
      expect(needed.length).toBeGreaterThanOrEqual(3);
      const last = dockerfile.stages[image.target]!;
      expect(dockerfile.stages.some((stage) => stage.name === substitute(last.from, globals))).toBe(false);
      // Installed dependencies reach it only from a production-only install: a stage whose installs (its own or
      // those of the stages it starts from) include development dependencies gives it no node_modules.
      const installsOf = (name: string): string[] => {
        const stage = dockerfile.stages.find((candidate) => candidate.name === name);
        if (!stage) return [];
        return [...installsOf(stage.from), ...installs(stage).map((i) => i.args)];
      };
      const stageArgs: Vars = {};
      for (const arg of last.instructions.filter((i) => i.keyword === 'ARG')) declareArgs(arg, stageArgs, args, globals);
      for (const copy of last.instructions.filter((i) => i.keyword === 'COPY' && i.flags.from)) {
        const withDevDependencies = installsOf(copy.flags.from!).some((install) => !install.includes('--omit=dev'));
        const sources = substitute(copy.args, stageArgs).split(/\s+/).slice(0, -1);
        const bringsModules = sources.some((source) => /node_modules\/?$/.test(source) || /^\/app\/?$/.test(source));
        expect({ copy: copy.args, devModules: withDevDependencies && bringsModules }).toEqual({ copy: copy.args, devModules: false });
      }
    });

    it('runs as an unprivileged user', () => {
      expect(image.user).toBeDefined();
      expect(['root', '0', '0:0']).not.toContain(image.user);
    });

    it('has a HEALTHCHECK and a CMD', () => {
      expect(image.healthcheck?.command.length).toBeGreaterThan(0);
      expect(image.cmd?.length).toBeGreaterThan(0);
    });

    it('is labelled with its title, description and version', () => {
      expect(image.labels).toEqual({
        'org.opencontainers.image.title': `LogoVote ${workspace}`,
        'org.opencontainers.image.description': expect.stringContaining(workspace),
        'org.opencontainers.image.version': packageVersion(workspace),
      });
    });

    it('pins its base images: glibc for a service (sharp), the small musl image for a static site', () => {
      const external = needed
        .map((index) => substitute(dockerfile.stages[index]!.from, globals))
        .filter((from) => !dockerfile.stages.some((stage) => stage.name === from));
      for (const from of external) expect(from).toMatch(/^node:\d+\.\d+-(bookworm-slim|alpine)$/);
      expect(image.baseImage).toMatch(target === 'service' ? /-bookworm-slim$/ : /-alpine$/);
    });

    it('listens on its documented port, on every interface', () => {
      expect(image.exposedPorts).toEqual([PORTS[workspace]]);
      expect(image.env.PORT).toBe(String(PORTS[workspace]));
      expect(image.env.HOST).toBe('0.0.0.0');
      expect(image.env.NODE_ENV).toBe('production');
    });

    if (target === 'static') {
      it("serves the shell's routes with the single-page-app fallback, and checks its health where it has it", () => {
        const shell = workspace.startsWith('shells/');
        expect({ HEALTH_PATH: image.env.HEALTH_PATH, SERVER_FLAGS: image.env.SERVER_FLAGS }).toEqual({
          HEALTH_PATH: shell ? '/' : '/mf-manifest.json',
          SERVER_FLAGS: shell ? '--spa' : '',
        });
      });
    }
  });

  it('keeps dependencies, builds, secrets, tooling and local data out of the build context', () => {
    const rules = parseDockerignore(readFileSync(join(repoRoot, '.dockerignore'), 'utf8'));
    for (const path of [
      'node_modules/x',
      'packages/ui/node_modules/x',
      'services/votes/dist/server.js',
      '.env',
      '.env.production',
      '.git/HEAD',
      '.run/test/1',
      '.tools/bin/helm',
    ]) {
      expect({ path, ignored: isIgnored(rules, path) }).toEqual({ path, ignored: true });
    }
    for (const path of [
      'package-lock.json',
      'services/votes/src/server.ts',
      'packages/static-server/src/cli.ts',
      'tsconfig.base.json',
      '.npmrc',
    ]) {
      expect({ path, ignored: isIgnored(rules, path) }).toEqual({ path, ignored: false });
    }
  });
});

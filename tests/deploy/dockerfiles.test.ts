/**
 * Every Dockerfile, read: multi-stage, a runtime stage that starts from a base image (not from the build stage,
 * so no compiler or dev dependency ships), an unprivileged user, a HEALTHCHECK, pinned base images, the port
 * the rest of the deployment expects; and a build context that leaves out what must never reach an image.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageMetadata, parseDockerfile } from '../../scripts/ci/dockerfile';
import { contextFiles, isIgnored, parseDockerignore } from '../../scripts/ci/dockerignore';
import { WORKSPACES, repoRoot } from './support';

const dockerfiles = contextFiles(repoRoot).filter((file) => file === 'Dockerfile' || file.endsWith('/Dockerfile'));

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

describe('Dockerfiles', () => {
  it('exist for every service and front end, and only there', () => {
    expect(dockerfiles).toEqual(
      Object.values(WORKSPACES)
        .map((workspace) => `${workspace}/Dockerfile`)
        .sort(),
    );
  });

  describe.each(dockerfiles)('%s', (dockerfile) => {
    const parsed = parseDockerfile(readFileSync(join(repoRoot, dockerfile), 'utf8'));
    const image = imageMetadata(parsed);
    const workspace = dockerfile.replace(/\/Dockerfile$/, '');

    it('builds in stages and ships a runtime stage that starts from a base image', () => {
      expect(image.stageCount).toBeGreaterThanOrEqual(3);
      const last = parsed.stages.at(-1)!;
      expect(parsed.stages.some((stage) => stage.name === last.from)).toBe(false);
      // Installed dependencies reach it only from a production-only install: a stage whose installs (its own or
      // those of the stages it starts from) include development dependencies gives it no node_modules.
      const installsOf = (name: string): string[] => {
        const stage = parsed.stages.find((candidate) => candidate.name === name);
        if (!stage) return [];
        const own = stage.instructions.filter((i) => i.keyword === 'RUN' && /\bnpm (install|ci)\b/.test(i.args)).map((i) => i.args);
        return [...installsOf(stage.from), ...own];
      };
      for (const copy of last.instructions.filter((i) => i.keyword === 'COPY' && i.flags.from)) {
        const withDevDependencies = installsOf(copy.flags.from!).some((install) => !install.includes('--omit=dev'));
        const sources = copy.args.split(/\s+/).slice(0, -1);
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

    it('pins its base images', () => {
      const args = Object.fromEntries(parsed.globalArgs.map((arg) => arg.args.split('=') as [string, string]));
      const external = parsed.stages
        .map((stage) => stage.from.replace(/\$\{(\w+)\}/g, (_, name: string) => args[name] ?? ''))
        .filter((from) => !parsed.stages.some((stage) => stage.name === from));
      for (const from of external) expect(from).toMatch(/^node:\d+\.\d+-(bookworm-slim|alpine)$/);
    });

    it('listens on its documented port, on every interface', () => {
      expect(image.exposedPorts).toEqual([PORTS[workspace]]);
      expect(image.env.PORT).toBe(String(PORTS[workspace]));
      expect(image.env.HOST).toBe('0.0.0.0');
      expect(image.env.NODE_ENV).toBe('production');
    });
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

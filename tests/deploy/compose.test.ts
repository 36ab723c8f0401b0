/**
 * docker-compose.yml as Docker's compose CLI reads it (`config`, with .env.example): the compose specification's
 * schema (shipped in tests/deploy/schemas), health-gated start order, one published port (the gateway's),
 * .env.example covering every variable, the secrets it must set, and the gateway given every value its template
 * needs. The images themselves, and the stack brought up, are tested by the compose project (tests/compose).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { readComposeConfig, type ComposeService } from '../../scripts/deploy/engine';
import { renderTemplate } from '../../scripts/lib/gateway-config';
import {
  REMOTES,
  SERVICES,
  WORKSPACES,
  composeVariables,
  gatewayPlaceholders,
  gatewaySnippets,
  nginxCheck,
  packageVersion,
  repoRoot,
} from './support';

const envExampleFile = join(repoRoot, '.env.example');
const compose = readComposeConfig(envExampleFile, { standIns: false });
const services = Object.entries(compose.services);

/** The compose service of each LogoVote component. */
const COMPONENT_SERVICES: Record<string, string> = {
  ...Object.fromEntries(SERVICES.map((name) => [name, name])),
  shell: 'shell',
  ...Object.fromEntries(REMOTES.map((name) => [name, `${name}-remote`])),
};

/** The port each component's image listens on (README's process map). */
const PORTS: Record<string, number> = {
  sessions: 4001,
  votes: 4002,
  media: 4003,
  notify: 4004,
  shell: 3000,
  'create-remote': 3001,
  'vote-remote': 3002,
  'results-remote': 3003,
  'admin-remote': 3004,
};

/** One-shot jobs: never restarted, and whoever depends on them waits for them to complete. */
function isOneShot(name: string, service: ComposeService): boolean {
  const dependents = services.filter(([, other]) => other.depends_on?.[name]);
  return (
    service.restart === 'no' && dependents.every(([, other]) => other.depends_on?.[name]?.condition === 'service_completed_successfully')
  );
}

const environmentOf = (service: ComposeService): Record<string, string> =>
  Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, value ?? '']));

describe('docker-compose.yml', () => {
  it('follows the compose specification', () => {
    const schema = JSON.parse(readFileSync(join(__dirname, 'schemas', 'compose-spec.json'), 'utf8')) as object;
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('uses only variables that .env.example lists, and .env.example lists none it does not use', () => {
    const used = new Set(Object.keys(composeVariables(envExampleFile)));
    const listed = readFileSync(envExampleFile, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z0-9_]+=/.test(line))
      .map((line) => line.slice(0, line.indexOf('=')));
    expect([...used].filter((name) => !listed.includes(name)).sort()).toEqual([]);
    expect(listed.filter((name) => !used.has(name))).toEqual([]);
  });

  it('publishes a port for the gateway only', () => {
    const publishing = services.filter(([, service]) => (service.ports ?? []).length > 0).map(([name]) => name);
    expect(publishing).toEqual(['gateway']);
  });

  it('gives every long-running container that is not built from the Dockerfile a healthcheck (the built ones have the image HEALTHCHECK)', () => {
    const missing = services
      .filter(([name, service]) => !isOneShot(name, service) && !service.build)
      .filter(([, service]) => !(service.healthcheck?.test && !service.healthcheck.disable))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('starts each container only once what it depends on is healthy (or, for a job, completed)', () => {
    for (const [name, service] of services) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const target = compose.services[dependency];
        expect({ name, dependency, exists: target !== undefined }).toEqual({ name, dependency, exists: true });
        const expected = isOneShot(dependency, target!) ? 'service_completed_successfully' : 'service_healthy';
        expect({ name, dependency, condition }).toEqual({ name, dependency, condition: expected });
      }
    }
  });

  it('builds every component from the one Dockerfile: its workspace, its kind of image, its port, its own version', () => {
    for (const [component, serviceName] of Object.entries(COMPONENT_SERVICES)) {
      const { build, image } = compose.services[serviceName]!;
      const workspace = WORKSPACES[component]!;
      expect({
        component,
        context: build?.context,
        dockerfile: build?.dockerfile,
        target: build?.target,
        workspace: build?.args?.WORKSPACE,
        port: build?.args?.PORT,
      }).toEqual({
        component,
        context: repoRoot,
        dockerfile: 'Dockerfile',
        target: workspace.startsWith('services/') ? 'service' : 'static',
        workspace,
        port: String(PORTS[serviceName]),
      });
      // .env.example's version of each component is the one in its package.json (and in its mf-manifest.json).
      const version = packageVersion(workspace);
      expect({ component, image }).toEqual({ component, image: expect.stringMatching(new RegExp(`:${version.replace(/\./g, '\\.')}$`)) });
      expect({ component, version: build?.args?.VERSION }).toEqual({ component, version });
    }
    expect(existsSync(join(repoRoot, 'Dockerfile'))).toBe(true);
  });

  it('keeps the stores off the network the gateway and the front ends are on', () => {
    const networks = (service: ComposeService) => Object.keys(service.networks ?? {});
    for (const store of ['mongodb', 'minio', 'maildev'])
      expect({ store, networks: networks(compose.services[store]!) }).toEqual({ store, networks: ['data'] });
    expect(networks(compose.services.gateway!)).toEqual(['edge']);
    expect(compose.networks?.data?.internal).toBe(true);
  });

  it('gives the gateway every value of its template, with upstreams at the containers and ports of the images', () => {
    const gateway = compose.services.gateway!;
    const environment = environmentOf(gateway);
    expect(gatewayPlaceholders().filter((name) => !(name in environment))).toEqual([]);
    const rendered = renderTemplate(readFileSync(join(repoRoot, 'gateway', 'templates', 'default.conf.template'), 'utf8'), environment);
    // The snippets the server block includes come with the mounted folder, beside the main nginx.conf.
    const check = nginxCheck([rendered], gatewaySnippets());
    expect(check.output).toContain('syntax is ok');
    expect(check.ok).toBe(true);
    const upstreams: Record<string, string> = {
      SESSIONS_UPSTREAM: 'sessions',
      VOTES_UPSTREAM: 'votes',
      MEDIA_UPSTREAM: 'media',
      NOTIFY_UPSTREAM: 'notify',
      SHELL_UPSTREAM: 'shell',
      ...Object.fromEntries(REMOTES.map((remote) => [`${remote.toUpperCase()}_REMOTE_UPSTREAM`, `${remote}-remote`])),
    };
    for (const [variable, serviceName] of Object.entries(upstreams)) {
      expect({ variable, value: environment[variable] }).toEqual({ variable, value: `${serviceName}:${PORTS[serviceName]}` });
      expect({ variable, waitsForIt: gateway.depends_on?.[serviceName]?.condition }).toEqual({ variable, waitsForIt: 'service_healthy' });
    }
    // The mounted template and entrypoint script are the repository's.
    expect((gateway.volumes ?? []).map(({ source, target, read_only }) => ({ source, target, read_only }))).toEqual([
      { source: join(repoRoot, 'gateway', 'templates'), target: '/etc/nginx/templates', read_only: true },
      {
        source: join(repoRoot, 'gateway', 'docker-entrypoint.d', '40-logovote-htpasswd.sh'),
        target: '/docker-entrypoint.d/40-logovote-htpasswd.sh',
        read_only: true,
      },
    ]);
  });

  it('refuses to start without the secrets .env must set', () => {
    const withoutSecret = join(mkdtempSync(join(tmpdir(), 'logovote-compose-env-')), '.env');
    writeFileSync(withoutSecret, readFileSync(envExampleFile, 'utf8').replace(/^CSRF_SECRET=.*$/m, ''));
    try {
      expect(() => readComposeConfig(withoutSecret, { standIns: false })).toThrow(
        'required variable CSRF_SECRET is missing a value: set CSRF_SECRET in .env',
      );
    } finally {
      rmSync(dirname(withoutSecret), { recursive: true, force: true });
    }
  });
});

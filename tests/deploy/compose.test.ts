/**
 * docker-compose.yml, checked without a Docker engine: the compose specification's schema (the one docker
 * compose validates with, shipped in tests/deploy/schemas), healthchecks and health-gated start order, one
 * published port (the gateway's), .env.example covering every variable, each service's environment accepted
 * by that service's own configuration, and the gateway given every value its template needs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { imageMetadata, parseDockerfile } from '../../scripts/ci/dockerfile';
import {
  composeBuilds,
  composeVariables,
  interpolateCompose,
  parseEnvFile,
  readComposeRaw,
  serviceEnvironment,
  type ComposeFile,
  type ComposeService,
} from '../../scripts/ci/compose';
import { renderTemplate } from '../../scripts/lib/gateway-config';
import {
  REMOTES,
  SERVICES,
  WORKSPACES,
  gatewayPlaceholders,
  inspectServices,
  loopbackDefaults,
  nginxCheck,
  packageVersion,
  repoRoot,
  type ServiceName,
} from './support';

const raw = readComposeRaw(join(repoRoot, 'docker-compose.yml'));
const envExample = parseEnvFile(readFileSync(join(repoRoot, '.env.example'), 'utf8'));
const compose: ComposeFile = interpolateCompose(raw, envExample);
const services = Object.entries(compose.services);

/** The compose service of each LogoVote component. */
const COMPONENT_SERVICES: Record<string, string> = {
  ...Object.fromEntries(SERVICES.map((name) => [name, name])),
  shell: 'shell',
  ...Object.fromEntries(REMOTES.map((name) => [name, `${name}-remote`])),
};

const builds = composeBuilds(compose);

/** What the image compose builds for a service declares: its Dockerfile read with its target and build arguments. */
function imageOf(service: ComposeService) {
  const build = builds.find((candidate) => compose.services[candidate.service] === service);
  if (!build) return undefined;
  const dockerfile = parseDockerfile(readFileSync(join(repoRoot, build.context, build.dockerfile), 'utf8'));
  return imageMetadata(dockerfile, { target: build.target, buildArgs: build.args });
}

/** One-shot jobs: never restarted, and whoever depends on them waits for them to complete. */
function isOneShot(name: string, service: ComposeService): boolean {
  const dependents = services.filter(([, other]) => other.depends_on?.[name]);
  return (
    service.restart === 'no' && dependents.every(([, other]) => other.depends_on?.[name]?.condition === 'service_completed_successfully')
  );
}

describe('docker-compose.yml', () => {
  it('follows the compose specification', () => {
    const schema = JSON.parse(readFileSync(join(__dirname, 'schemas', 'compose-spec.json'), 'utf8')) as object;
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('uses only variables that .env.example lists, and .env.example lists none it does not use', () => {
    const used = composeVariables(raw);
    expect([...used].filter((name) => !(name in envExample)).sort()).toEqual([]);
    expect(Object.keys(envExample).filter((name) => !used.has(name))).toEqual([]);
  });

  it('publishes a port for the gateway only', () => {
    const publishing = services.filter(([, service]) => (service.ports ?? []).length > 0).map(([name]) => name);
    expect(publishing).toEqual(['gateway']);
  });

  it('gives every long-running container a healthcheck (its own or its image HEALTHCHECK)', () => {
    const missing = services
      .filter(([name, service]) => !isOneShot(name, service))
      .filter(([, service]) => !(service.healthcheck?.test && !service.healthcheck.disable) && !imageOf(service)?.healthcheck)
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

  it('builds every component from the one Dockerfile: its workspace, its kind of image, its own version', () => {
    for (const [component, serviceName] of Object.entries(COMPONENT_SERVICES)) {
      const build = builds.find((candidate) => candidate.service === serviceName);
      const workspace = WORKSPACES[component]!;
      expect({
        component,
        context: build?.context,
        dockerfile: build?.dockerfile,
        target: build?.target,
        workspace: build?.args.WORKSPACE,
      }).toEqual({
        component,
        context: '.',
        dockerfile: 'Dockerfile',
        target: workspace.startsWith('services/') ? 'service' : 'static',
        workspace,
      });
      // .env.example's version of each component is the one in its package.json (and in its mf-manifest.json).
      const version = packageVersion(workspace);
      expect({ component, image: compose.services[serviceName]!.image }).toEqual({
        component,
        image: expect.stringMatching(new RegExp(`:${version.replace(/\./g, '\\.')}$`)),
      });
      expect({ component, version: build?.args.VERSION }).toEqual({ component, version });
    }
    expect(existsSync(join(repoRoot, 'Dockerfile'))).toBe(true);
  });

  it('keeps the stores off the network the gateway and the front ends are on', () => {
    const networks = (service: ComposeService) =>
      Array.isArray(service.networks) ? service.networks : Object.keys(service.networks ?? {});
    for (const store of ['mongodb', 'minio', 'maildev'])
      expect({ store, networks: networks(compose.services[store]!) }).toEqual({ store, networks: ['data'] });
    expect(networks(compose.services.gateway!)).toEqual(['edge']);
    expect((compose.networks as Record<string, { internal?: boolean }>).data?.internal).toBe(true);
  });

  describe('each service environment, as the service reads it', () => {
    const environments = Object.fromEntries(
      SERVICES.map((name) => [name, { ...imageOf(compose.services[name]!)!.env, ...serviceEnvironment(compose.services[name]!) }]),
    ) as Record<ServiceName, Record<string, string>>;
    let reports: ReturnType<typeof inspectServices>;
    beforeAll(() => {
      reports = inspectServices(environments);
    });

    it.each(SERVICES)('gives %s what its configuration requires, nothing it does not read, and no loopback default', (name) => {
      const service = compose.services[name]!;
      const environment = environments[name];
      const report = reports[name];
      expect({ service: name, error: report.error }).toEqual({ service: name, error: null });
      const unread = Object.keys(serviceEnvironment(service)).filter((key) => !report.read.includes(key));
      expect({ service: name, unread }).toEqual({ service: name, unread: [] });
      expect({ service: name, loopbackDefaults: loopbackDefaults(report.config!, environment) }).toEqual({
        service: name,
        loopbackDefaults: [],
      });
    });
  });

  it('gives the gateway every value of its template, with upstreams at the containers and ports of the images', () => {
    const gateway = compose.services.gateway!;
    const environment = serviceEnvironment(gateway);
    expect(gatewayPlaceholders().filter((name) => !(name in environment))).toEqual([]);
    const rendered = renderTemplate(readFileSync(join(repoRoot, 'gateway', 'templates', 'default.conf.template'), 'utf8'), environment);
    const check = nginxCheck([rendered]);
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
      const port = imageOf(compose.services[serviceName]!)!.exposedPorts[0];
      expect({ variable, value: environment[variable] }).toEqual({ variable, value: `${serviceName}:${port}` });
      expect({ variable, waitsForIt: gateway.depends_on?.[serviceName]?.condition }).toEqual({ variable, waitsForIt: 'service_healthy' });
    }
    // The mounted template and entrypoint script are the repository's.
    const mounts = (gateway.volumes as string[]).map((volume) => volume.split(':')[0]!);
    for (const mount of mounts) expect(existsSync(join(repoRoot, mount))).toBe(true);
    expect(mounts).toEqual(['./gateway/templates', './gateway/docker-entrypoint.d/40-logovote-htpasswd.sh']);
  });

  it('refuses to start without the secrets .env must set', () => {
    const { CSRF_SECRET: _csrf, ...withoutSecret } = envExample;
    expect(() => interpolateCompose(raw, withoutSecret)).toThrow('CSRF_SECRET: set CSRF_SECRET in .env');
  });
});

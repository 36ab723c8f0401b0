/**
 * charts/logovote, checked without a cluster: helm lint, the rendered manifests against the Kubernetes schemas
 * (kubeconform -strict, offline, with the schemas shipped in tests/deploy/schemas), and what the rendering must
 * say: a Deployment and Service per component with probes and resources, the gateway's configuration from the
 * repository's template, the secrets, the autoscaler on the vote path, the network policy, each service's
 * environment as its configuration reads it, and a remote upgraded alone.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { renderTemplate } from '../../scripts/lib/gateway-config';
import {
  KUBERNETES_VERSION,
  REMOTES,
  SERVICES,
  WORKSPACES,
  chartDir,
  gatewayPlaceholders,
  gatewaySnippets,
  helmTemplate,
  inspectServices,
  loopbackDefaults,
  nginxCheck,
  packageVersion,
  repoRoot,
  tool,
  type Manifest,
  type ServiceName,
} from './support';

const VALUES_FILES = ['ci/external-services-values.yaml', 'ci/existing-secret-values.yaml'];
const FRONTENDS = ['shell', ...REMOTES.map((remote) => `remote-${remote}`)];

interface Container {
  name: string;
  image: string;
  env?: {
    name: string;
    value?: string;
    valueFrom?: { configMapKeyRef?: { name: string; key: string }; secretKeyRef?: { name: string; key: string } };
  }[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: { httpGet?: { path: string; port: string } };
  livenessProbe?: { httpGet?: { path: string; port: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
type Deployment = Manifest & {
  spec: {
    replicas?: number;
    template: {
      metadata: { labels: Record<string, string> };
      spec: { containers: Container[]; volumes?: { name: string; configMap?: { items?: { key: string; path: string }[] } }[] };
    };
  };
};

/** The rendered object of that kind and name, typed as the caller reads it. */
function find<Shape = object>(manifests: Manifest[], kind: string, name: string): (Manifest & Shape) | undefined {
  return manifests.find((m) => m.kind === kind && m.metadata.name === name) as (Manifest & Shape) | undefined;
}
const deployment = (manifests: Manifest[], component: string) =>
  find(manifests, 'Deployment', `lv-logovote-${component}`) as Deployment | undefined;
const container = (manifests: Manifest[], component: string) => deployment(manifests, component)!.spec.template.spec.containers[0]!;

/** A container's environment with ConfigMap and Secret references resolved from the rendered objects. */
function resolvedEnv(manifests: Manifest[], c: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of c.env ?? []) {
    const fromMap = entry.valueFrom?.configMapKeyRef;
    const fromSecret = entry.valueFrom?.secretKeyRef;
    if (fromMap) env[entry.name] = find<{ data: Record<string, string> }>(manifests, 'ConfigMap', fromMap.name)!.data[fromMap.key]!;
    else if (fromSecret)
      env[entry.name] = find<{ stringData: Record<string, string> }>(manifests, 'Secret', fromSecret.name)!.stringData[fromSecret.key]!;
    else env[entry.name] = entry.value ?? '';
  }
  return env;
}

describe('helm chart', () => {
  it.each([undefined, ...VALUES_FILES])('passes helm lint --strict (values: %s)', (valuesFile) => {
    const args = ['lint', '--strict', chartDir];
    if (valuesFile) args.push('-f', join(chartDir, valuesFile));
    const result = spawnSync(tool('helm'), args, { encoding: 'utf8' });
    expect({ status: result.status, output: result.stdout.includes('0 chart(s) failed') ? 'ok' : result.stdout + result.stderr }).toEqual({
      status: 0,
      output: 'ok',
    });
  });

  it.each(VALUES_FILES)('renders only valid Kubernetes %s objects (kubeconform -strict, offline schemas)', (valuesFile) => {
    const { yaml } = helmTemplate(valuesFile);
    const schemaLocation = join(
      __dirname,
      'schemas',
      'kubernetes',
      '{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}',
      '{{ .ResourceKind }}{{ .KindSuffix }}.json',
    );
    const result = spawnSync(
      tool('kubeconform'),
      ['-strict', '-summary', '-output', 'text', '-kubernetes-version', KUBERNETES_VERSION, '-schema-location', schemaLocation, '-'],
      { input: yaml, encoding: 'utf8' },
    );
    expect(result.stdout + result.stderr).toMatch(/Invalid: 0, Errors: 0, Skipped: 0/);
    expect(result.status).toBe(0);
  });

  it('refuses to render without the external services and secrets, naming each', () => {
    const result = spawnSync(tool('helm'), ['template', 'lv', chartDir, '--kube-version', KUBERNETES_VERSION], { encoding: 'utf8' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/publicOrigin is required|mongodb\.uri is required|s3\.endpoint is required/);
  });

  it('rejects values the schema does not know', () => {
    const result = spawnSync(
      tool('helm'),
      ['lint', chartDir, '-f', join(chartDir, VALUES_FILES[0]!), '--set', 'remotes.vote.imageTag=1.0.0'],
      {
        encoding: 'utf8',
      },
    );
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain("additional properties 'imageTag' not allowed");
  });

  describe('rendered with external MongoDB, S3 and SMTP', () => {
    const { manifests } = helmTemplate(VALUES_FILES[0]);

    it('has a Deployment and a Service for every service, front end and the gateway, each with resources', () => {
      for (const component of [...SERVICES, ...FRONTENDS, 'gateway']) {
        const c = deployment(manifests, component) ? container(manifests, component) : undefined;
        expect({
          component,
          deployment: c !== undefined,
          service: find(manifests, 'Service', `lv-logovote-${component}`) !== undefined,
        }).toEqual({
          component,
          deployment: true,
          service: true,
        });
        expect({ component, requests: Object.keys(c!.resources?.requests ?? {}), limits: Object.keys(c!.resources?.limits ?? {}) }).toEqual(
          {
            component,
            requests: ['cpu', 'memory'],
            limits: ['cpu', 'memory'],
          },
        );
      }
    });

    it('probes the services on /readyz (ready) and /healthz (alive), the front ends and the gateway on a file they serve', () => {
      for (const service of SERVICES) {
        const c = container(manifests, service);
        expect({ service, ready: c.readinessProbe?.httpGet?.path, alive: c.livenessProbe?.httpGet?.path }).toEqual({
          service,
          ready: '/readyz',
          alive: '/healthz',
        });
      }
      expect(container(manifests, 'shell').readinessProbe?.httpGet?.path).toBe('/');
      for (const remote of REMOTES)
        expect(container(manifests, `remote-${remote}`).readinessProbe?.httpGet?.path).toBe('/mf-manifest.json');
      expect(container(manifests, 'gateway').livenessProbe?.httpGet?.path).toBe('/runtime-config.json');
    });

    it("runs each component's own version: image tags and version labels are the package.json versions", () => {
      const components: Record<string, string> = {
        ...Object.fromEntries(SERVICES.map((name) => [name, name])),
        shell: 'shell',
        ...Object.fromEntries(REMOTES.map((name) => [`remote-${name}`, name])),
      };
      for (const [component, workspaceKey] of Object.entries(components)) {
        const version = packageVersion(WORKSPACES[workspaceKey]!);
        const d = deployment(manifests, component)!;
        expect({
          component,
          image: container(manifests, component).image,
          label: d.spec.template.metadata.labels['app.kubernetes.io/version'],
        }).toEqual({
          component,
          image: expect.stringMatching(new RegExp(`:${version.replace(/\./g, '\\.')}$`)),
          label: version,
        });
      }
    });

    it("serves the gateway's configuration from the repository's template and entrypoint script, with every placeholder set", () => {
      const config = find<{ data: Record<string, string> }>(manifests, 'ConfigMap', 'lv-logovote-gateway')!;
      expect(config.data['default.conf.template']).toBe(
        readFileSync(join(repoRoot, 'gateway', 'templates', 'default.conf.template'), 'utf8').trimEnd(),
      );
      expect(config.data['40-logovote-htpasswd.sh']).toBe(
        readFileSync(join(repoRoot, 'gateway', 'docker-entrypoint.d', '40-logovote-htpasswd.sh'), 'utf8').trimEnd(),
      );
      const env = resolvedEnv(manifests, container(manifests, 'gateway'));
      expect(gatewayPlaceholders().filter((name) => !(name in env))).toEqual([]);
      // What the nginx image renders into conf.d at start (00-real-ip.conf first), accepted by nginx.
      const confFiles = Object.keys(config.data)
        .filter((key) => key.endsWith('.conf.template'))
        .sort()
        .map((key) => renderTemplate(config.data[key]!, env));
      expect(confFiles).toHaveLength(2);
      expect(confFiles[0]).toContain('set_real_ip_from 10.0.0.0/8;');
      // The snippets the server block includes: the repository's, mounted beside the main nginx.conf (the
      // templates volume's items), where nginx resolves their relative include paths.
      const templateItems =
        deployment(manifests, 'gateway')!.spec.template.spec.volumes?.find((volume) => volume.name === 'templates')?.configMap?.items ?? [];
      const snippets = Object.fromEntries(
        templateItems.filter((item) => item.path.startsWith('snippets/')).map((item) => [item.path, `${config.data[item.key]!}\n`]),
      );
      expect(snippets).toEqual(gatewaySnippets());
      const check = nginxCheck(confFiles, snippets);
      expect(check.output).toContain('syntax is ok');
      expect(check.ok).toBe(true);
      // Each upstream is the Service of that component, on the port its container listens on.
      for (const [variable, value] of Object.entries(env).filter(([name]) => name.endsWith('_UPSTREAM'))) {
        const [host, port] = value.split(':');
        const service = find<{ spec: { ports: { port: number }[] } }>(manifests, 'Service', host!);
        expect({ variable, port: service?.spec.ports[0]?.port }).toEqual({ variable, port: Number(port) });
      }
      expect(env.VOTE_MANIFEST_URL).toBe('/remotes/vote/mf-manifest.json');
    });

    it('keeps every credential in the Secret', () => {
      const secret = find<{ stringData: Record<string, string> }>(manifests, 'Secret', 'lv-logovote')!;
      expect(Object.keys(secret.stringData).sort()).toEqual(
        ['ADMIN_PASSWORD', 'ADMIN_USER', 'CSRF_SECRET', 'IP_HASH_SALT', 'MONGODB_URI', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'SMTP_URL'].sort(),
      );
      const settings = find<{ data: Record<string, string> }>(manifests, 'ConfigMap', 'lv-logovote-settings')!;
      expect(Object.values(settings.data).join(' ')).not.toMatch(/example-password|example-secret|example-smtp-password/);
    });

    it('autoscales the vote path (the votes service and the gateway)', () => {
      for (const component of ['votes', 'gateway']) {
        const hpa = find(manifests, 'HorizontalPodAutoscaler', `lv-logovote-${component}`) as
          { spec: { scaleTargetRef: { name: string } } } | undefined;
        expect({ component, target: hpa?.spec.scaleTargetRef.name }).toEqual({ component, target: `lv-logovote-${component}` });
        // The autoscaler owns the replica count.
        expect(deployment(manifests, component)!.spec.replicas).toBeUndefined();
      }
    });

    it('lets only the gateway reach the services and the front ends', () => {
      const policy = find(manifests, 'NetworkPolicy', 'lv-logovote-behind-gateway') as {
        spec: {
          podSelector: { matchExpressions: { key: string; values: string[] }[] };
          ingress: { from: { podSelector: { matchLabels: Record<string, string> } }[]; ports: { port: number }[] }[];
        };
      };
      const tiers = policy.spec.podSelector.matchExpressions.find((e) => e.key === 'logovote.io/tier')!.values;
      for (const component of [...SERVICES, ...FRONTENDS]) {
        const labels = deployment(manifests, component)!.spec.template.metadata.labels;
        expect({ component, selected: tiers.includes(labels['logovote.io/tier']!) }).toEqual({ component, selected: true });
      }
      expect(policy.spec.ingress).toHaveLength(1);
      expect(policy.spec.ingress[0]!.from).toEqual([
        {
          podSelector: {
            matchLabels: {
              'app.kubernetes.io/name': 'logovote',
              'app.kubernetes.io/instance': 'lv',
              'app.kubernetes.io/component': 'gateway',
            },
          },
        },
      ]);
      const ports = policy.spec.ingress[0]!.ports.map((p) => p.port).sort();
      const containerPorts = [...SERVICES, ...FRONTENDS]
        .map((component) => container(manifests, component).ports![0]!.containerPort)
        .sort();
      expect(ports).toEqual(containerPorts);
      expect(deployment(manifests, 'gateway')!.spec.template.metadata.labels['logovote.io/tier']).toBe('gateway');
    });

    it('routes the Ingress to the gateway only', () => {
      const ingress = find(manifests, 'Ingress', 'lv-logovote') as {
        spec: { rules: { host: string; http: { paths: { backend: { service: { name: string } } }[] } }[]; tls: { hosts: string[] }[] };
      };
      expect(ingress.spec.rules[0]!.host).toBe('vote.example.com');
      expect(ingress.spec.rules[0]!.http.paths.map((p) => p.backend.service.name)).toEqual(['lv-logovote-gateway']);
      expect(ingress.spec.tls[0]!.hosts).toEqual(['vote.example.com']);
    });

    describe('each service environment, as the service reads it', () => {
      const environments = Object.fromEntries(SERVICES.map((name) => [name, resolvedEnv(manifests, container(manifests, name))])) as Record<
        ServiceName,
        Record<string, string>
      >;
      let reports: ReturnType<typeof inspectServices>;
      beforeAll(() => {
        reports = inspectServices(environments);
      });

      it.each(SERVICES)('gives %s what its configuration requires, nothing it does not read, and no loopback default', (name) => {
        const report = reports[name];
        expect({ service: name, error: report.error }).toEqual({ service: name, error: null });
        const unread = Object.keys(environments[name]).filter((key) => !report.read.includes(key));
        expect({ service: name, unread }).toEqual({ service: name, unread: [] });
        expect({ service: name, loopbackDefaults: loopbackDefaults(report.config!, environments[name]) }).toEqual({
          service: name,
          loopbackDefaults: [],
        });
      });
    });
  });

  it('upgrades one remote alone: a new vote remote tag changes its Deployment and nothing else', () => {
    const before = helmTemplate(VALUES_FILES[0]).manifests;
    const after = helmTemplate(VALUES_FILES[0], ['remotes.vote.image.tag=0.2.0']).manifests;
    const changed = after
      .filter((manifest, index) => YAML.stringify(manifest) !== YAML.stringify(before[index]))
      .map((m) => `${m.kind}/${m.metadata.name}`);
    expect(changed).toEqual(['Deployment/lv-logovote-remote-vote']);
    expect(container(after, 'remote-vote').image).toBe('logovote/mfe-vote:0.2.0');
  });

  it('moves a remote by its manifest URL: only the gateway (which serves /runtime-config.json) changes', () => {
    const before = helmTemplate(VALUES_FILES[0]).manifests;
    const after = helmTemplate(VALUES_FILES[0], ['remotes.vote.manifestUrl=https://cdn.example.com/vote/0.2.0/mf-manifest.json']).manifests;
    const changed = after
      .filter((manifest, index) => YAML.stringify(manifest) !== YAML.stringify(before[index]))
      .map((m) => `${m.kind}/${m.metadata.name}`);
    expect(changed).toEqual(['Deployment/lv-logovote-gateway']);
    expect(resolvedEnv(after, container(after, 'gateway')).VOTE_MANIFEST_URL).toBe('https://cdn.example.com/vote/0.2.0/mf-manifest.json');
  });

  it('references an existing Secret instead of creating one', () => {
    const { manifests } = helmTemplate(VALUES_FILES[1]);
    expect(manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
    const refs = new Set(
      (container(manifests, 'sessions').env ?? []).flatMap((entry) =>
        entry.valueFrom?.secretKeyRef ? [entry.valueFrom.secretKeyRef.name] : [],
      ),
    );
    expect([...refs]).toEqual(['logovote-credentials']);
    expect(manifests.filter((m) => m.kind === 'Ingress')).toEqual([]);
  });

  it('ships the chart version in Chart.yaml and the product version as appVersion', () => {
    const chart = YAML.parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as { appVersion: string };
    expect(chart.appVersion).toBe(packageVersion('.'));
    expect(execFileSync(tool('helm'), ['show', 'chart', chartDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).toContain(
      'name: logovote',
    );
  });
});

/**
 * The gateway's main nginx configuration in production (gateway/templates/nginx.conf): compose and the Helm
 * chart start the official image's nginx with it instead of the image's own, whose 1 024 connections per worker
 * cannot hold the live results' 1 000 streams (two connections each, docs/live-results.md); nginx accepts it
 * with the gateway's rendered configuration in conf.d and the snippets it includes beside the main configuration.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readComposeConfig } from '../../scripts/deploy/engine';
import { renderTemplate } from '../../scripts/lib/gateway-config';
import { helmTemplate, repoRoot, tool, type Manifest } from './support';

const MAIN_CONFIG = '/etc/nginx/templates/nginx.conf';
const START = ['nginx', '-c', MAIN_CONFIG, '-g', 'daemon off;'];
const mainConfig = readFileSync(join(repoRoot, 'gateway', 'templates', 'nginx.conf'), 'utf8');
const compose = readComposeConfig(join(repoRoot, '.env.example'), { standIns: false });

const directive = (name: string) => Number(new RegExp(`^\\s*${name}\\s+(\\d+);`, 'm').exec(mainConfig)?.[1]);

describe("the gateway's main configuration", () => {
  it('allows two connections for each of 1 000 live streams and the rest of the traffic, with the descriptors to match', () => {
    expect(directive('worker_connections')).toBeGreaterThanOrEqual(4 * 1000);
    expect(directive('worker_rlimit_nofile')).toBeGreaterThanOrEqual(directive('worker_connections'));
    expect(mainConfig).toContain('include /etc/nginx/conf.d/*.conf;');
  });

  it('is what compose starts nginx with, from the mounted templates folder', () => {
    const gateway = compose.services.gateway!;
    expect(gateway.command).toEqual(START);
    expect(gateway.volumes).toContainEqual(
      expect.objectContaining({ source: join(repoRoot, 'gateway', 'templates'), target: '/etc/nginx/templates', read_only: true }),
    );
  });

  it('is what the Helm chart starts nginx with, from the gateway ConfigMap', () => {
    const { manifests } = helmTemplate('ci/external-services-values.yaml');
    const find = (kind: string, name: string) => manifests.find((m: Manifest) => m.kind === kind && m.metadata.name === name);
    const config = find('ConfigMap', 'lv-logovote-gateway') as unknown as { data: Record<string, string> };
    expect(config.data['nginx.conf']).toBe(mainConfig.trimEnd());
    const pod = (
      find('Deployment', 'lv-logovote-gateway') as unknown as {
        spec: {
          template: {
            spec: {
              containers: { args?: string[] }[];
              volumes: { name: string; configMap?: { items?: { key: string; path: string }[] } }[];
            };
          };
        };
      }
    ).spec.template.spec;
    expect(pod.containers[0]!.args).toEqual(START);
    expect(pod.volumes.find((volume) => volume.name === 'templates')?.configMap?.items).toContainEqual({
      key: 'nginx.conf',
      path: 'nginx.conf',
    });
  });

  it('is accepted by nginx with the rendered gateway configuration and the snippets of the mounted templates folder', () => {
    const prefix = mkdtempSync(join(tmpdir(), 'logovote-nginx-main-'));
    try {
      for (const dir of ['conf.d', 'tmp', 'logs']) mkdirSync(join(prefix, dir));
      // The mounted folder as the image sees it in /etc/nginx/templates: nginx.conf with snippets/ beside it.
      cpSync(join(repoRoot, 'gateway', 'templates'), join(prefix, 'templates'), { recursive: true });
      const environment = Object.fromEntries(
        Object.entries(compose.services.gateway!.environment ?? {}).map(([name, value]) => [name, String(value)]),
      );
      // Upstream host names resolve only inside compose's network: pointed at 127.0.0.1 for the check.
      const gateway = renderTemplate(
        readFileSync(join(repoRoot, 'gateway', 'templates', 'default.conf.template'), 'utf8'),
        environment,
      ).replace(/(\bserver\s+)(?![\d.]+:)[a-z0-9.-]+:(\d+)/g, '$1127.0.0.1:$2');
      writeFileSync(join(prefix, 'conf.d', 'default.conf'), gateway);
      // The image's paths, under the check's own folder (the temp paths first: that folder is under /tmp too).
      const main = mainConfig
        .replaceAll('/tmp/', `${prefix}/tmp/`)
        .replace('/etc/nginx/conf.d/', `${prefix}/conf.d/`)
        .replace('/var/log/nginx/error.log', `${prefix}/logs/error.log`);
      writeFileSync(join(prefix, 'templates', 'nginx.conf'), main);
      const result = spawnSync(tool('nginx'), ['-p', `${prefix}/`, '-c', join(prefix, 'templates', 'nginx.conf'), '-e', 'stderr', '-t'], {
        encoding: 'utf8',
      });
      const output = `${result.stdout}${result.stderr}`;
      expect(output).toContain('syntax is ok');
      expect({ status: result.status, output }).toEqual({ status: 0, output: expect.stringContaining('test is successful') });
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });
});

import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@logovote/devstack';

const gatewayTemplatesDir = join(repoRoot, 'gateway', 'templates');
export const gatewayTemplatePath = join(gatewayTemplatesDir, 'default.conf.template');

/**
 * Fills `${NAME}` placeholders the way the nginx image's envsubst step does in production, but
 * strictly: a placeholder without a value is an error rather than an empty string.
 */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`gateway template: no value for \${${name}}`);
    return value;
  });
}

/**
 * The gateway's limits that local stacks may leave to their defaults (README, "Gateway"): `npm start`'s values
 * unless its environment says otherwise. docker-compose.yml and the Helm chart set the same defaults themselves.
 */
export const GATEWAY_LIMIT_DEFAULTS = {
  API_RATE_LIMIT: '50r/s',
  API_RATE_BURST: '200',
  UPLOAD_CONNECTIONS_PER_ADDRESS: '4',
  ADMIN_LOGIN_FREE_FAILURES: '10',
  ADMIN_LOGIN_BACKOFF_SECONDS: '1',
  ADMIN_LOGIN_BACKOFF_MAX_SECONDS: '3600',
  PAGE_PART_TIMEOUT: '500ms',
} as const;

/** The gateway's limits from an environment: each variable it sets, else its default. */
export function gatewayLimits(env: NodeJS.ProcessEnv): Record<keyof typeof GATEWAY_LIMIT_DEFAULTS, string> {
  return Object.fromEntries(Object.entries(GATEWAY_LIMIT_DEFAULTS).map(([name, fallback]) => [name, env[name] ?? fallback])) as Record<
    keyof typeof GATEWAY_LIMIT_DEFAULTS,
    string
  >;
}

/** The gateway's server block: every placeholder from `values`, the limits it leaves out at their defaults. */
export function renderGatewayServerConfig(values: Record<string, string>): string {
  return renderTemplate(readFileSync(gatewayTemplatePath, 'utf8'), { ...GATEWAY_LIMIT_DEFAULTS, ...values });
}

/** A route a test harness adds to the gateway: requests under `prefix` go to 127.0.0.1:`port`. */
export interface HarnessRoute {
  prefix: string;
  port: number;
}

/**
 * The gateway's configuration with a harness's route (the bench's reference flow) added, proxied as the API's
 * locations are (same upstream keep-alive, error pages and rate limit), so it costs what an API route costs.
 */
export function withHarnessRoute(serverConfig: string, route: HarnessRoute): string {
  const upstream = `upstream harness { server 127.0.0.1:${route.port}; keepalive 32; }`;
  const location = `  location ${route.prefix}/ {
    include snippets/api-error-pages.conf;
    error_page 429 = @api_rate_limited;
    proxy_pass http://harness;
  }`;
  return `${upstream}\n${serverConfig.replace(/\}\s*$/, `${location}\n}\n`)}`;
}

/**
 * Puts the gateway's snippets (gateway/templates/snippets) into `confDir/snippets`, where `confDir` holds the main
 * nginx configuration: the server block includes them by a path relative to that folder, as in production, where
 * nginx.conf and snippets/ are both in /etc/nginx/templates.
 */
export function copyGatewaySnippets(confDir: string): void {
  cpSync(join(gatewayTemplatesDir, 'snippets'), join(confDir, 'snippets'), { recursive: true });
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@logovote/devstack';

export const gatewayTemplatePath = join(repoRoot, 'gateway', 'templates', 'default.conf.template');

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

export function renderGatewayServerConfig(values: Record<string, string>): string {
  return renderTemplate(readFileSync(gatewayTemplatePath, 'utf8'), values);
}

/**
 * Turns the strict Kubernetes JSON schemas of the PyPI package kubernetes-validate (one file per kind, with
 * references into a shared _definitions.json) into the standalone files kubeconform reads offline: each kind
 * with the definitions it reaches inlined under $defs, descriptions dropped. Run by update-schemas.sh:
 *   tsx scripts/ci/standalone-k8s-schemas.ts <local-strict dir> <out dir> <apiVersion/Kind>...
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** Kind files point into /api/_definitions.json; the definitions point at each other (#/$defs/...). */
const DEFINITIONS_REF = /^(?:\/api\/_definitions\.json)?#\/\$defs\/(.+)$/;

/** kubeconform's file name for a kind: <kind>-<first label of the group>-<version>, core kinds without a group. */
export function schemaFileName(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const groupLabel = group ? `-${group!.split('.')[0]}` : '';
  return `${kind.toLowerCase()}${groupLabel}-${version}.json`;
}

function rewrite(node: Json, reached: Set<string>): Json {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, reached));
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' && typeof value === 'string') continue;
    if (key === '$ref' && typeof value === 'string') {
      const name = DEFINITIONS_REF.exec(value)?.[1];
      if (!name) throw new Error(`unexpected reference ${value}`);
      reached.add(name);
      out[key] = `#/$defs/${name}`;
      continue;
    }
    out[key] = rewrite(value, reached);
  }
  return out;
}

export function standalone(kindSchema: Json, definitions: Record<string, Json>): Json {
  const reached = new Set<string>();
  const root = rewrite(kindSchema, reached) as { [key: string]: Json };
  delete root.$id;
  const defs: Record<string, Json> = {};
  const pending = [...reached];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in defs) continue;
    const definition = definitions[name];
    if (definition === undefined) throw new Error(`missing definition ${name}`);
    const before = new Set(reached);
    defs[name] = rewrite(definition, reached);
    for (const added of reached) if (!before.has(added)) pending.push(added);
  }
  const sorted = Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b)));
  return { ...root, $defs: sorted };
}

function main(): void {
  const [sourceDir, outDir, ...kinds] = process.argv.slice(2);
  if (!sourceDir || !outDir || kinds.length === 0) {
    process.stderr.write('usage: standalone-k8s-schemas.ts <local-strict dir> <out dir> <apiVersion/Kind>...\n');
    process.exit(2);
  }
  const definitions = (JSON.parse(readFileSync(join(sourceDir, '_definitions.json'), 'utf8')) as { $defs: Record<string, Json> }).$defs;
  for (const entry of kinds) {
    const slash = entry.lastIndexOf('/');
    const file = schemaFileName(entry.slice(0, slash), entry.slice(slash + 1));
    const schema = JSON.parse(readFileSync(join(sourceDir, file), 'utf8')) as Json;
    writeFileSync(join(outDir, file), `${JSON.stringify(standalone(schema, definitions), null, 2)}\n`);
    process.stdout.write(`${file}\n`);
  }
}

if (require.main === module) main();

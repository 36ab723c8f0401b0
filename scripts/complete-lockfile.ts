// Adds the platform packages (`@rspack/binding-darwin-arm64`, ...) that npm leaves out of
// package-lock.json when the registry it resolved against does not serve them: without those
// entries `npm ci` refuses the lockfile as out of sync. An entry made here carries the os/cpu/libc
// its name states and is optional, so npm skips it on every other platform without fetching it.
//
//   npx tsx scripts/complete-lockfile.ts          # complete package-lock.json in place
//   npx tsx scripts/complete-lockfile.ts --check  # exit 1 and list what is missing
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

const OS_NAMES = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32'];
const CPU_NAMES = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32'];

/** The os, cpu and libc a platform package's name states, e.g. `…-linux-arm-musleabihf`. */
export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> | undefined {
  const parts = name.slice(name.lastIndexOf('/') + 1).split('-');
  const os = parts.find((part) => OS_NAMES.includes(part));
  const cpu = parts.find((part) => CPU_NAMES.includes(part));
  if (!cpu) return undefined;
  const platform: Pick<LockEntry, 'os' | 'cpu' | 'libc'> = { cpu: [cpu] };
  if (os) platform.os = [os];
  if (os === 'linux') {
    platform.libc = [parts.some((part) => part.startsWith('musl')) ? 'musl' : 'glibc'];
  }
  return platform;
}

/** Where node would find `dependency` from the package at `from` (nested first, then hoisted). */
function resolveEntry(packages: Record<string, LockEntry>, from: string, dependency: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${dependency}`;
    if (candidate in packages) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut >= 0 ? base.slice(0, cut) : '';
  }
}

export function missingPlatformPackages(lock: { packages: Record<string, LockEntry> }) {
  const missing: { path: string; entry: LockEntry }[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const [dependency, version] of Object.entries(entry.optionalDependencies ?? {})) {
      if (resolveEntry(lock.packages, path, dependency)) continue;
      const platform = platformOf(dependency);
      if (!platform) continue;
      const at = path.startsWith('node_modules/') || path === '' ? '' : `${path}/`;
      missing.push({
        path: `${at}node_modules/${dependency}`,
        entry: { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform },
      });
    }
  }
  return missing;
}

function main() {
  const file = resolve(__dirname, '..', 'package-lock.json');
  const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, LockEntry> };
  const missing = missingPlatformPackages(lock);
  if (process.argv.includes('--check')) {
    for (const { path } of missing) process.stderr.write(`missing from package-lock.json: ${path}\n`);
    process.exit(missing.length ? 1 : 0);
  }
  for (const { path, entry } of missing) lock.packages[path] = entry;
  lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  process.stdout.write(`package-lock.json: added ${missing.length} platform package entries\n`);
}

if (require.main === module) main();

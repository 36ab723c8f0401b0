import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingPlatformPackages, platformOf } from '../complete-lockfile';

describe('package-lock.json', () => {
  it('lists every platform package its optional dependencies name, so `npm ci` accepts it', () => {
    const lock = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package-lock.json'), 'utf8'));
    expect(missingPlatformPackages(lock).map(({ path }) => path)).toEqual([]);
  });

  it("reads a platform package's os, cpu and libc from its name", () => {
    expect(platformOf('@rspack/binding-darwin-arm64')).toEqual({ os: ['darwin'], cpu: ['arm64'] });
    expect(platformOf('@unrs/resolver-binding-linux-arm-musleabihf')).toEqual({ os: ['linux'], cpu: ['arm'], libc: ['musl'] });
    expect(platformOf('@tailwindcss/oxide-linux-x64-gnu')).toEqual({ os: ['linux'], cpu: ['x64'], libc: ['glibc'] });
    expect(platformOf('@rspack/binding-wasm32-wasi')).toEqual({ cpu: ['wasm32'] });
    expect(platformOf('fsevents')).toBeUndefined();
  });

  it('completes a lockfile that lacks a platform package, marking it optional for its platform', () => {
    const lock = {
      packages: {
        '': {},
        'node_modules/tool': {
          version: '1.0.0',
          dev: true,
          optionalDependencies: { 'tool-win32-x64-msvc': '1.0.0', 'tool-linux-x64-gnu': '1.0.0' },
        },
        'node_modules/tool-linux-x64-gnu': { version: '1.0.0', optional: true },
      },
    };
    expect(missingPlatformPackages(lock)).toEqual([
      {
        path: 'node_modules/tool-win32-x64-msvc',
        entry: { version: '1.0.0', dev: true, optional: true, os: ['win32'], cpu: ['x64'] },
      },
    ]);
  });
});

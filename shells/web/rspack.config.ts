/// <reference types="node" />
import path from 'node:path';

import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { defineConfig } from '@rspack/cli';
import { CopyRspackPlugin, HtmlRspackPlugin, type Configuration } from '@rspack/core';

import { baseConfig, buildMode, chunkHoldsPackage, CompileHintPlugin, sharedModules } from '../../mfes/rspack.remote';

type SharedConfig = { singleton: boolean; requiredVersion: string | false; version?: string; eager?: boolean };

const projectDir = __dirname;

/**
 * Shared libraries every page's first screen runs on, in two kinds.
 * - React and React DOM's entry module are provided eagerly, inside the shell's entry script (small: React DOM's
 *   renderer is a chunk of its own, imported by bootstrap.tsx).
 * - The others have chunks of their own, which src/index.ts requests as soon as the entry script runs, together with
 *   the app's first module and the page's remote, so they take no extra round trip. (Resolved one after another
 *   instead, as each module first imports them, they would cost several in a row on a phone.) Out of the entry
 *   script, they are not part of its task: that script is compiled in full as it streams in (CompileHintPlugin),
 *   and its task then holds what runs at start-up (the Module Federation runtime's set-up, and zod for the runtime
 *   configuration's check), not also the compiled code of TanStack Query and tailwind-merge for later tasks.
 * Remotes share them as before: the shell's copies are the ones loaded first. The shell does not check their
 * versions against its own ranges: when it first loads them its own copies are the only ones registered (the
 * remote's entry arrives a round trip later), so the check could only compare the shell with itself, and it is the
 * runtime's most costly step on a phone (parsing version ranges, ~40 ms at Lighthouse's 4x CPU). Remotes still
 * check theirs.
 */
const EAGER_SHARED = new Set(['react', 'react-dom']);
const STARTUP_SHARED = new Set([
  ...EAGER_SHARED,
  '@tanstack/react-query',
  '@logovote/web-client',
  'clsx',
  'tailwind-merge',
  'class-variance-authority',
  '@radix-ui/react-slot',
]);

function shellSharedModules(): Record<string, SharedConfig> {
  const shared: Record<string, SharedConfig> = sharedModules(projectDir);
  return Object.fromEntries(
    Object.entries(shared).map(([name, config]) => [
      name,
      STARTUP_SHARED.has(name) ? { ...config, eager: EAGER_SHARED.has(name), requiredVersion: false } : config,
    ]),
  );
}

/** Dev servers of the remotes; `rspack serve` proxies /remotes/<name>/ to them, as the gateway does in production. */
const REMOTE_DEV_ORIGINS = {
  create: process.env.REMOTE_CREATE_ORIGIN ?? 'http://localhost:3001',
  vote: process.env.REMOTE_VOTE_ORIGIN ?? 'http://localhost:3002',
  results: process.env.REMOTE_RESULTS_ORIGIN ?? 'http://localhost:3003',
  admin: process.env.REMOTE_ADMIN_ORIGIN ?? 'http://localhost:3004',
};

/**
 * The page's first script, src/start.ts, which runs the entry script once the first paint's logo is on screen.
 * A compilation of its own: every entry of the shell's gets the Module Federation runtime and the eager shared
 * libraries (200 kB), this one needs none of them. After the shell's (which empties dist/), under a fixed
 * name that index.html names (revalidated like index.html: the static server caches only hashed names).
 */
function startScriptConfig(isDev: boolean): Configuration {
  const base = baseConfig({ projectDir, uniqueName: 'logovote_shell_start', publicPath: '/', isDev });
  return {
    ...base,
    name: 'start',
    dependencies: ['shell'],
    entry: { start: './src/start.ts' },
    output: { ...base.output, filename: 'start.js', clean: false },
  };
}

export default defineConfig((_env, argv): Configuration[] => {
  const isDev = buildMode(argv) === 'development';
  return [shellConfig(isDev), startScriptConfig(isDev)];
});

function shellConfig(isDev: boolean): Configuration {
  // The shell is always served at the site root; deep links (/vote/x) need absolute asset URLs.
  const base = baseConfig({ projectDir, uniqueName: 'logovote_shell', publicPath: '/', isDev });
  return {
    ...base,
    name: 'shell',
    entry: { main: './src/index.ts' },
    plugins: [
      ...(base.plugins ?? []),
      // index.html's `<!--# ... -->` comments are SSI directives the gateway fills in (nginx, see
      // gateway/templates/default.conf.template), so that what the route's first screen needs comes with the page
      // rather than one round trip after another: the runtime configuration, a preload of the route's remote
      // manifest, and a poll's data. Data is HTML-escaped (SSI echo's default), so it cannot end its <template>,
      // whose text gives it back as it was. Served any other way (the dev server) they stay comments and the
      // shell fetches what they would carry. Not minified: the minifier would drop them with the other comments.
      // The entry script is preloaded, and run by start.js (see startScriptConfig).
      new HtmlRspackPlugin({
        template: './index.html',
        minify: false,
        inject: false,
        templateParameters: (params) => ({ ...params, entryScript: entryScriptOf(params) }),
      }),
      // The entry script (the Module Federation runtime, set up as it runs) and React DOM's chunk: most of both
      // runs as the page starts. src/index.ts keeps the entry script's shorter task in Lighthouse's simulation.
      new CompileHintPlugin((chunk, compilation) => chunk.name === 'main' || chunkHoldsPackage(chunk, compilation, 'react-dom')),
      // Default /runtime-config.json: remotes behind the gateway at /remotes/<name>/. Deployments may override it.
      new CopyRspackPlugin({ patterns: [{ from: 'public', to: '.' }] }),
      new ModuleFederationPlugin({
        name: 'logovote_shell',
        // No remotes at build time: they are registered at run time from /runtime-config.json.
        remotes: {},
        shared: shellSharedModules(),
        shareStrategy: 'loaded-first',
        manifest: false,
        dts: false,
        // Hand the MF runtime to the remotes so each remoteEntry.js need not carry its own copy.
        // Browsers only: the runtime's Node.js code paths are left out.
        experiments: { provideExternalRuntime: true, optimization: { target: 'web' } },
      }),
    ],
    devServer: {
      port: Number(process.env.PORT ?? 3000),
      host: process.env.HOST ?? 'localhost',
      historyApiFallback: true,
      // public/ holds runtime-config.json pointing at /remotes/<name>/mf-manifest.json.
      static: { directory: path.join(projectDir, 'public'), publicPath: '/' },
      proxy: Object.entries(REMOTE_DEV_ORIGINS).map(([name, target]) => ({
        context: [`/remotes/${name}`],
        target,
        pathRewrite: { [`^/remotes/${name}`]: '' },
        changeOrigin: true,
      })),
      hot: false,
      liveReload: true,
    },
  };
}

/** The URL of the shell's entry script among the HTML plugin's template parameters. */
function entryScriptOf(params: Record<string, unknown>): string {
  const files = (params.htmlRspackPlugin as { files: { js: string[] } }).files.js;
  const entry = files.find((file) => /(^|\/)main\.[^/]*js$/.test(file));
  if (!entry || files.length !== 1) throw new Error(`The shell should have one entry script named main, not ${files.join(', ')}`);
  return entry;
}

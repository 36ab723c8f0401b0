/// <reference types="node" />
/**
 * The rspack configuration of the LogoVote front ends, in one place:
 * - what the shell (shells/web) and every remote have in common: browser targets, module rules,
 *   output naming, resolution and the Module Federation `shared` config (baseConfig, sharedModules);
 * - the factory each remote's own rspack.config.ts calls with its name, port and exposed screens
 *   (createRemoteConfig), so every remote still builds, serves and deploys on its own.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import type { Configuration } from '@rspack/core';
import tailwindcss from '@tailwindcss/postcss';

/** Browsers we build for: the Tailwind CSS v4 baseline. */
export const BROWSER_TARGETS = ['chrome >= 111', 'edge >= 111', 'firefox >= 128', 'safari >= 16.4'];

/** Libraries that must exist exactly once on the page (the shell provides them; remotes reuse them). */
const SINGLETONS = ['react', 'react-dom', '@tanstack/react-query'] as const;

/**
 * Workspace packages shared as singletons: one instance per page whichever build imports them.
 * @logovote/web-client holds page-wide state: the per-session anti-forgery tokens, the fingerprint
 * and the analytics queue. Its version comes from its own package.json, so a remote that does not
 * use it yet needs no dependency on it.
 */
const WORKSPACE_SINGLETONS = ['@logovote/web-client'] as const;

type PackageJson = { version?: string; dependencies?: Record<string, string> };

const readPackageJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
const caret = (version: string) => `^${version.replace(/^[\^~]/, '')}`;
const resolvePackageJson = (name: string, projectDir: string) =>
  readPackageJson(require.resolve(`${name}/package.json`, { paths: [projectDir] }));

/**
 * `shared` config for the MF plugin:
 * - react, react-dom, @tanstack/react-query: singletons, requiredVersion from the build's package.json;
 * - @logovote/web-client: singleton (see WORKSPACE_SINGLETONS);
 * - the third-party libraries of @logovote/ui (tailwind-merge, clsx, Radix primitives): shared but not
 *   singletons, so a remote reuses the copy the shell already loaded when the
 *   versions are compatible, else loads its own. (@logovote/ui itself is compiled into each build: its
 *   CSS classes must be generated per build anyway.)
 */
export function sharedModules(projectDir: string) {
  const pkg = readPackageJson(path.join(projectDir, 'package.json'));
  const singletons = SINGLETONS.map((name) => {
    const version = pkg.dependencies?.[name];
    if (!version) throw new Error(`${name} must be a dependency of ${projectDir}/package.json`);
    return [name, { singleton: true, requiredVersion: caret(version) }] as const;
  });
  const workspaceSingletons = WORKSPACE_SINGLETONS.map((name) => {
    const { version } = resolvePackageJson(name, projectDir);
    if (!version) throw new Error(`${name}/package.json has no version`);
    return [name, { singleton: true, requiredVersion: caret(version), version }] as const;
  });
  const uiKit = resolvePackageJson('@logovote/ui', projectDir);
  const uiLibraries = Object.entries(uiKit.dependencies ?? {}).map(
    ([name, version]) => [name, { singleton: false, requiredVersion: caret(version) }] as const,
  );
  return Object.fromEntries([...singletons, ...workspaceSingletons, ...uiLibraries]);
}

/** Module rules: TS/TSX through builtin:swc-loader, CSS through Tailwind v4. */
export function moduleRules(projectDir: string, isDev: boolean): NonNullable<Configuration['module']>['rules'] {
  return [
    {
      test: /\.tsx?$/,
      exclude: /[\\/]node_modules[\\/]/,
      loader: 'builtin:swc-loader',
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', development: isDev, refresh: false } },
        },
        env: { targets: BROWSER_TARGETS },
      },
      type: 'javascript/auto',
    },
    {
      test: /\.css$/,
      use: [
        {
          loader: 'postcss-loader',
          options: {
            postcssOptions: {
              // Tailwind lowers modern CSS for the targets in production; rspack's minimizer then minifies.
              plugins: [tailwindcss({ base: projectDir, optimize: isDev ? false : { minify: false } })],
            },
          },
        },
      ],
      type: 'css/auto',
    },
  ];
}

/** development or production, from `rspack --mode` or NODE_ENV. */
export function buildMode(argv: { mode?: string }): 'development' | 'production' {
  return argv.mode === 'development' || process.env.NODE_ENV === 'development' ? 'development' : 'production';
}

/**
 * Everything but entry, plugins and dev server: hashed file names in production, the TypeScript
 * source of the workspace packages, the module rules.
 */
export function baseConfig(options: { projectDir: string; uniqueName: string; publicPath: string; isDev: boolean }): Configuration {
  const { projectDir, uniqueName, publicPath, isDev } = options;
  const hashed = (ext: string) => (isDev ? `[name].${ext}` : `[name].[contenthash:10].${ext}`);
  return {
    mode: isDev ? 'development' : 'production',
    context: projectDir,
    target: ['web', 'es2022'],
    devtool: isDev ? 'cheap-module-source-map' : 'source-map',
    output: {
      path: path.join(projectDir, 'dist'),
      publicPath,
      uniqueName,
      filename: hashed('js'),
      chunkFilename: hashed('js'),
      cssFilename: hashed('css'),
      cssChunkFilename: hashed('css'),
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'],
      // Workspace packages (@logovote/*) export their TypeScript source under the `source` condition.
      conditionNames: ['source', '...'],
    },
    module: { rules: moduleRules(projectDir, isDev) },
    optimization: {
      // Readable, stable ids in dev; short deterministic ids in production.
      moduleIds: isDev ? 'named' : 'deterministic',
      chunkIds: isDev ? 'named' : 'deterministic',
    },
    performance: { hints: false },
  };
}

export type RemoteOptions = {
  /** Directory of the remote (its rspack.config.ts lives there). */
  projectDir: string;
  /** Module Federation container name, e.g. logovote_vote. */
  name: string;
  /** Default dev-server port (overridable with env PORT). */
  port: number;
  /** Exposed screens, e.g. { './VotePage': './src/VotePage.tsx' }. */
  exposes: Record<string, string>;
};

export function createRemoteConfig(options: RemoteOptions, argv: { mode?: string } = {}): Configuration {
  const isDev = buildMode(argv) === 'development';
  const { projectDir, name } = options;
  return {
    // Served under an unknown prefix (/remotes/<name>/ behind the gateway): resolve chunk URLs at run time.
    ...baseConfig({ projectDir, uniqueName: name, publicPath: 'auto', isDev }),
    entry: {},
    plugins: [
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes: options.exposes,
        shared: sharedModules(projectDir),
        shareStrategy: 'loaded-first',
        manifest: true,
        dts: false,
        // Use the MF runtime the shell provides (experiments.provideExternalRuntime there) instead of
        // bundling another copy into remoteEntry.js. Shell and remotes must pin the same MF version.
        experiments: { externalRuntime: true },
      }),
    ],
    devServer: {
      port: Number(process.env.PORT ?? options.port),
      host: process.env.HOST ?? 'localhost',
      // The shell's dev server proxies /remotes/<name>/ here; direct cross-origin use is allowed too.
      headers: { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' },
      hot: false,
      liveReload: false,
      client: false,
      historyApiFallback: false,
    },
  };
}

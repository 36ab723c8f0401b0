/// <reference types="node" />
/**
 * Shared rspack configuration factory for the LogoVote Module Federation remotes (mfes/*).
 * Each remote's own rspack.config.ts calls createRemoteConfig() with its name, port and exposed
 * screens, so every remote still builds, serves and deploys on its own.
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

type PackageJson = { dependencies?: Record<string, string> };

const readPackageJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
const caret = (version: string) => `^${version.replace(/^[\^~]/, '')}`;

/**
 * `shared` config for the MF plugin:
 * - react, react-dom, @tanstack/react-query: singletons, requiredVersion from the workspace's package.json;
 * - the third-party libraries of @logovote/ui (tailwind-merge, clsx, ...): shared but not singletons, so a
 *   remote reuses the copy the shell already loaded when the versions are compatible, else loads its own.
 *   (@logovote/ui itself is compiled into each build: its CSS classes must be generated per build anyway.)
 */
export function sharedModules(projectDir: string) {
  const pkg = readPackageJson(path.join(projectDir, 'package.json'));
  const singletons = SINGLETONS.map((name) => {
    const version = pkg.dependencies?.[name];
    if (!version) throw new Error(`${name} must be a dependency of ${projectDir}/package.json`);
    return [name, { singleton: true, requiredVersion: caret(version) }] as const;
  });
  const uiKit = readPackageJson(require.resolve('@logovote/ui/package.json', { paths: [projectDir] }));
  const uiLibraries = Object.entries(uiKit.dependencies ?? {}).map(
    ([name, version]) => [name, { singleton: false, requiredVersion: caret(version) }] as const,
  );
  return Object.fromEntries([...singletons, ...uiLibraries]);
}

/** Module rules shared by the shell and the remotes: TS/TSX through builtin:swc-loader, CSS through Tailwind v4. */
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
  const mode = argv.mode === 'development' || process.env.NODE_ENV === 'development' ? 'development' : 'production';
  const isDev = mode === 'development';
  const { projectDir, name } = options;
  return {
    mode,
    context: projectDir,
    target: ['web', 'es2022'],
    devtool: isDev ? 'cheap-module-source-map' : 'source-map',
    entry: {},
    output: {
      path: path.join(projectDir, 'dist'),
      // Served under an unknown prefix (/remotes/<name>/ behind the gateway): resolve chunk URLs at run time.
      publicPath: 'auto',
      uniqueName: name,
      filename: isDev ? '[name].js' : '[name].[contenthash:10].js',
      chunkFilename: isDev ? '[name].js' : '[name].[contenthash:10].js',
      cssFilename: isDev ? '[name].css' : '[name].[contenthash:10].css',
      cssChunkFilename: isDev ? '[name].css' : '[name].[contenthash:10].css',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'],
      // Workspace packages (@logovote/*) export their TypeScript source under the `source` condition.
      conditionNames: ['source', '...'],
    },
    module: { rules: moduleRules(projectDir, isDev) },
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
    optimization: {
      // Readable, stable ids in dev; short deterministic ids in production.
      moduleIds: isDev ? 'named' : 'deterministic',
      chunkIds: isDev ? 'named' : 'deterministic',
    },
    performance: { hints: false },
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

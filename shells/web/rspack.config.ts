/// <reference types="node" />
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { defineConfig } from '@rspack/cli';
import { CopyRspackPlugin, HtmlRspackPlugin, type Configuration } from '@rspack/core';
import tailwindcss from '@tailwindcss/postcss';

const projectDir = __dirname;

/** Browsers we build for: the Tailwind CSS v4 baseline. */
const BROWSER_TARGETS = ['chrome >= 111', 'edge >= 111', 'firefox >= 128', 'safari >= 16.4'];

/** Shared with every remote as singletons; the shell provides them. */
const SINGLETONS = ['react', 'react-dom', '@tanstack/react-query'] as const;

/** Dev servers of the remotes; `rspack serve` proxies /remotes/<name>/ to them, as the gateway does in production. */
const REMOTE_DEV_ORIGINS = {
  create: process.env.REMOTE_CREATE_ORIGIN ?? 'http://localhost:3001',
  vote: process.env.REMOTE_VOTE_ORIGIN ?? 'http://localhost:3002',
  results: process.env.REMOTE_RESULTS_ORIGIN ?? 'http://localhost:3003',
  admin: process.env.REMOTE_ADMIN_ORIGIN ?? 'http://localhost:3004',
};

type PackageJson = { dependencies?: Record<string, string> };
const readPackageJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
const caret = (version: string) => `^${version.replace(/^[\^~]/, '')}`;

/**
 * Singletons (react, react-dom, @tanstack/react-query) plus the third-party libraries of @logovote/ui
 * (shared, not singletons: remotes reuse the shell's copy when versions are compatible). Keep in step
 * with mfes/rspack.remote.ts.
 */
function sharedModules() {
  const pkg = readPackageJson(path.join(projectDir, 'package.json'));
  const singletons = SINGLETONS.map((name) => {
    const version = pkg.dependencies?.[name];
    if (!version) throw new Error(`${name} must be a dependency of shells/web/package.json`);
    return [name, { singleton: true, requiredVersion: caret(version) }] as const;
  });
  const uiKit = readPackageJson(require.resolve('@logovote/ui/package.json', { paths: [projectDir] }));
  const uiLibraries = Object.entries(uiKit.dependencies ?? {}).map(
    ([name, version]) => [name, { singleton: false, requiredVersion: caret(version) }] as const,
  );
  return Object.fromEntries([...singletons, ...uiLibraries]);
}

export default defineConfig((_env, argv): Configuration => {
  const mode = argv.mode === 'development' || process.env.NODE_ENV === 'development' ? 'development' : 'production';
  const isDev = mode === 'development';
  return {
    mode,
    context: projectDir,
    target: ['web', 'es2022'],
    devtool: isDev ? 'cheap-module-source-map' : 'source-map',
    entry: { main: './src/index.ts' },
    output: {
      path: path.join(projectDir, 'dist'),
      // The shell is always served at the site root; deep links (/vote/x) need absolute asset URLs.
      publicPath: '/',
      uniqueName: 'logovote_shell',
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
    module: {
      rules: [
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
      ],
    },
    plugins: [
      new HtmlRspackPlugin({ template: './index.html' }),
      // Default /runtime-config.json: remotes behind the gateway at /remotes/<name>/. Deployments may override it.
      new CopyRspackPlugin({ patterns: [{ from: 'public', to: '.' }] }),
      new ModuleFederationPlugin({
        name: 'logovote_shell',
        // No remotes at build time: they are registered at run time from /runtime-config.json.
        remotes: {},
        shared: sharedModules(),
        shareStrategy: 'loaded-first',
        manifest: false,
        dts: false,
        // Hand the MF runtime to the remotes so each remoteEntry.js need not carry its own copy.
        experiments: { provideExternalRuntime: true },
      }),
    ],
    optimization: {
      moduleIds: isDev ? 'named' : 'deterministic',
      chunkIds: isDev ? 'named' : 'deterministic',
    },
    performance: { hints: false },
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
});

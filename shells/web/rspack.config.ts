/// <reference types="node" />
import path from 'node:path';

import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { defineConfig } from '@rspack/cli';
import { CopyRspackPlugin, HtmlRspackPlugin, type Configuration, type RspackPluginInstance } from '@rspack/core';

import { baseConfig, buildMode, sharedModules } from '../../mfes/rspack.remote';

const projectDir = __dirname;

/** Dev servers of the remotes; `rspack serve` proxies /remotes/<name>/ to them, as the gateway does in production. */
const REMOTE_DEV_ORIGINS = {
  create: process.env.REMOTE_CREATE_ORIGIN ?? 'http://localhost:3001',
  vote: process.env.REMOTE_VOTE_ORIGIN ?? 'http://localhost:3002',
  results: process.env.REMOTE_RESULTS_ORIGIN ?? 'http://localhost:3003',
  admin: process.env.REMOTE_ADMIN_ORIGIN ?? 'http://localhost:3004',
};

/**
 * `<link rel="preload">` of /runtime-config.json in the page's head: the browser fetches it with the
 * page, so the remote's manifest can be requested as soon as the entry script runs (on a slow mobile
 * network that saves a whole round trip before the first screen).
 */
const preloadRuntimeConfig: RspackPluginInstance = {
  apply(compiler) {
    compiler.hooks.compilation.tap('PreloadRuntimeConfig', (compilation) => {
      HtmlRspackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap('PreloadRuntimeConfig', (data) => {
        data.headTags.unshift({
          tagName: 'link',
          attributes: { rel: 'preload', href: '/runtime-config.json', as: 'fetch', crossorigin: 'anonymous' },
          voidTag: true,
        });
        return data;
      });
    });
  },
};

export default defineConfig((_env, argv): Configuration => {
  const isDev = buildMode(argv) === 'development';
  // The shell is always served at the site root; deep links (/vote/x) need absolute asset URLs.
  const base = baseConfig({ projectDir, uniqueName: 'logovote_shell', publicPath: '/', isDev });
  return {
    ...base,
    entry: { main: './src/index.ts' },
    plugins: [
      ...(base.plugins ?? []),
      new HtmlRspackPlugin({ template: './index.html' }),
      preloadRuntimeConfig,
      // Default /runtime-config.json: remotes behind the gateway at /remotes/<name>/. Deployments may override it.
      new CopyRspackPlugin({ patterns: [{ from: 'public', to: '.' }] }),
      new ModuleFederationPlugin({
        name: 'logovote_shell',
        // No remotes at build time: they are registered at run time from /runtime-config.json.
        remotes: {},
        shared: sharedModules(projectDir),
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
});

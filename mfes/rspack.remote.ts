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
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import type { Chunk, Compilation, Compiler, Configuration, RspackPluginInstance } from '@rspack/core';
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

/** Text assets worth compressing (source maps are not served to visitors). */
const COMPRESSIBLE = /\.(?:js|mjs|css|json|html|svg)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli at its highest quality) and `<file>.gz` (gzip -9) beside every text
 * asset, so the static servers send the smallest encoding the browser accepts without compressing
 * anything per request (packages/static-server picks them; the gateway passes them through).
 * Brotli's highest quality is too slow to run on each request but costs a build only seconds.
 */
class PrecompressPlugin implements RspackPluginInstance {
  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'PrecompressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER }, () => {
        for (const asset of compilation.getAssets()) {
          if (!COMPRESSIBLE.test(asset.name)) continue;
          const bytes = asset.source.buffer();
          if (bytes.length < COMPRESS_MIN_BYTES) continue;
          const brotli = brotliCompressSync(bytes, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
          });
          compilation.emitAsset(`${asset.name}.br`, new sources.RawSource(brotli));
          compilation.emitAsset(`${asset.name}.gz`, new sources.RawSource(gzipSync(bytes, { level: 9 })));
        }
      });
    });
  }
}

/**
 * Chromium's explicit compile hint (`//# allFunctionsCalledOnLoad`) at the top of the scripts whose chunks
 * `isHinted` picks: V8 then compiles all their functions on a background thread while they download, instead
 * of each one on the page's main thread when it is first called. For scripts nearly all of which runs as the
 * page starts (the Module Federation runtime, React DOM, a remote's container), that takes the compiling out
 * of their start-up tasks: a few milliseconds each, which a phone's slower CPU makes long tasks. Added after
 * minification (the minifier drops comments) and before the content hash and the source map are made, so
 * both include it. Not rspack's BannerPlugin: it picks files by name, and React DOM's chunk has only a numeric id.
 */
export class CompileHintPlugin implements RspackPluginInstance {
  constructor(private readonly isHinted: (chunk: Chunk, compilation: Compilation) => boolean) {}

  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('CompileHintPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'CompileHintPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1 }, () => {
        for (const chunk of compilation.chunks) {
          if (!this.isHinted(chunk, compilation)) continue;
          for (const file of chunk.files) {
            if (!file.endsWith('.js')) continue;
            compilation.updateAsset(file, (source) => new sources.ConcatSource('//# allFunctionsCalledOnLoad\n', source));
          }
        }
      });
    });
  }
}

/** Whether `chunk` holds a module of the npm package `name`. */
export function chunkHoldsPackage(chunk: Chunk, compilation: Compilation, name: string): boolean {
  const packageDir = `${path.sep}node_modules${path.sep}${name}${path.sep}`;
  return compilation.chunkGraph.getChunkModules(chunk).some((module) => module.identifier().includes(packageDir));
}

/** development or production, from `rspack --mode` or NODE_ENV. */
export function buildMode(argv: { mode?: string }): 'development' | 'production' {
  return argv.mode === 'development' || process.env.NODE_ENV === 'development' ? 'development' : 'production';
}

/**
 * Everything but entry, Module Federation and dev server: hashed file names in production, the
 * TypeScript source of the workspace packages, the module rules, precompressed assets in production.
 * Callers add their plugins after `plugins`.
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
    plugins: isDev ? [] : [new PrecompressPlugin()],
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
  /**
   * Markup of the screen's first paint, served as first-paint.html: the gateway writes it into the
   * page's HTML (SSI), so the screen's largest element shows before any script has run. Inline styles
   * only (no stylesheet has loaded by then); the screen replaces it when it renders.
   */
  firstPaintHtml?: string;
};

/** Emits `html` as first-paint.html. */
function firstPaintAsset(html: string): RspackPluginInstance {
  return {
    apply(compiler: Compiler) {
      const { Compilation, sources } = compiler.webpack;
      compiler.hooks.thisCompilation.tap('FirstPaint', (compilation) => {
        compilation.hooks.processAssets.tap({ name: 'FirstPaint', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
          compilation.emitAsset('first-paint.html', new sources.RawSource(html));
        });
      });
    },
  };
}

export function createRemoteConfig(options: RemoteOptions, argv: { mode?: string } = {}): Configuration {
  const isDev = buildMode(argv) === 'development';
  const { projectDir, name } = options;
  // Served under an unknown prefix (/remotes/<name>/ behind the gateway): resolve chunk URLs at run time.
  const base = baseConfig({ projectDir, uniqueName: name, publicPath: 'auto', isDev });
  return {
    ...base,
    entry: {},
    plugins: [
      ...(base.plugins ?? []),
      ...(options.firstPaintHtml ? [firstPaintAsset(options.firstPaintHtml)] : []),
      // The container's start-up (registering its shared modules and screens) runs as soon as it arrives.
      new CompileHintPlugin((chunk) => chunk.files.has('remoteEntry.js')),
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
        // Browsers only: the runtime's Node.js code paths are left out.
        experiments: { externalRuntime: true, optimization: { target: 'web' } },
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

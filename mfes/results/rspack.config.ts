/// <reference types="node" />
import { defineConfig } from '@rspack/cli';

import { createRemoteConfig } from '../rspack.remote';

export default defineConfig((_env, argv) =>
  createRemoteConfig(
    {
      projectDir: __dirname,
      name: 'logovote_results',
      port: 3003,
      exposes: { './ResultsPage': './src/ResultsPage.tsx' },
    },
    argv,
  ),
);

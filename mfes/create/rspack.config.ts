/// <reference types="node" />
import { defineConfig } from '@rspack/cli';

import { createRemoteConfig } from '../rspack.remote';

export default defineConfig((_env, argv) =>
  createRemoteConfig(
    {
      projectDir: __dirname,
      name: 'logovote_create',
      port: 3001,
      exposes: { './LandingPage': './src/LandingPage.tsx' },
    },
    argv,
  ),
);

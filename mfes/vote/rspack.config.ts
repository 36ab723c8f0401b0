/// <reference types="node" />
import { defineConfig } from '@rspack/cli';

import { createRemoteConfig } from '../rspack.remote';

export default defineConfig((_env, argv) =>
  createRemoteConfig(
    {
      projectDir: __dirname,
      name: 'logovote_vote',
      port: 3002,
      exposes: { './VotePage': './src/VotePage.tsx' },
    },
    argv,
  ),
);

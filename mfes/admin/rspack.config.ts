/// <reference types="node" />
import { defineConfig } from '@rspack/cli';

import { createRemoteConfig } from '../rspack.remote';

export default defineConfig((_env, argv) =>
  createRemoteConfig(
    {
      projectDir: __dirname,
      name: 'logovote_admin',
      port: 3004,
      exposes: { './AdminPollsPage': './src/AdminPollsPage.tsx' },
    },
    argv,
  ),
);

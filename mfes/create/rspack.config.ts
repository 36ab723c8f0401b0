/// <reference types="node" />
import { defineConfig } from '@rspack/cli';

import { createRemoteConfig } from '../rspack.remote';
import { LANDING_TITLE } from './src/landing-copy';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export default defineConfig((_env, argv) =>
  createRemoteConfig(
    {
      projectDir: __dirname,
      name: 'logovote_create',
      port: 3001,
      exposes: { './LandingPage': './src/LandingPage.tsx' },
      // The headline where the landing page puts it, a little larger, so the page's own render is no larger paint.
      firstPaintHtml: `<main style="display:flex;flex-direction:column;align-items:center;padding:4.5rem 1rem 0;text-align:center"><h1 style="margin:0;max-width:48rem;font:700 2rem/1.25 system-ui,sans-serif;letter-spacing:-0.025em;text-wrap:balance">${escapeHtml(LANDING_TITLE)}</h1></main>`,
    },
    argv,
  ),
);

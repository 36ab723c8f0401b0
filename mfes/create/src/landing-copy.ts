/** The landing page's headline: its largest text, so also the first paint the gateway shows (rspack.config.ts). */
export const LANDING_TITLE = 'Which logo do your users like best?';

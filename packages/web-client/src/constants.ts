import type * as Contracts from '@logovote/contracts';

/*
 * The contracts' constants the browser needs. @logovote/contracts' entry point also builds every zod
 * schema, so importing a VALUE from it puts zod (~26 KB gzip) in the first load of every page. The
 * values are therefore restated here, each typed with the contract constant's literal type, so the
 * compiler rejects any drift (test/constants.test.ts also compares them at run time).
 */
export const CSRF_HEADER: typeof Contracts.CSRF_HEADER = 'X-CSRF-Token';
export const FINGERPRINT_HEADER: typeof Contracts.FINGERPRINT_HEADER = 'X-Client-Fingerprint';
export const VOTE_PROOF_HEADER: typeof Contracts.VOTE_PROOF_HEADER = 'X-Vote-Proof';
export const FINGERPRINT_STORAGE_KEY: typeof Contracts.FINGERPRINT_STORAGE_KEY = 'logoVotingFingerprint';
export const FINGERPRINT_LENGTH: typeof Contracts.FINGERPRINT_LENGTH = 16;
export const LOGOS_FIELD: typeof Contracts.LOGOS_FIELD = 'logos';
export const LOGO_NAMES_FIELD: typeof Contracts.LOGO_NAMES_FIELD = 'logoNames';
export const CHANNELS_FIELD: typeof Contracts.CHANNELS_FIELD = 'channels';
export const ATTRIBUTES_FIELD: typeof Contracts.ATTRIBUTES_FIELD = 'attributes';
export const VIA_PARAM: typeof Contracts.VIA_PARAM = 'via';
export const MAX_LOGO_NAME_LENGTH: typeof Contracts.MAX_LOGO_NAME_LENGTH = 60;
export const MODERATION_IMAGE_FIELD: typeof Contracts.MODERATION_IMAGE_FIELD = 'image';
export const MAX_ANALYTICS_BATCH: typeof Contracts.MAX_ANALYTICS_BATCH = 50;
export const MAX_LOGOS_PER_POLL: typeof Contracts.MAX_LOGOS_PER_POLL = 4;
export const MAX_LOGO_BYTES: typeof Contracts.MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const ACCEPTED_LOGO_EXTENSIONS: typeof Contracts.ACCEPTED_LOGO_EXTENSIONS = ['png', 'jpg', 'jpeg', 'svg', 'webp'];
export const ACCEPTED_LOGO_CONTENT_TYPES: typeof Contracts.ACCEPTED_LOGO_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/svg+xml',
  'image/webp',
];
export const MAX_FEEDBACK_PROMPT_LENGTH: typeof Contracts.MAX_FEEDBACK_PROMPT_LENGTH = 500;
export const SWIPE_THRESHOLD_PX: typeof Contracts.SWIPE_THRESHOLD_PX = 50;
export const ADMIN_THUMBNAILS_SHOWN: typeof Contracts.ADMIN_THUMBNAILS_SHOWN = 4;
export const TOTAL_COUNT_HEADER: typeof Contracts.TOTAL_COUNT_HEADER = 'X-Total-Count';
export const SEARCH_MORE_HEADER: typeof Contracts.SEARCH_MORE_HEADER = 'X-More-Matches';
export const LIVE_ENDED_EVENT: typeof Contracts.LIVE_ENDED_EVENT = 'ended';
export const LIVE_REASONS_EVENT: typeof Contracts.LIVE_REASONS_EVENT = 'reasons';
export const CREATOR_TOKEN_HEADER: typeof Contracts.CREATOR_TOKEN_HEADER = 'X-Creator-Token';
export const MANAGE_FRAGMENT: typeof Contracts.MANAGE_FRAGMENT = 'manage';

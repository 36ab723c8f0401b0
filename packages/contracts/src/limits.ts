/** Business constants of spec section 9, shared by the browser and the services. */
export const MAX_LOGOS_PER_POLL = 4;
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const ACCEPTED_LOGO_EXTENSIONS = ['png', 'jpg', 'jpeg', 'svg', 'webp'] as const;
export const MAX_FEEDBACK_PROMPT_LENGTH = 500;
export const FINGERPRINT_LENGTH = 16;
export const SWIPE_THRESHOLD_PX = 50;
export const ADMIN_THUMBNAILS_SHOWN = 4;
export const FINGERPRINT_STORAGE_KEY = 'logoVotingFingerprint';

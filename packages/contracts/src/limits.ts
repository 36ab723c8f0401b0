/** Business constants of spec section 9, shared by the browser and the services. */
export const MAX_LOGOS_PER_POLL = 4;
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const ACCEPTED_LOGO_EXTENSIONS = ['png', 'jpg', 'jpeg', 'svg', 'webp'] as const;
/** For the file picker's `accept`; the server decides the real type from the file's bytes. */
export const ACCEPTED_LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp'] as const;
/** Larger images are refused before decoding: a small file can declare a huge canvas (decompression bomb). */
export const MAX_LOGO_PIXELS = 25_000_000;
export const MAX_FEEDBACK_PROMPT_LENGTH = 500;
/** A logo's name (docs/api/sessions-and-media.md): short enough to sit beside 'Logo A' on a phone's results card. */
export const MAX_LOGO_NAME_LENGTH = 60;
/** Terms: polls and their data are deleted after this many days without activity. */
export const POLL_RETENTION_DAYS = 30;
export const FINGERPRINT_LENGTH = 16;
export const SWIPE_THRESHOLD_PX = 50;
export const ADMIN_THUMBNAILS_SHOWN = 4;
export const FINGERPRINT_STORAGE_KEY = 'logoVotingFingerprint';
/** 'Why this one?' (docs/reasons.md): a voter's reason is one line of at most this many characters. */
export const MAX_REASON_LENGTH = 140;
/** A reason's length as the voter sees it: in characters (code points), so an emoji counts once. */
export const reasonLength = (text: string): number => [...text].length;
/** Brief-fit ratings (docs/attributes.md): a poll asks about at most this many attributes, each this long at most. */
export const MAX_ATTRIBUTES_PER_POLL = 4;
export const MAX_ATTRIBUTE_LENGTH = 60;
/** A logo's reasons get themes (docs/reasons.md, "Themes") once it has at least this many. */
export const MIN_REASONS_FOR_THEMES = 5;
/** Reasons per page of GET /api/sessions/{sessionId}/reasons. */
export const REASONS_PAGE_SIZE = 10;
/** Channels (docs/channels.md): the audiences a creator tells apart, each with its own voting link. */
export const MAX_CHANNELS_PER_POLL = 8;
export const MAX_CHANNEL_NAME_LENGTH = 40;

/** The admin search's longest text (GET /api/admin/polls?q=). */
export const ADMIN_SEARCH_QUERY_MAX = 200;

import { z } from 'zod';

/** The link preview image of a poll (Open Graph's recommended size for a large card). */
export const PREVIEW_IMAGE_WIDTH = 1200;
export const PREVIEW_IMAGE_HEIGHT = 630;

/** GET /api/sessions/{sessionId}/preview.png: the poll's logos and question as one image, for link previews. */
export const previewImagePath = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/preview.png`;

/** Which of a poll's pages a link preview describes: its Open Graph URL and wording follow it. */
export const LinkPreviewPage = z.enum(['vote', 'results']);
export type LinkPreviewPage = z.infer<typeof LinkPreviewPage>;

/** GET /api/sessions/{sessionId}/link-preview?page=vote|results: the page's Open Graph and Twitter card tags (HTML). */
export const LinkPreviewQuery = z.object({ page: LinkPreviewPage });
export type LinkPreviewQuery = z.infer<typeof LinkPreviewQuery>;

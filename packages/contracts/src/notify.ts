import { z } from 'zod';
import { plainText } from './text';

const INVALID_EMAIL = 'Please enter a valid email address';

/** POST /api/sessions/{sessionId}/notify (the address is trimmed first, as the client does). */
export const NotifyRequest = z.object({
  email: plainText('The e-mail address', {
    error: (issue) => (issue.input === undefined ? 'email is required' : 'email must be a string'),
    refusal: INVALID_EMAIL,
  })
    .max(254, INVALID_EMAIL)
    .pipe(z.email(INVALID_EMAIL)),
});
export type NotifyRequest = z.infer<typeof NotifyRequest>;
export const NotifyResponse = z.object({ message: z.string(), email: z.string() });
export type NotifyResponse = z.infer<typeof NotifyResponse>;

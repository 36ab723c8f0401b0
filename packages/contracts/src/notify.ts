import { z } from 'zod';

/** POST /api/sessions/{sessionId}/notify (the address is trimmed first, as the client does). */
export const NotifyRequest = z.object({
  email: z
    .string({ error: (issue) => (issue.input === undefined ? 'email is required' : 'email must be a string') })
    .trim()
    .max(254, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address')),
});
export type NotifyRequest = z.infer<typeof NotifyRequest>;
export const NotifyResponse = z.object({ message: z.string(), email: z.string() });
export type NotifyResponse = z.infer<typeof NotifyResponse>;

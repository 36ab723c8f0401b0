import { z } from 'zod';

/** POST /api/sessions/{sessionId}/notify */
export const NotifyRequest = z.object({ email: z.string().trim().pipe(z.email('Please enter a valid email address')) });
export type NotifyRequest = z.infer<typeof NotifyRequest>;
export const NotifyResponse = z.object({ message: z.string(), email: z.string() });
export type NotifyResponse = z.infer<typeof NotifyResponse>;

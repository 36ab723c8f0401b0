import { z } from 'zod';
import { MAX_CHANNEL_NAME_LENGTH, MAX_CHANNELS_PER_POLL } from './limits';
import { plainText } from './text';

/**
 * Channels (docs/channels.md): named audiences of one poll ('Newsletter', 'Instagram', 'Team'), each with
 * its own voting link `/vote/{sessionId}?via={channel id}`. A voter counts for the channel of the link
 * they first arrived through.
 */

/** Beyond the spec: the multipart text field of POST /api/sessions that names a channel (repeated, one per channel). */
export const CHANNELS_FIELD = 'channels';

/** A channel's id: short, random, stable for the poll's life (base64url). */
export const ChannelId = z.string().regex(/^[A-Za-z0-9_-]{1,16}$/, 'via must be a channel id of this poll');
export type ChannelId = z.infer<typeof ChannelId>;

export const ChannelName = plainText('The channel name')
  .min(1, 'The channel name must not be empty')
  .max(MAX_CHANNEL_NAME_LENGTH, `The channel name must be at most ${MAX_CHANNEL_NAME_LENGTH} characters`);

/** The channels a creator names at creation: at most MAX_CHANNELS_PER_POLL, no two alike in any letter case. */
export const ChannelNames = z
  .array(ChannelName)
  .max(MAX_CHANNELS_PER_POLL, `A poll can have at most ${MAX_CHANNELS_PER_POLL} channels`)
  .refine((names) => new Set(names.map((name) => name.toLocaleLowerCase('en-US'))).size === names.length, {
    message: 'Each channel needs a different name',
  });

export const Channel = z.object({ id: ChannelId, name: z.string() });
export type Channel = z.infer<typeof Channel>;

/** A group's votes per logo (logo ids of the poll; a logo without votes is listed with 0). */
export const ChannelCounts = z.object({
  logos: z.array(z.object({ logoId: z.string(), votes: z.number().int().nonnegative() })),
  totalVotes: z.number().int().nonnegative(),
});
export type ChannelCounts = z.infer<typeof ChannelCounts>;

/**
 * GET /api/sessions/{sessionId}/channels: each channel's votes per logo, in the order the creator named
 * them, and `direct`, the votes of voters who first came through the plain link (no channel).
 */
export const ChannelResults = z.object({
  channels: z.array(Channel.extend(ChannelCounts.shape)),
  direct: ChannelCounts,
});
export type ChannelResults = z.infer<typeof ChannelResults>;

import sharp from 'sharp';
import { z } from 'zod';
import { ModerationUnavailable, type ModerationImage, type ModerationProvider, type ModerationVerdict } from './provider';

export interface HostedModerationOptions {
  url: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

/** The part of an OpenAI-style moderation response the verdict needs. */
const ModerationResponse = z.object({
  results: z
    .array(
      z.object({
        flagged: z.boolean(),
        categories: z.record(z.string(), z.boolean().nullable()),
        category_scores: z.record(z.string(), z.number()).optional(),
      }),
    )
    .min(1),
});

/**
 * A hosted moderation API speaking the OpenAI moderation protocol (POST {model, input:[image_url]},
 * answer {results:[{flagged, categories, category_scores}]}). It covers more than nudity (violence,
 * hate, ...). Any failure to get a verdict refuses the upload (503) rather than letting it through.
 */
export class HostedModeration implements ModerationProvider {
  readonly name = 'http';

  constructor(private readonly options: HostedModerationOptions) {}

  async warmUp(): Promise<void> {}

  async moderate(image: ModerationImage): Promise<ModerationVerdict> {
    const png = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
      .png()
      .toBuffer();
    let body: unknown;
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.options.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: this.options.model,
          input: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } }],
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) throw new Error(`moderation API answered ${response.status}`);
      body = await response.json();
    } catch (error: unknown) {
      throw new ModerationUnavailable(error);
    }
    const parsed = ModerationResponse.safeParse(body);
    if (!parsed.success) throw new ModerationUnavailable(parsed.error);
    const flaggedCategories = parsed.data.results.flatMap((result) =>
      Object.entries(result.categories)
        .filter(([, flagged]) => flagged === true)
        .map(([category]) => category),
    );
    const isValid = !parsed.data.results.some((result) => result.flagged);
    const reason = isValid
      ? 'No policy violation detected'
      : `Flagged by the moderation service${flaggedCategories.length > 0 ? `: ${[...new Set(flaggedCategories)].join(', ')}` : ''}`;
    return { isValid, reason, rawResponse: { provider: this.name, model: this.options.model, ...(body as object) } };
  }
}

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '@logovote/service-kit';
import {
  HostedModeration,
  type ModerationSuite,
  ModerationUnavailable,
  NsfwjsModeration,
  createModerationProvider,
  moderationEnv,
} from '../src';

// A stand-in for the hosted API: a real HTTP server on loopback speaking the OpenAI moderation protocol.
let server: Server;
let url: string;
let answer: { status: number; body: unknown };
let received: { authorization?: string; body: { model: string; input: { type: string; image_url: { url: string } }[] } } | undefined;

const readJson = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    void readJson(req).then((body) => {
      received = { authorization: req.headers.authorization, body };
      res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/moderations`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const image = { data: Buffer.alloc(8 * 8 * 3, 200), width: 8, height: 8 };
const provider = () => new HostedModeration({ url, apiKey: 'test-key', model: 'omni-moderation-latest', timeoutMs: 5000 });

describe('hosted moderation provider', () => {
  it('sends the image as a PNG data URL with the key, and refuses what the service flags', async () => {
    answer = {
      status: 200,
      body: {
        id: 'modr-1',
        results: [{ flagged: true, categories: { sexual: true, violence: false }, category_scores: { sexual: 0.97 } }],
      },
    };
    const verdict = await provider().moderate(image);
    expect(received?.authorization).toBe('Bearer test-key');
    expect(received?.body.model).toBe('omni-moderation-latest');
    expect(received?.body.input[0]?.image_url.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(verdict).toEqual({
      isValid: false,
      reason: 'Flagged by the moderation service: sexual',
      rawResponse: { provider: 'http', model: 'omni-moderation-latest', ...(answer.body as object) },
    });
  });

  it('passes what the service does not flag', async () => {
    answer = { status: 200, body: { results: [{ flagged: false, categories: { sexual: false } }] } };
    await expect(provider().moderate(image)).resolves.toMatchObject({ isValid: true, reason: 'No policy violation detected' });
  });

  it('fails closed (503) when the service errs or answers nonsense', async () => {
    answer = { status: 500, body: { error: 'boom' } };
    await expect(provider().moderate(image)).rejects.toBeInstanceOf(ModerationUnavailable);
    answer = { status: 200, body: { unexpected: true } };
    await expect(provider().moderate(image)).rejects.toMatchObject({ status: 503 });
  });

  it('runs beside the local models when configured, and needs a key', () => {
    const providersOf = (suite: ModerationSuite) => suite.checks.map((check) => check.provider);
    const local = providersOf(createModerationProvider(moderationEnv.parse({})));
    expect(local.some((check) => check instanceof NsfwjsModeration)).toBe(true);
    expect(local.some((check) => check instanceof HostedModeration)).toBe(false);
    const withHosted = providersOf(createModerationProvider(moderationEnv.parse({ MODERATION_PROVIDER: 'http', MODERATION_API_KEY: 'k' })));
    expect(withHosted.some((check) => check instanceof NsfwjsModeration)).toBe(true);
    expect(withHosted.some((check) => check instanceof HostedModeration)).toBe(true);
    expect(() => createModerationProvider(moderationEnv.parse({ MODERATION_PROVIDER: 'http' }))).toThrow(ConfigError);
  });
});

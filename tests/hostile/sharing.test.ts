/**
 * Link previews under hostile ids and questions, through the gateway: the preview image and the tags answer a
 * 4xx JSON message for anything but an active poll, and a question can neither end a tag nor add an SSI directive.
 */
import { testStack } from '../support/stack-env';
import { validImages } from './support/fixtures';
import { INTERNAL_DETAILS, call, jsonMessage, targetOf } from './support/http';
import { createPollVia } from './support/polls';

const { gatewayUrl } = testStack();
// A client address of its own, so the gateway's per-address rate limit counts these requests alone.
const target = targetOf(gatewayUrl, '127.0.5.17');

const BAD_IDS = [
  'AAAAAAAAAAAAAAAA',
  '..%2F..%2Fx',
  '..%252F..%252Fx',
  'a%22b%3Cc',
  '%00',
  'A'.repeat(65),
  '%F0%9F%92%A9',
  'x%0d%0aSet-Cookie:%20a=b',
];

describe('the preview image for ids that are not an active poll', () => {
  it.each(BAD_IDS)('GET /api/sessions/%s/preview.png answers a 4xx JSON message', async (id) => {
    const answer = await call(target, { method: 'GET', path: `/api/sessions/${id}/preview.png` });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(jsonMessage(answer)).toBeDefined();
    expect(answer.body).not.toMatch(INTERNAL_DETAILS);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  // One path segment each (the gateway refuses traversal probes and NUL before any page is made).
  it.each(['AAAAAAAAAAAAAAAA', 'a%22b%3Cc', 'A'.repeat(65), '%F0%9F%92%A9', 'x%0d%0aSet-Cookie:%20a=b'])(
    'the page /vote/%s still comes, with the generic tags only',
    async (id) => {
      const answer = await call(target, { method: 'GET', path: `/vote/${id}` });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('<div id="root">');
      expect(answer.body).toMatch(/<meta property="og:title" content="LogoVote"\s*\/?>/);
      expect(answer.body).not.toContain('og:image');
    },
  );
});

describe('a hostile question in the tags', () => {
  const hostileQuestion = '"/><script>alert(1)</script><meta property="og:title" content="x"> & <!--# echo var="runtime_config_json" -->';

  it.each(['vote', 'results'])('is escaped on /%s/{id}: no tag, script or SSI directive comes of it', async (route) => {
    const images = await validImages();
    const poll = await createPollVia(target, [images.png, images.webp], hostileQuestion);
    const page = await call(target, { method: 'GET', path: `/${route}/${poll.sessionId}` });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('<script>alert');
    expect(page.body.match(/<meta property="og:title"/g)).toHaveLength(1);
    expect(page.body).toContain(
      '<meta property="og:title" content="&quot;/&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;meta property=&quot;og:title&quot; content=&quot;x&quot;&gt; &amp; &lt;!--# echo var=&quot;runtime_config_json&quot; --&gt;" />',
    );
  });
});

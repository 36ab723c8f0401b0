/**
 * What the gateway refuses by itself: guessing the admin's password on any admin path (a growing back-off per
 * client address), more uploads at once from one address than its cap, and every error it answers on /api as
 * JSON; and no other site may load its answers (Cross-Origin-Resource-Policy). Each test uses loopback addresses
 * of its own (127.0.0.180 onwards), so the per-address limits count it alone.
 */
import { connect, type Socket } from 'node:net';
import { GATEWAY_LIMIT_DEFAULTS } from '../../scripts/lib/gateway-config';
import { testStack } from '../support/stack-env';
import { validImages } from './support/fixtures';
import { call, callRaw, jsonMessage, multipart, targetOf, type Answer, type Target } from './support/http';
import { createPollVia } from './support/polls';

const { gatewayUrl, admin } = testStack();
const FREE_FAILURES = Number(GATEWAY_LIMIT_DEFAULTS.ADMIN_LOGIN_FREE_FAILURES);
const UPLOADS_PER_ADDRESS = Number(GATEWAY_LIMIT_DEFAULTS.UPLOAD_CONNECTIONS_PER_ADDRESS);
const CHALLENGE = 'Basic realm="LogoVote admin"';
const BACKOFF_MESSAGE = /^Too many failed admin sign-ins from your address\. Try again in [1-9]\d* seconds\.$/;

jest.setTimeout(120_000);

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const rightCredentials = basic(admin.user, admin.password);
let guesses = 0;
/** A wrong password never tried before. */
const wrongCredentials = () => basic(admin.user, `guess-${process.pid}-${(guesses += 1)}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The back-off's message, from a JSON body or the admin page's HTML. */
function backoffMessageOf(answer: Answer): string | undefined {
  return jsonMessage(answer) ?? /<p>([^<]*)<\/p>/.exec(answer.body)?.[1];
}

function expectBackoff(answer: Answer): number {
  expect(answer.status).toBe(429);
  expect(backoffMessageOf(answer)).toMatch(BACKOFF_MESSAGE);
  const retryAfter = Number(answer.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
  expect(backoffMessageOf(answer)).toContain(`in ${retryAfter} seconds`);
  // Whether the credentials were right or wrong, the same challenge: nothing tells them apart.
  expect(answer.headers['www-authenticate']).toBe(CHALLENGE);
  return retryAfter;
}

/**
 * Guesses until the address's back-off has at least `seconds` left: however slowly the machine ran the guesses
 * before, the requests that follow all fall inside it. A back-off that ends is waited out, and the next guess
 * (counted) doubles it.
 */
async function backOffForAtLeast(target: Target, path: string, seconds: number): Promise<void> {
  for (;;) {
    const answer = await call(target, { method: 'GET', path, headers: { Authorization: wrongCredentials() } });
    if (answer.status !== 429) continue;
    // The gateway's API rate limit, not the sign-in back-off: try again in a moment.
    if (jsonMessage(answer)?.startsWith('Too many requests')) {
      await sleep(1000);
      continue;
    }
    const retryAfter = expectBackoff(answer);
    if (retryAfter >= seconds) return;
    await sleep(retryAfter * 1000 + 300);
  }
}

function expectChallenge(answer: Answer): void {
  expect(answer.status).toBe(401);
  expect(answer.headers['www-authenticate']).toBe(CHALLENGE);
}

describe('failed admin sign-ins', () => {
  it.each([
    ['/admin/polls', '127.0.0.180', /^text\/html/],
    ['/remotes/admin/mf-manifest.json', '127.0.0.181', /^application\/json/],
    ['/api/admin/polls', '127.0.0.182', /^application\/json/],
  ])(
    '300 wrong passwords at %s from one address: the free ones answer the challenge, then 429 with Retry-After',
    async (path, address, type) => {
      const target = targetOf(gatewayUrl, address);
      const answers: Answer[] = [];
      for (let i = 0; i < 300; i++)
        answers.push(await call(target, { method: 'GET', path, headers: { Authorization: wrongCredentials() } }));

      for (const answer of answers.slice(0, FREE_FAILURES)) expectChallenge(answer);
      // The gateway's API rate limit may refuse some of a burst at /api too; those are not sign-ins.
      const signIns = answers.filter((answer) => !(answer.status === 429 && jsonMessage(answer)?.startsWith('Too many requests')));
      expect(signIns.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
      const refused = signIns.filter((answer) => answer.status === 429);
      expect(signIns.findIndex((answer) => answer.status === 429)).toBe(FREE_FAILURES);
      // Each failure past the free ones doubles the back-off: only a handful more are ever checked.
      expect(signIns.length - refused.length).toBeLessThan(FREE_FAILURES + 12);
      for (const answer of refused) {
        expectBackoff(answer);
        expect(answer.headers['content-type']).toMatch(type);
      }
      for (const answer of answers.slice(0, FREE_FAILURES)) expect(answer.headers['content-type']).toMatch(type);

      // While it backs off, the address gets the same answer with the right password: nothing tells it apart.
      await backOffForAtLeast(target, path, 10);
      const [right, wrong] = [
        await call(target, { method: 'GET', path, headers: { Authorization: rightCredentials } }),
        await call(target, { method: 'GET', path, headers: { Authorization: wrongCredentials() } }),
      ];
      expectBackoff(right);
      // (The seconds left may tick between the two.)
      const comparable = ({ status, headers, body }: Answer) => ({
        status,
        headers: { ...headers, date: '', 'retry-after': '' },
        body: body.replace(/in \d+ seconds/, 'in N seconds'),
      });
      expect(comparable(right)).toEqual(comparable(wrong));
      // The admin, from another address, is let in.
      const elsewhere = await call(targetOf(gatewayUrl, '127.0.0.184'), {
        method: 'GET',
        path,
        headers: { Authorization: rightCredentials },
      });
      expect(elsewhere.status).toBe(200);
    },
  );

  it('doubles the back-off with each further failure', async () => {
    const target = targetOf(gatewayUrl, '127.0.0.183');
    const guess = () => call(target, { method: 'GET', path: '/api/admin/polls', headers: { Authorization: wrongCredentials() } });
    for (let i = 0; i < FREE_FAILURES; i++) expectChallenge(await guess());
    const backoffs = [expectBackoff(await guess())];
    for (let round = 0; round < 2; round++) {
      await sleep(backoffs[backoffs.length - 1]! * 1000 + 300);
      expectChallenge(await guess());
      backoffs.push(expectBackoff(await guess()));
    }
    expect(backoffs[1]).toBeGreaterThan(backoffs[0]!);
    expect(backoffs[2]).toBeGreaterThan(backoffs[1]!);
  });

  it('counts neither a visit without credentials nor the same wrong password again (a browser holding a stale one)', async () => {
    const target = targetOf(gatewayUrl, '127.0.0.185');
    const stale = basic(admin.user, `stale-${process.pid}`);
    for (let i = 0; i < FREE_FAILURES * 2; i++) {
      expectChallenge(await call(target, { method: 'GET', path: '/admin/polls' }));
      expectChallenge(await call(target, { method: 'GET', path: '/remotes/admin/mf-manifest.json', headers: { Authorization: stale } }));
    }
    expect((await call(target, { method: 'GET', path: '/api/admin/polls', headers: { Authorization: rightCredentials } })).status).toBe(
      200,
    );
  });
});

describe('uploads at once from one address', () => {
  /** An upload that has sent its headers and a little of its body, and then nothing. */
  function slowUpload(address: string, path: string): Promise<Socket> {
    const { port } = new URL(gatewayUrl);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: address }, () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 1000000\r\n\r\n--x\r\n`,
        );
        resolve(socket);
      });
      socket.on('error', reject);
    });
  }

  it(`refuses the upload past ${UPLOADS_PER_ADDRESS} in progress with a JSON 429 and Retry-After, on both upload endpoints`, async () => {
    const address = '127.0.0.186';
    const target = targetOf(gatewayUrl, address);
    const slow = await Promise.all(
      Array.from({ length: UPLOADS_PER_ADDRESS }, (_, i) => slowUpload(address, i % 2 === 0 ? '/api/sessions' : '/api/test/moderate')),
    );
    try {
      const images = await validImages();
      const upload = multipart([{ name: 'image', filename: 'a.png', type: 'image/png', data: images.png }]);
      // The slow uploads reach the gateway's limit in their own time: asked until they hold every place.
      let refused: Answer | undefined;
      for (let attempt = 0; attempt < 50 && !refused; attempt++) {
        const answer = await call(target, {
          method: 'POST',
          path: '/api/test/moderate',
          headers: { 'Content-Type': upload.contentType },
          body: upload.body,
        });
        if (answer.status === 429) refused = answer;
        else await sleep(100);
      }
      expect(refused?.status).toBe(429);
      expect(jsonMessage(refused!)).toBe('Too many uploads at once from your address. Wait for one to finish, then try again.');
      expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused!.headers['cross-origin-resource-policy']).toBe('same-origin');
      const creation = await call(target, {
        method: 'POST',
        path: '/api/sessions',
        headers: { 'Content-Type': upload.contentType },
        body: upload.body,
      });
      expect(creation.status).toBe(429);
      expect(jsonMessage(creation)).toMatch(/^Too many uploads at once/);
      // Another address uploads meanwhile.
      expect((await createPollVia(targetOf(gatewayUrl, '127.0.0.187'), [images.png, images.jpeg])).sessionId).toBeTruthy();
    } finally {
      for (const socket of slow) socket.destroy();
    }
    // The places free up when the slow uploads end.
    const images = await validImages();
    let created = false;
    for (let attempt = 0; attempt < 50 && !created; attempt++) {
      created = await createPollVia(target, [images.png, images.jpeg]).then(
        () => true,
        () => false,
      );
      if (!created) await sleep(200);
    }
    expect(created).toBe(true);
  });
});

describe('errors the gateway answers itself on /api', () => {
  const target: Target = targetOf(gatewayUrl, '127.0.0.188');
  const request = (head: string, body = '') => callRaw(target, `${head}\r\nHost: x\r\nConnection: close\r\n\r\n${body}`);

  it.each([
    ['an unknown transfer coding (xchunked)', 'POST /api/sessions HTTP/1.1\r\nTransfer-Encoding: xchunked', '5\r\nhello\r\n0\r\n\r\n', 501],
    ['an unknown transfer coding (gzip)', 'POST /api/analytics/events HTTP/1.1\r\nTransfer-Encoding: gzip', '', 501],
    ['a transfer coding on a GET', 'GET /api/sessions/AAAAAAAAAAAAAAAA HTTP/1.1\r\nTransfer-Encoding: xchunked', '', 501],
    ['a body over the cap', 'POST /api/sessions/AAAAAAAAAAAAAAAA/vote HTTP/1.1\r\nContent-Length: 999999999', '', 413],
    ['a URL too long', `GET /api/sessions/${'A'.repeat(20_000)} HTTP/1.1`, '', 414],
    ['a header too large', `GET /api/sessions/AAAAAAAAAAAAAAAA HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}`, '', 431],
    ['a malformed chunk', 'POST /api/analytics/events HTTP/1.1\r\nTransfer-Encoding: chunked', 'zz\r\nhello\r\n0\r\n\r\n', 400],
    ['TRACE', 'TRACE /api/sessions HTTP/1.1', '', 405],
  ])('%s: JSON with a message, and the policy headers', async (_, head, body, status) => {
    const answer = await request(head, body);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(jsonMessage(answer)).toBeDefined();
    expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  // Each service counts its database commands on its own port's /metrics: internal figures, never routed outside.
  it.each(['/metrics', '/api/metrics', '/api/health/votes/metrics', '/api/sessions/../../metrics', '/test/fingerprint/../../metrics'])(
    "%s: not a service's metrics",
    async (path) => {
      const answer = await call(target, { method: 'GET', path });
      expect(answer.body).not.toContain('logovote_db_commands_total');
    },
  );
});

describe('Cross-Origin-Resource-Policy', () => {
  const target = targetOf(gatewayUrl, '127.0.0.189');

  it('is same-origin on API answers, errors, logos, the link preview image, pages and the admin area', async () => {
    const images = await validImages();
    const poll = await createPollVia(target, [images.png, images.jpeg]);
    const answers = await Promise.all(
      [
        `/api/sessions/${poll.sessionId}`,
        '/api/sessions/ZZZZZZZZZZZZZZZZ',
        '/api/no-such-thing',
        `/api/logos/${poll.logos[0]!.filename}`,
        `/api/sessions/${poll.sessionId}/preview.png`,
        `/vote/${poll.sessionId}`,
        '/runtime-config.json',
        '/remotes/vote/mf-manifest.json',
        '/api/health/sessions',
      ].map(async (path) => ({ path, answer: await call(target, { method: 'GET', path }) })),
    );
    const admin401 = await call(target, { method: 'GET', path: '/api/admin/polls' });
    const adminPage = await call(target, { method: 'GET', path: '/admin/polls', headers: { Authorization: rightCredentials } });
    expect(answers.map(({ path, answer }) => [path, answer.status])).toEqual(
      answers.map(({ path }) => [path, /ZZZZ|no-such-thing/.test(path) ? 404 : 200]),
    );
    for (const answer of [...answers.map((each) => each.answer), admin401, adminPage])
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(answers.find(({ path }) => path.endsWith('preview.png'))!.answer.headers['content-type']).toBe('image/png');
  });
});

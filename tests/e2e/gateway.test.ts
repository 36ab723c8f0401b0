import { request } from 'node:http';
import { Readiness, RuntimeConfig } from '@logovote/contracts';
import { testStack } from '../support/stack-env';

const { gatewayUrl, admin } = testStack();

describe('gateway', () => {
  it.each(['sessions', 'votes', 'media', 'notify'])('reaches the %s service health checks', async (service) => {
    const health = await fetch(`${gatewayUrl}/api/health/${service}`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', service });
    const ready = await fetch(`${gatewayUrl}/api/ready/${service}`);
    expect(ready.status).toBe(200);
    const readiness = Readiness.parse(await ready.json());
    expect(readiness.status).toBe('ready');
    expect(Object.values(readiness.checks).every((check) => check.ok)).toBe(true);
  });

  it('serves the runtime configuration naming every remote manifest, never cached', async () => {
    const res = await fetch(`${gatewayUrl}/runtime-config.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const config = RuntimeConfig.parse(await res.json());
    for (const remote of ['create', 'vote', 'results', 'admin'] as const) {
      const manifest = await fetch(new URL(config.remotes[remote]!.manifestUrl, gatewayUrl), {
        headers: remote === 'admin' ? { Authorization: `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString('base64')}` } : {},
      });
      expect(manifest.status).toBe(200);
      expect((await manifest.json()) as object).toHaveProperty('metaData');
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await fetch(`${gatewayUrl}/api/no-such-thing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });

  it.each(['/admin/polls', '/remotes/admin/mf-manifest.json', '/remotes/admin/remoteEntry.js', '/api/admin/polls'])(
    'keeps %s behind the admin credentials',
    async (path) => {
      const anonymous = await fetch(`${gatewayUrl}${path}`);
      expect(anonymous.status).toBe(401);
      const wrong = await fetch(`${gatewayUrl}${path}`, {
        headers: { Authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` },
      });
      expect(wrong.status).toBe(401);
    },
  );
});

/** GET from another loopback address, so this client's rate-limit bucket is its own, not the other tests'. */
function getFrom(localAddress: string, url: string): Promise<{ status: number; body: string; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gateway rate limit', () => {
  it('answers a burst from one address past the limit with JSON 429s, and nothing else fails', async () => {
    const url = `${gatewayUrl.replace('localhost', '127.0.0.1')}/api/health/votes`;
    const results: Awaited<ReturnType<typeof getFrom>>[] = [];
    for (let wave = 0; wave < 6; wave++) {
      results.push(...(await Promise.all(Array.from({ length: 100 }, () => getFrom('127.0.0.23', url)))));
    }
    const limited = results.filter((result) => result.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(results.every((result) => result.status === 200 || result.status === 429)).toBe(true);
    expect(JSON.parse(limited[0]!.body)).toEqual({ message: 'Too many requests. Please slow down and try again in a moment.' });
    expect(limited[0]!.retryAfter).toBe('1');
    // Other addresses are not affected.
    expect((await getFrom('127.0.0.24', url)).status).toBe(200);
  });
});

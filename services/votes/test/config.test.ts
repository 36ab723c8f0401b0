import { ConfigError } from '@logovote/service-kit';
import { loadConfig } from '../src/config';

const required = { CSRF_SECRET: 'c'.repeat(32), IP_HASH_SALT: 's'.repeat(32) };

describe('votes configuration', () => {
  it('defaults to 1000 voters per address per poll (a last resort) behind one proxy', () => {
    expect(loadConfig(required)).toMatchObject({ PORT: 4002, VOTES_PER_IP_PER_POLL: 1000, TRUSTED_PROXY_HOPS: 1 });
  });

  it('reads the cap and the proxy count', () => {
    expect(loadConfig({ ...required, VOTES_PER_IP_PER_POLL: '500', TRUSTED_PROXY_HOPS: '2' })).toMatchObject({
      VOTES_PER_IP_PER_POLL: 500,
      TRUSTED_PROXY_HOPS: 2,
    });
  });

  it.each([
    ['no IP hash salt', { CSRF_SECRET: required.CSRF_SECRET }, 'IP_HASH_SALT'],
    ['a short IP hash salt', { ...required, IP_HASH_SALT: 'short' }, 'IP_HASH_SALT: must be at least 32 characters'],
    ['no anti-forgery secret', { IP_HASH_SALT: required.IP_HASH_SALT }, 'CSRF_SECRET'],
    ['a cap of 0', { ...required, VOTES_PER_IP_PER_POLL: '0' }, 'VOTES_PER_IP_PER_POLL'],
    ['a cap that is not a number', { ...required, VOTES_PER_IP_PER_POLL: 'many' }, 'VOTES_PER_IP_PER_POLL'],
  ])('refuses %s', (_, env, problem) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(problem);
  });
});

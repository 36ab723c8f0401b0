import { createHmac } from 'node:crypto';
import { hashIp, networkOf } from '../src/client-address';

const salt = 'a-salt-that-is-at-least-32-characters-long';

describe('networkOf', () => {
  it.each([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['::FFFF:203.0.113.5', '203.0.113.5'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:0db8:0001:0002::/64'],
    ['2001:db8:1:2::1', '2001:0db8:0001:0002::/64'],
    ['2001:DB8:1:2::', '2001:0db8:0001:0002::/64'],
    ['::1', '0000:0000:0000:0000::/64'],
    ['fe80::1%eth0', 'fe80:0000:0000:0000::/64'],
    ['', ''],
  ])('%p counts as %p', (ip, network) => {
    expect(networkOf(ip)).toBe(network);
  });
});

describe('hashIp', () => {
  it('is the HMAC-SHA256 of the network under the salt, and hides the address', () => {
    const hash = hashIp(salt, '198.51.100.7');
    expect(hash).toBe(createHmac('sha256', salt).update('198.51.100.7').digest('hex'));
    expect(hash).not.toContain('198');
    expect(hashIp(salt, '::ffff:198.51.100.7')).toBe(hash);
  });

  it('depends on the salt and tells addresses apart', () => {
    expect(hashIp(`${salt}x`, '198.51.100.7')).not.toBe(hashIp(salt, '198.51.100.7'));
    expect(hashIp(salt, '198.51.100.8')).not.toBe(hashIp(salt, '198.51.100.7'));
  });
});

import { backoffSeconds, failureKeys, type AdminLoginPolicy } from '../src/admin-login/backoff';

const policy: AdminLoginPolicy = { freeFailures: 3, firstBackoffSeconds: 2, maxBackoffSeconds: 60 };
const at = (seconds: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, 0) + seconds * 1000);
/** `count` failures one second apart, the last at second `count - 1`. */
const failures = (count: number) => Array.from({ length: count }, (_, index) => at(index));

describe('the back-off after failed admin sign-ins', () => {
  it('lets an address try while it has free failures left', () => {
    expect(backoffSeconds([], policy, at(0))).toBe(0);
    expect(backoffSeconds(failures(2), policy, at(1))).toBe(0);
  });

  it('starts with the first back-off once the free failures are used, counted from the latest failure', () => {
    expect(backoffSeconds(failures(3), policy, at(2))).toBe(2);
    expect(backoffSeconds(failures(3), policy, at(3.5))).toBe(1);
    expect(backoffSeconds(failures(3), policy, at(4))).toBe(0);
  });

  it('doubles with each further failure, up to the longest', () => {
    expect([4, 5, 6, 8, 30].map((count) => backoffSeconds(failures(count), policy, at(count - 1)))).toEqual([4, 8, 16, 60, 60]);
  });

  it('holds for any number of failures (no overflow)', () => {
    expect(backoffSeconds(failures(5000), policy, at(4999))).toBe(60);
  });

  it('with one free failure, backs off after the first', () => {
    expect(backoffSeconds(failures(1), { ...policy, freeFailures: 1 }, at(0))).toBe(2);
  });
});

describe('the keys failures are stored under', () => {
  const keys = failureKeys('x'.repeat(32));

  it('hide the address and the credential, and tell addresses and credentials apart', () => {
    const address = keys.address('203.0.113.7');
    expect(address).not.toContain('203.0.113.7');
    expect(keys.address('203.0.113.8')).not.toBe(address);
    expect(keys.credential('203.0.113.7', 'Basic YTpi')).not.toBe(keys.credential('203.0.113.7', 'Basic YTpj'));
    expect(keys.credential('203.0.113.7', 'Basic YTpi')).not.toBe(keys.credential('203.0.113.8', 'Basic YTpi'));
    expect(failureKeys('y'.repeat(32)).address('203.0.113.7')).not.toBe(address);
  });
});

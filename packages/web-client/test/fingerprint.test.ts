// The client under test is browser code: type-check it against the DOM library wherever this test is compiled.
/// <reference lib="dom" />

import { createHash, webcrypto } from 'node:crypto';

import {
  computeFingerprint,
  fingerprintText,
  resolveFingerprint,
  type FingerprintSource,
  type FingerprintStorage,
} from '../src/fingerprint';

const subtle = webcrypto.subtle as unknown as SubtleCrypto;

const SOURCE: FingerprintSource = {
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  language: 'en-US',
  screenWidth: 1920,
  screenHeight: 1080,
  timezoneOffset: -120,
};
/** sha256(SOURCE's text), first 16 hex characters. */
const KNOWN_FINGERPRINT = 'aaa3750dc9e49e57';

class MemoryStorage implements FingerprintStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

describe('fingerprint (spec section 3)', () => {
  it('hashes user agent, language, WxH screen size and timezone offset joined by |', () => {
    expect(fingerprintText(SOURCE)).toBe(`${SOURCE.userAgent}|en-US|1920x1080|-120`);
  });

  it('is the first 16 hex characters of SHA-256 over that text (known vector)', async () => {
    const fingerprint = await computeFingerprint(SOURCE, subtle);
    expect(fingerprint).toBe(KNOWN_FINGERPRINT);
    expect(fingerprint).toBe(createHash('sha256').update(fingerprintText(SOURCE)).digest('hex').slice(0, 16));
  });

  it('stores a new fingerprint under logoVotingFingerprint, then reuses the stored one', async () => {
    const storage = new MemoryStorage();
    await expect(resolveFingerprint({ storage, source: () => SOURCE, subtle })).resolves.toBe(KNOWN_FINGERPRINT);
    expect(storage.items.get('logoVotingFingerprint')).toBe(KNOWN_FINGERPRINT);

    storage.setItem('logoVotingFingerprint', '0123456789abcdef');
    const otherBrowser = { ...SOURCE, language: 'de-DE' };
    await expect(resolveFingerprint({ storage, source: () => otherBrowser, subtle })).resolves.toBe('0123456789abcdef');
  });

  it('only warns when the fingerprint cannot be stored', async () => {
    const warn = jest.fn();
    const storage: FingerprintStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    await expect(resolveFingerprint({ storage, source: () => SOURCE, subtle, warn })).resolves.toBe(KNOWN_FINGERPRINT);
    expect(warn).toHaveBeenCalledWith('[LogoVote] could not store the fingerprint', expect.any(Error));
  });

  it('still makes a fingerprint when storage is unavailable', async () => {
    await expect(resolveFingerprint({ storage: null, source: () => SOURCE, subtle })).resolves.toBe(KNOWN_FINGERPRINT);
  });
});

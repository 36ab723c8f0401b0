import { FINGERPRINT_LENGTH, FINGERPRINT_STORAGE_KEY } from './constants';

/** What the fingerprint is made of (spec section 3). */
export type FingerprintSource = {
  userAgent: string;
  language: string;
  screenWidth: number;
  screenHeight: number;
  /** Date#getTimezoneOffset(): minutes, UTC minus local time. */
  timezoneOffset: number;
};

/** Storage the fingerprint is kept in (window.localStorage in the browser). */
export type FingerprintStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const STORED_FINGERPRINT = new RegExp(`^[0-9a-f]{${FINGERPRINT_LENGTH}}$`);

/** The hashed text: user agent, language, `WxH` screen size and timezone offset, joined by '|'. */
export function fingerprintText(source: FingerprintSource): string {
  return [source.userAgent, source.language, `${source.screenWidth}x${source.screenHeight}`, String(source.timezoneOffset)].join('|');
}

/** The first 16 hexadecimal characters of SHA-256 over fingerprintText(source). */
export async function computeFingerprint(source: FingerprintSource, subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<string> {
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(fingerprintText(source)));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return hex.slice(0, FINGERPRINT_LENGTH);
}

/** This browser's fingerprint inputs. */
export function browserFingerprintSource(): FingerprintSource {
  return {
    userAgent: navigator.userAgent,
    language: navigator.language,
    screenWidth: screen.width,
    screenHeight: screen.height,
    timezoneOffset: new Date().getTimezoneOffset(),
  };
}

export type FingerprintDeps = {
  storage?: FingerprintStorage | null;
  source?: () => FingerprintSource;
  subtle?: SubtleCrypto;
  warn?: (message: string, error: unknown) => void;
};

function browserStorage(): FingerprintStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled (privacy settings): the fingerprint is still computed, just not kept
  }
}

/**
 * The stored fingerprint if there is one, else a newly computed one, which is then stored under
 * `logoVotingFingerprint`. A failure to store it only logs a warning.
 */
export async function resolveFingerprint(deps: FingerprintDeps = {}): Promise<string> {
  const storage = deps.storage === undefined ? browserStorage() : deps.storage;
  // eslint-disable-next-line no-console -- spec section 8: a storage failure is a warning only
  const warn = deps.warn ?? ((message: string, error: unknown) => console.warn(message, error));
  let stored: string | null = null;
  try {
    stored = storage?.getItem(FINGERPRINT_STORAGE_KEY) ?? null;
  } catch (error) {
    warn('[LogoVote] could not read the stored fingerprint', error);
  }
  // A value that is not a fingerprint (edited by hand) would be refused by the server: make a new one.
  if (stored && STORED_FINGERPRINT.test(stored)) return stored;
  const fingerprint = await computeFingerprint((deps.source ?? browserFingerprintSource)(), deps.subtle);
  try {
    storage?.setItem(FINGERPRINT_STORAGE_KEY, fingerprint);
  } catch (error) {
    warn('[LogoVote] could not store the fingerprint', error);
  }
  return fingerprint;
}

/** Reads the stored fingerprint without making one (null when none is stored or storage is unavailable). */
export function storedFingerprint(storage: FingerprintStorage | null = browserStorage()): string | null {
  try {
    return storage?.getItem(FINGERPRINT_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Removes the stored fingerprint (the fingerprint test page's 'Clear Stored Fingerprint'). */
export function clearStoredFingerprint(storage: FingerprintStorage | null = browserStorage()): void {
  try {
    storage?.removeItem(FINGERPRINT_STORAGE_KEY);
  } catch (error) {
    // eslint-disable-next-line no-console -- nothing else to do: the page reloads next
    console.warn('[LogoVote] could not clear the stored fingerprint', error);
  }
}

const hex = (digest: ArrayBuffer) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * What makes two polls "the same" for the duplicate check (docs/your-polls.md): SHA-256 over the SHA-256 of
 * each logo's bytes (sorted, so the order they were picked in does not matter) and the question as sent
 * (trimmed). Undefined where the browser has no Web Crypto (a page not served over HTTPS or from localhost):
 * then nothing is taken for a duplicate.
 */
export async function pollContentHash(logos: readonly Blob[], question: string): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const logoHashes = await Promise.all(logos.map(async (logo) => hex(await subtle.digest('SHA-256', await logo.arrayBuffer()))));
  const content = `${logoHashes.sort().join(',')}\n${question.trim()}`;
  return hex(await subtle.digest('SHA-256', new TextEncoder().encode(content)));
}

// One solver of src/proof-of-work.ts: altcha-lib's worker loop with the browser's PBKDF2 (WebCrypto).
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { handler } from 'altcha-lib/workers/shared';

handler({ deriveKey });

/** Bytes sent so far of a multipart upload; `total` is 0 while unknown. */
export type UploadProgress = { loaded: number; total: number };

export type RawResponse = { ok: boolean; status: number; statusText: string; bodyText: string };

export type UploadOptions = {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

/**
 * POSTs a multipart form with XMLHttpRequest, because fetch() reports no upload progress. It sends
 * credentials like every other call and resolves with the raw response (OK or not); it rejects only
 * when no response arrived (network failure, abort), with a TypeError as fetch() would.
 */
export function postMultipart(url: string, form: FormData, options: UploadOptions = {}): Promise<RawResponse> {
  const { onProgress, signal } = options;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
      });
    }
    xhr.addEventListener('load', () => {
      resolve({ ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status, statusText: xhr.statusText, bodyText: xhr.responseText });
    });
    xhr.addEventListener('error', () => reject(new TypeError('Network request failed')));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was aborted', 'AbortError')));
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('The upload was aborted', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}

import { createReadStream } from 'node:fs';
import type { ObjectStore } from '@logovote/service-kit';

export async function putLogoObject(store: ObjectStore, name: string, path: string, size: number, contentType: string): Promise<void> {
  await store.client.putObject(store.bucket, name, createReadStream(path), size, { 'Content-Type': contentType });
}

export const isMissing = (error: unknown) => ['NotFound', 'NoSuchKey'].includes(String((error as { code?: unknown }).code));

/** Removes the named objects; resolves with how many existed. Missing ones are not an error (deletion is retried). */
export async function removeLogoObjects(store: ObjectStore, names: string[]): Promise<number> {
  const existing = (
    await Promise.all(
      names.map((name) =>
        store.client.statObject(store.bucket, name).then(
          () => name,
          (error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)),
        ),
      ),
    )
  ).filter((name): name is string => name !== undefined);
  if (existing.length === 0) return 0;
  const results = await store.client.removeObjects(store.bucket, existing);
  const failure = results.find((result) => result?.Error && !isMissing({ code: result.Error.Code }));
  if (failure?.Error)
    throw new Error(`could not remove ${failure.Error.Key ?? 'an object'}: ${failure.Error.Code ?? ''} ${failure.Error.Message ?? ''}`);
  return existing.length;
}

/** Where a poll's link preview image is kept (its own prefix: no logo name can take that form). */
export const previewObjectName = (pollId: string) => `previews/${pollId}.png`;

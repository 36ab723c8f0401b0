import { Client } from 'minio';
import type { ReadinessCheck } from './health';

export interface ObjectStoreSettings {
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_BUCKET: string;
  S3_REGION: string;
}

export interface ObjectStore {
  client: Client;
  bucket: string;
}

export function createObjectStore(settings: ObjectStoreSettings): ObjectStore {
  const url = new URL(settings.S3_ENDPOINT);
  const useSSL = url.protocol === 'https:';
  const client = new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: settings.S3_ACCESS_KEY,
    secretKey: settings.S3_SECRET_KEY,
    region: settings.S3_REGION,
    pathStyle: true,
  });
  return { client, bucket: settings.S3_BUCKET };
}

/** Creates the bucket on first start; concurrent starters racing to create it is harmless. */
export async function ensureBucket(store: ObjectStore, region: string): Promise<void> {
  if (await store.client.bucketExists(store.bucket)) return;
  try {
    await store.client.makeBucket(store.bucket, region);
  } catch (error: unknown) {
    const code = (error as { code?: string }).code;
    if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
  }
}

export function objectStoreReadiness(store: ObjectStore): ReadinessCheck {
  return {
    name: 'object-store',
    async check() {
      if (!(await store.client.bucketExists(store.bucket))) throw new Error(`bucket ${store.bucket} is missing`);
    },
  };
}

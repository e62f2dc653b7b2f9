import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** The access key pair s3rver accepts (it checks every request's signature with it). */
const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * An S3-compatible server on a free local port (s3rver, storing objects in a temporary folder), standing
 * in for AWS S3 or MinIO. The product reaches it only through BACKUP_URL and BACKUP_S3_ENDPOINT, signing
 * its requests with the AWS settings in `env`.
 */
export async function startS3Double(bucket = 'haven-backups'): Promise<{
  endpoint: string;
  bucket: string;
  credentials: typeof KEYS;
  /** What the product needs to use the bucket under `prefix`. */
  env(prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}> {
  const directory = await mkdtemp(path.join(tmpdir(), 'haven-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    credentials: KEYS,
    env: (prefix = 'haven') => ({
      BACKUP_URL: `s3://${bucket}/${prefix}`,
      BACKUP_S3_ENDPOINT: endpoint,
      AWS_ACCESS_KEY_ID: KEYS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
      AWS_REGION: 'us-east-1',
    }),
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

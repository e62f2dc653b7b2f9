/** The store BACKUP_URL names: an S3-compatible bucket (s3://bucket/prefix) or a folder. */
import { s3Store, parseS3Url } from './s3-store';
import { directoryStore, type BackupStore } from './store';

/** The settings a bucket needs beside BACKUP_URL (the AWS names; unset, the SDK's default chain). */
export interface BucketSettings {
  BACKUP_S3_ENDPOINT?: string;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
  AWS_REGION?: string;
}

export function backupStoreAt(url: string, settings: BucketSettings = {}): BackupStore {
  const bucket = parseS3Url(url);
  if (!bucket) return directoryStore(url);
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = settings;
  return s3Store(bucket, {
    endpoint: settings.BACKUP_S3_ENDPOINT,
    region: settings.AWS_REGION,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  });
}

/** Whether BACKUP_URL names a bucket (else a folder, whose files messages name by path). */
export const isBucketUrl = (url: string): boolean => url.startsWith('s3://');

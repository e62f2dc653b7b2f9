import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import { type Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Double } from '../../../../../test/doubles/s3-server';
import { parseS3Url, s3Store } from './s3-store';
import { BackupChecksumError, backupName } from './store';
import { backupStoreAt } from './stores';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('parseS3Url', () => {
  it('reads the bucket and the prefix, and nothing else', () => {
    expect(parseS3Url('s3://haven-backups')).toEqual({ bucket: 'haven-backups', prefix: '' });
    expect(parseS3Url('s3://haven-backups/')).toEqual({ bucket: 'haven-backups', prefix: '' });
    expect(parseS3Url('s3://b.example/nightly/haven/')).toEqual({
      bucket: 'b.example',
      prefix: 'nightly/haven',
    });
    expect(parseS3Url('/var/backups')).toBeNull();
    expect(parseS3Url('s3://UPPER/x')).toBeNull();
  });
});

describe('backups in an S3-compatible bucket', () => {
  let s3: Awaited<ReturnType<typeof startS3Double>>;
  let raw: S3Client;
  beforeAll(async () => {
    s3 = await startS3Double();
    raw = new S3Client({
      endpoint: s3.endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: s3.credentials,
    });
  });
  afterAll(async () => {
    raw?.destroy();
    await s3?.stop();
  });
  const store = (prefix: string) =>
    backupStoreAt(`s3://${s3.bucket}/${prefix}`, {
      BACKUP_S3_ENDPOINT: s3.endpoint,
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    });
  const keys = async () =>
    ((await raw.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? [])
      .map((o) => o.Key)
      .sort();

  it('writes a backup in parts with its checksum beside it, lists, reads and removes it', async () => {
    const backups = store('nightly/haven');
    // Past one part (16 MB), so the upload is a multipart one.
    const bytes = randomBytes(20 * 1024 * 1024 + 123);
    const name = backupName(new Date('2026-11-28T03:00:00Z'));
    const file = await backups.write(name, async (out) => {
      for (let i = 0; i < bytes.length; i += 1 << 20) out.write(bytes.subarray(i, i + (1 << 20)));
    });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(file).toMatchObject({ name, size: bytes.length, sha256 });
    expect(await keys()).toEqual([`nightly/haven/${name}`, `nightly/haven/${name}.sha256`]);
    const { Body } = await raw.send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: `nightly/haven/${name}.sha256` }),
    );
    expect(await Body!.transformToString()).toBe(`${sha256}  ${name}\n`);

    expect(await backups.list()).toEqual([
      { name, size: bytes.length, takenAt: new Date('2026-11-28T03:00:00Z'), sha256 },
    ]);
    // Another prefix of the same bucket holds other backups.
    expect(await store('elsewhere').list()).toEqual([]);
    expect((await bytesOf(await backups.open(name))).equals(bytes)).toBe(true);

    await backups.remove(name);
    expect(await backups.list()).toEqual([]);
    expect(await keys()).toEqual([]);
  });

  it('refuses a backup whose bytes no longer match their checksum', async () => {
    const backups = store('damaged');
    const name = backupName(new Date('2026-11-28T04:00:00Z'));
    await backups.write(name, async (out) => void out.write('the journal, whole'));
    await raw.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: `damaged/${name}`, Body: 'the journal, bitten' }),
    );
    await expect(backups.open(name)).rejects.toThrow(BackupChecksumError);
    await backups.remove(name);
  });

  it('leaves nothing in the bucket when writing fails half way', async () => {
    const backups = store('failed');
    const name = backupName(new Date('2026-11-28T05:00:00Z'));
    await expect(
      backups.write(name, async (out) => {
        out.write(randomBytes(17 * 1024 * 1024));
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error('the database went away');
      }),
    ).rejects.toThrow('the database went away');
    expect(await backups.list()).toEqual([]);
    expect((await keys()).filter((k) => k!.startsWith('failed/'))).toEqual([]);
  });

  it('says which bucket cannot be reached', async () => {
    const gone = s3Store(
      { bucket: 'no-such-bucket', prefix: '' },
      { endpoint: s3.endpoint, credentials: s3.credentials },
    );
    await expect(gone.list()).rejects.toThrow(/bucket/i);
  });
});

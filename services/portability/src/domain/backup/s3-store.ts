/**
 * Backups in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2, Garage…):
 * `BACKUP_URL=s3://bucket/prefix`. Each backup is one object, `<prefix>/haven-<time>.backup.gz`,
 * streamed up in parts (a multipart upload, which the bucket shows only once it is complete, so a
 * crash never leaves half a backup in view), with a `<name>.sha256` object beside it in `sha256sum`
 * format. Credentials and region come from the usual AWS settings (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_REGION, or the machine's role); BACKUP_S3_ENDPOINT names a server
 * other than AWS, addressed path-style as those servers expect.
 */
import { createHash } from 'node:crypto';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { BackupChecksumError, hasher, takenAtOf, type BackupFile, type BackupStore } from './store';

export interface S3Location {
  bucket: string;
  /** Key prefix, without slashes at either end ('' for the bucket's top). */
  prefix: string;
}

/** `s3://bucket/some/prefix` → its bucket and prefix; null for anything else. */
export function parseS3Url(url: string): S3Location | null {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) return null;
  return { bucket: m[1]!, prefix: (m[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

export interface S3StoreOptions {
  /** A server other than AWS (http://minio:9000); addressed path-style. */
  endpoint?: string;
  /** AWS_REGION; default us-east-1 (what S3-compatible servers mostly ignore). */
  region?: string;
  /** Unset: the AWS default chain (environment, shared files, the machine's role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Each part of an upload: what one backup holds in memory at most (times the parts in flight). */
const PART_BYTES = 16 * 1024 * 1024;

function clientFor(options: S3StoreOptions): S3Client {
  return new S3Client({
    region: options.region ?? 'us-east-1',
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's newer
    // default (trailing CRC32 on every upload). The backup's own sha256 covers its bytes.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

async function textOf(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

export function s3Store(location: S3Location, options: S3StoreOptions = {}): BackupStore {
  const client = clientFor(options);
  const { bucket } = location;
  const key = (name: string) => {
    if (!takenAtOf(name)) throw new Error(`Not a backup's name: ${name}`);
    return location.prefix ? `${location.prefix}/${name}` : name;
  };
  const recordedSum = async (name: string): Promise<string | null> => {
    try {
      const { Body } = await client.send(
        new GetObjectCommand({ Bucket: bucket, Key: `${key(name)}.sha256` }),
      );
      return /^([0-9a-f]{64}) /.exec(await textOf(Body as Readable))?.[1] ?? null;
    } catch (err) {
      if (err instanceof NoSuchKey) return null;
      throw err;
    }
  };

  /** Every backup object's name and size, across pages. */
  async function listed(): Promise<{ name: string; size: number }[]> {
    const found: { name: string; size: number }[] = [];
    const prefix = location.prefix ? `${location.prefix}/` : '';
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: prefix,
          Delimiter: '/',
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        const name = (object.Key ?? '').slice(prefix.length);
        if (takenAtOf(name)) found.push({ name, size: object.Size ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found.sort((a, b) => a.name.localeCompare(b.name));
  }

  return {
    location: `s3://${bucket}/${location.prefix}`,
    async list() {
      const files: BackupFile[] = [];
      for (const { name, size } of await listed())
        files.push({ name, size, takenAt: takenAtOf(name)!, sha256: await recordedSum(name) });
      return files;
    },
    async write(name, produce) {
      const h = hasher();
      const body = h.pipe(new PassThrough({ highWaterMark: PART_BYTES }));
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: key(name), Body: body, ContentType: 'application/gzip' },
        partSize: PART_BYTES,
        queueSize: 2,
        // A failed upload's parts are removed: nothing half-written stays in the bucket.
        leavePartsOnError: false,
      });
      const uploaded = upload.done();
      try {
        await produce(h);
        h.end();
        await uploaded;
      } catch (err) {
        h.destroy();
        await upload.abort().catch(() => undefined);
        await uploaded.catch(() => undefined);
        throw err;
      }
      const sha256 = h.digest();
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${key(name)}.sha256`,
          Body: `${sha256}  ${name}\n`,
          ContentType: 'text/plain',
        }),
      );
      return { name, size: h.size, takenAt: takenAtOf(name)!, sha256 };
    },
    async open(name) {
      // Read twice: once to check the whole backup against its checksum before a restore touches
      // anything, then for the restore, checked again as it passes (should the object change
      // between), so that nothing needs room on this machine's disk.
      const recorded = await recordedSum(name);
      const get = async () =>
        (await client.send(new GetObjectCommand({ Bucket: bucket, Key: key(name) }))).Body as Readable;
      if (!recorded) return get();
      const damaged = () =>
        new BackupChecksumError(`${name} does not match its checksum: the file is damaged`);
      const first = hasher();
      await pipeline(await get(), first, new PassThrough().resume());
      if (first.digest() !== recorded) throw damaged();
      const again = createHash('sha256');
      const checked = new Transform({
        transform(chunk: Buffer, _enc, done) {
          again.update(chunk);
          done(null, chunk);
        },
        flush(done) {
          done(again.digest('hex') === recorded ? null : damaged());
        },
      });
      const body = await get();
      body.once('error', (err) => checked.destroy(err));
      return body.pipe(checked);
    },
    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key(name) }));
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${key(name)}.sha256` }));
    },
  };
}

import { Transform, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import { IMPORT_LIMITS, inMegabytes } from '@haven/contracts/portability';
import type { StoredBlob } from '../blob-store';
import { rangeStream } from './blob-range';
import { distinctName, ImportLimitError, sourceOf, type ImportSource, type SourceEntry } from './source';

/** yauzl reads the stored zip through this: byte ranges, straight from the database. */
class BlobReader extends yauzl.RandomAccessReader {
  constructor(private readonly blob: StoredBlob) {
    super();
  }
  override _readStreamForRange(start: number, end: number): Readable {
    return rangeStream(this.blob, start, end);
  }
}

const isSymlink = (entry: yauzl.Entry) => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An entry's name. A zip says its names are UTF-8 with a flag, else they are DOS code page 437, as
 * yauzl reads them; but macOS's Archive Utility writes UTF-8 names without the flag (`Search –
 * and Find` would read `Search ΓÇô and Find`): a name without the flag that is valid UTF-8 is read
 * as UTF-8 (a code-page-437 name with accents is almost never valid UTF-8). Names are in NFC, as
 * people type them (macOS writes é as e and an accent).
 */
function entryName(entry: yauzl.Entry): string {
  let name = entry.fileName;
  const flagged = (entry.generalPurposeBitFlag & 0x800) !== 0;
  const unicodeField = entry.extraFields.some((field) => field.id === 0x7075);
  if (!flagged && !unicodeField && entry.fileNameRaw.some((byte) => byte >= 0x80)) {
    try {
      name = utf8.decode(entry.fileNameRaw).replace(/\\/g, '/');
    } catch {
      // Not UTF-8: code page 437, as yauzl read it.
    }
  }
  return name.normalize('NFC');
}

/** yauzl's own complaints about a name, said for a person. */
function unsafeName(message: string): string | undefined {
  const name = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(
    message,
  )?.[1];
  return name === undefined
    ? undefined
    : `The zip holds a file named "${name.slice(0, 200)}" that points outside the zip; nothing was imported`;
}

/**
 * Opens the stored zip for reading: the central directory is read first and refused whole when it
 * is unsafe (more files than the limit, a name that climbs out with `..` or is absolute, a symbolic
 * link). Every read is capped by its uncompressed bytes as they come, not by what the zip claims,
 * and all reads together by IMPORT_LIMITS.totalBytes, so a zip bomb stops at the limit.
 */
export async function openZipSource(blob: StoredBlob): Promise<ImportSource> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromRandomAccessReader(
        new BlobReader(blob),
        blob.size,
        { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
        (err, opened) => (err || !opened ? reject(err ?? new Error('no zip')) : resolve(opened)),
      ),
    );
  } catch {
    throw new ImportLimitError('The file is not a zip archive');
  }
  if (zip.entryCount > IMPORT_LIMITS.files)
    throw new ImportLimitError(
      `The zip holds ${zip.entryCount} files, more than the limit of ${IMPORT_LIMITS.files}; nothing was imported`,
    );

  const byName = new Map<string, yauzl.Entry>();
  const entries: SourceEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', (err: Error) =>
      reject(
        new ImportLimitError(unsafeName(err.message) ?? 'The zip archive is damaged; nothing was imported'),
      ),
    );
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      if (isSymlink(entry))
        return reject(
          new ImportLimitError(
            `The zip holds a symbolic link ("${entry.fileName.slice(0, 200)}"); nothing was imported`,
          ),
        );
      const name = entryName(entry);
      const unsafe = yauzl.validateFileName(name);
      if (unsafe !== null)
        return reject(
          new ImportLimitError(unsafeName(unsafe) ?? 'The zip archive is damaged; nothing was imported'),
        );
      if (!name.endsWith('/')) {
        const distinct = distinctName(name, byName);
        byName.set(distinct, entry);
        entries.push({ name: distinct, size: entry.uncompressedSize, time: entry.getLastModDate() });
      }
      zip.readEntry();
    });
    zip.readEntry();
  });

  let readInAll = 0;
  const tooBig = (name: string, max: number) =>
    new ImportLimitError(
      `"${name.slice(0, 200)}" is larger than ${inMegabytes(max)} uncompressed, the limit for such a file; nothing was imported`,
    );

  function stream(name: string, max: number): Readable {
    const entry = byName.get(name);
    if (!entry) throw new Error(`No entry ${name}`);
    if (entry.uncompressedSize > max) throw tooBig(name, max);
    let seen = 0;
    const cap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        readInAll += chunk.length;
        if (seen > max) return done(tooBig(name, max));
        if (readInAll > IMPORT_LIMITS.totalBytes)
          return done(
            new ImportLimitError(
              `The zip holds more than ${inMegabytes(IMPORT_LIMITS.totalBytes)} of notes and data uncompressed; nothing was imported`,
            ),
          );
        done(null, chunk);
      },
    });
    zip.openReadStream(entry, (err, raw) => {
      if (err || !raw) return void cap.destroy(damaged(name, err));
      raw.on('error', (e: Error) => cap.destroy(damaged(name, e)));
      raw.pipe(cap);
    });
    return cap;
  }

  return sourceOf(entries, stream);
}

/** A read that failed inside the zip: a size that lies (a bomb) or damaged data. */
function damaged(name: string, err: Error | null): Error {
  if (err instanceof ImportLimitError) return err;
  const lies = /too many bytes|expected \d+ bytes/i.test(err?.message ?? '');
  return new ImportLimitError(
    lies
      ? `"${name.slice(0, 200)}" holds more than the zip says it does; nothing was imported`
      : `"${name.slice(0, 200)}" could not be read from the zip (${err?.message ?? 'damaged'}); nothing was imported`,
  );
}

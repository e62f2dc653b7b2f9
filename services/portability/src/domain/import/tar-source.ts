import { Transform, type Readable } from 'node:stream';
import { Header, Pax, type HeaderData } from 'tar';
import yauzl from 'yauzl';
import { IMPORT_LIMITS, inMegabytes } from '@haven/contracts/portability';
import type { StoredBlob } from '../blob-store';
import { rangeStream } from './blob-range';
import { distinctName, ImportLimitError, sourceOf, type ImportSource, type SourceEntry } from './source';

/**
 * A tar read like a zip (see zip-source.ts): what Joplin's JEX export is (a tar of RAW items,
 * uncompressed). Its headers are read first, a 512-byte block each (`tar`'s own Header and Pax
 * decode them, long names included), and the archive is refused whole when it is unsafe: more
 * files than the limit, a name that climbs out with `..` or is absolute, a link. A tar stores its
 * files as they are, so an entry is a byte range of the upload, read when a reader asks for it.
 */

const BLOCK = 512;
/** A pax or long-name record is a few hundred bytes; one larger than this is no real archive. */
const RECORD_LIMIT = 64 * 1024;

const padded = (size: number) => Math.ceil(size / BLOCK) * BLOCK;

/** Whether the stored file is a tar: its first block is a header whose checksum holds. */
export async function isTar(blob: StoredBlob): Promise<boolean> {
  if (blob.size < BLOCK) return false;
  const header = headerOf(await blob.readRange(0, BLOCK));
  return header !== null && header.cksumValid && !header.nullBlock;
}

const damaged = () => new ImportLimitError('The tar archive is damaged; nothing was imported');

/** A block decoded as a header, or null when its fields cannot be (`tar` throws on some). */
function headerOf(block: Buffer, next?: HeaderData, global?: HeaderData): Header | null {
  try {
    return new Header(block, 0, next, global);
  } catch {
    return null;
  }
}

/** An entry's name as the readers want it: `/`-separated, no leading `./`, in NFC. */
const entryName = (path: string) => path.replace(/^(?:\.\/)+/, '').normalize('NFC');

/** A name that climbs out of the archive, as the zip reader words it. */
function unsafeName(name: string): ImportLimitError | null {
  if (yauzl.validateFileName(name) === null) return null;
  return new ImportLimitError(
    `The archive holds a file named "${name.slice(0, 200)}" that points outside it; nothing was imported`,
  );
}

interface Located {
  offset: number;
  size: number;
}

/**
 * The files of a tar listed so far, and what pax records (or a GNU long name) say of the headers
 * still to come.
 */
interface Listing {
  entries: SourceEntry[];
  byName: Map<string, Located>;
  /** Of the next header. */
  next?: HeaderData;
  /** Of every header after. */
  global?: HeaderData;
}

/** Every file of the tar with where its bytes are, reading its headers only. */
async function listTar(blob: StoredBlob): Promise<{ entries: SourceEntry[]; byName: Map<string, Located> }> {
  const listing: Listing = { entries: [], byName: new Map() };
  for (let at = 0; at + BLOCK <= blob.size;) {
    const header = headerOf(await blob.readRange(at, at + BLOCK), listing.next, listing.global);
    if (!header) throw damaged();
    if (header.nullBlock) break;
    if (!header.cksumValid) throw damaged();
    const size = header.size ?? 0;
    const dataAt = at + BLOCK;
    if (dataAt + size > blob.size) throw damaged();
    at = dataAt + padded(size);
    if (!(await readRecordHeader(blob, header, { offset: dataAt, size }, listing)))
      addEntry(listing, header, dataAt);
  }
  return { entries: listing.entries, byName: listing.byName };
}

/**
 * A header that describes the header after it (or all of them), read into `listing`: whether it was
 * one. A link is refused.
 */
async function readRecordHeader(
  blob: StoredBlob,
  header: Header,
  data: Located,
  listing: Listing,
): Promise<boolean> {
  const record = async () => {
    if (data.size > RECORD_LIMIT) throw damaged();
    return (await blob.readRange(data.offset, data.offset + data.size)).toString('utf8');
  };
  switch (header.type) {
    case 'ExtendedHeader':
      listing.next = Pax.parse(await record(), listing.next, false);
      return true;
    case 'GlobalExtendedHeader':
      listing.global = Pax.parse(await record(), listing.global, true);
      return true;
    case 'NextFileHasLongPath':
      listing.next = { ...listing.next, path: (await record()).replace(/\0[^]*$/, '') };
      return true;
    case 'NextFileHasLongLinkpath':
      return true;
    case 'SymbolicLink':
    case 'Link':
      throw new ImportLimitError(
        `The archive holds a link ("${(header.path ?? '').slice(0, 200)}"); nothing was imported`,
      );
    default:
      return false;
  }
}

/** The entry of a header, its data at `offset`, added to `listing` when it is a file. */
function addEntry(listing: Listing, header: Header, offset: number): void {
  const { next, global, entries, byName } = listing;
  // The header decodes its own name fields around a pax path; the pax path is the name.
  const name = entryName(next?.path ?? global?.path ?? header.path ?? '');
  listing.next = undefined;
  const unsafe = unsafeName(name);
  if (unsafe) throw unsafe;
  const isFile = header.type === 'File' || header.type === 'OldFile' || header.type === 'ContiguousFile';
  if (!isFile || name === '' || name.endsWith('/')) return;
  if (entries.length === IMPORT_LIMITS.files)
    throw new ImportLimitError(
      `The archive holds more than ${IMPORT_LIMITS.files} files, the limit; nothing was imported`,
    );
  const size = header.size ?? 0;
  const distinct = distinctName(name, byName);
  byName.set(distinct, { offset, size });
  entries.push({ name: distinct, size, time: header.mtime ?? new Date(0) });
}

/**
 * Opens a stored tar for reading. Every read is capped by the limit it is given and all reads
 * together by IMPORT_LIMITS.totalBytes, as the zip reader's are.
 */
export async function openTarSource(blob: StoredBlob): Promise<ImportSource> {
  const { entries, byName } = await listTar(blob);
  let readInAll = 0;
  const tooBig = (name: string, max: number) =>
    new ImportLimitError(
      `"${name.slice(0, 200)}" is larger than ${inMegabytes(max)}, the limit for such a file; nothing was imported`,
    );

  function stream(name: string, max: number): Readable {
    const entry = byName.get(name);
    if (!entry) throw new Error(`No entry ${name}`);
    if (entry.size > max) throw tooBig(name, max);
    const pieces = rangeStream(blob, entry.offset, entry.offset + entry.size);
    const cap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        readInAll += chunk.length;
        if (readInAll > IMPORT_LIMITS.totalBytes)
          return done(
            new ImportLimitError(
              `The archive holds more than ${inMegabytes(IMPORT_LIMITS.totalBytes)} of notes and data; nothing was imported`,
            ),
          );
        done(null, chunk);
      },
    });
    pieces.on('error', (err: Error) => cap.destroy(err));
    return pieces.pipe(cap);
  }

  return sourceOf(entries, stream);
}

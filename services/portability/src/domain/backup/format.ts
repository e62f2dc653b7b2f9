/**
 * A Haven backup file: the rows of every service's tables as PostgreSQL COPY text, gzip'd, one pass.
 *
 *   -- Haven backup (README, "Backups"). …
 *   -- manifest {"format":"haven-backup","version":1,"services":{…},"sequences":[…],…}
 *   -- table {"schema":"auth","name":"users","columns":["id",…]}
 *   <one line per row, COPY text>
 *   \.
 *   …
 *   -- end {"rows":{"auth.users":3,…}}
 *
 * The schema is not in the file: a restore builds it with the migrations the manifest names, so one
 * file restores into PostgreSQL of any version and into PGlite alike. A row can never read `\.`
 * (COPY writes a backslash as `\\`), and the closing line proves the file was not cut short.
 * It never holds a key: the rows are as encrypted as they are in the database.
 */
import { createInterface } from 'node:readline';
import { Transform, type Readable, type Writable } from 'node:stream';
import { z } from 'zod';
import type { MigrationLevel, Snapshot, TableInfo } from '../../db/backup.repository';

export const BACKUP_FORMAT = 'haven-backup';
export const BACKUP_FORMAT_VERSION = 1;

const Manifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_FORMAT_VERSION),
  createdAt: z.string(),
  engine: z.enum(['pg', 'pglite']),
  /** The id (keyIdOf) of the DATA_ENCRYPTION_KEY its rows were written with, when the taker knew it. */
  keyId: z.string().nullable().optional(),
  services: z.record(z.string(), z.object({ count: z.number().int(), last: z.number().nullable() })),
  schemas: z.array(z.string()),
  sequences: z.array(
    z.object({ schema: z.string(), name: z.string(), lastValue: z.string(), isCalled: z.boolean() }),
  ),
});
export type BackupManifest = z.infer<typeof Manifest>;

const Table = z.object({ schema: z.string(), name: z.string(), columns: z.array(z.string()).min(1) });
const End = z.object({ rows: z.record(z.string(), z.number().int()) });

const HEADER = [
  '-- Haven backup: restore with `npm run restore FILE` (README, "Backups").',
  '-- It holds no key. Without the DATA_ENCRYPTION_KEY the journal was written with, it cannot be read.',
];
const END_OF_ROWS = '\\.';

/** A bad or incomplete backup file, said in words an operator can act on. */
export class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/** Counts the lines (rows) that pass through. */
function rowCounter(): Transform & { rows: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      let at = chunk.indexOf(10);
      while (at !== -1) {
        counter.rows++;
        at = chunk.indexOf(10, at + 1);
      }
      done(null, chunk);
    },
  }) as Transform & { rows: number };
  counter.rows = 0;
  return counter;
}

async function writeLine(out: Writable, line: string): Promise<void> {
  if (!out.write(`${line}\n`)) await new Promise((resolve) => out.once('drain', resolve));
}

/** What a backup covers: the services (each with its schema) and how it was taken. */
export interface BackupScope {
  services: readonly string[];
  engine: BackupManifest['engine'];
  createdAt: Date;
  /** The current key's id, when known: a restore can tell the key it will need. */
  keyId: string | null;
}

/** Writes the whole snapshot to `out` (uncompressed; not ended). Resolves with the rows per table. */
export async function writeBackup(
  snapshot: Snapshot,
  out: Writable,
  scope: BackupScope,
): Promise<Record<string, number>> {
  const schemas = [...scope.services];
  const services: Record<string, MigrationLevel> = {};
  for (const s of scope.services) services[s] = await snapshot.migrationLevel(s);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_FORMAT_VERSION,
    createdAt: scope.createdAt.toISOString(),
    engine: scope.engine,
    keyId: scope.keyId,
    services,
    schemas,
    sequences: await snapshot.sequences(schemas),
  };
  for (const line of HEADER) await writeLine(out, line);
  await writeLine(out, `-- manifest ${JSON.stringify(manifest)}`);
  const rows: Record<string, number> = {};
  for (const table of await snapshot.tables(schemas)) {
    await writeLine(out, `-- table ${JSON.stringify(tableHeader(table))}`);
    const counter = rowCounter();
    counter.pipe(out, { end: false });
    await snapshot.copyOut(table, counter);
    counter.end();
    await new Promise((resolve) => counter.once('end', resolve));
    rows[`${table.schema}.${table.name}`] = counter.rows;
    await writeLine(out, END_OF_ROWS);
  }
  await writeLine(out, `-- end ${JSON.stringify({ rows })}`);
  return rows;
}

const tableHeader = (t: TableInfo) => ({ schema: t.schema, name: t.name, columns: t.columns });

/** One part of a backup as it is read: its manifest first, then each table with its rows. */
export type BackupPart =
  | { kind: 'manifest'; manifest: BackupManifest }
  | { kind: 'table'; table: TableInfo; rows: AsyncIterable<Buffer> }
  | { kind: 'end'; rows: Record<string, number> };

function parseLine<T>(line: string, tag: string, schema: z.ZodType<T>): T {
  const prefix = `-- ${tag} `;
  if (!line.startsWith(prefix))
    throw new BackupFileError(`Not a Haven backup, or damaged: expected "${tag}"`);
  let value: unknown;
  try {
    value = JSON.parse(line.slice(prefix.length));
  } catch {
    throw new BackupFileError(`Damaged backup: its ${tag} line is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BackupFileError(`Damaged backup: its ${tag} line is not as expected`);
  return parsed.data;
}

/** How much row text is handed on at once. */
const BATCH_BYTES = 1024 * 1024;

/**
 * Reads a backup (already un-gzip'd) part by part. Each table's rows must be read to the end before
 * the next part; a file that ends early, or whose row counts differ from its closing line, throws.
 */
export async function* readBackup(input: Readable): AsyncGenerator<BackupPart> {
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done) throw new BackupFileError('The backup ends early: it was cut short or is damaged');
    return value;
  };
  let line = await next();
  while (line.startsWith('-- ') && !line.startsWith('-- manifest ')) line = await next();
  const manifest = parseLine(line, 'manifest', Manifest);
  yield { kind: 'manifest', manifest };
  const counted: Record<string, number> = {};
  for (;;) {
    line = await next();
    if (line.startsWith('-- end ')) break;
    const table = parseLine(line, 'table', Table);
    const key = `${table.schema}.${table.name}`;
    counted[key] = 0;
    let finished = false;
    async function* rows(): AsyncGenerator<Buffer> {
      let batch: string[] = [];
      let size = 0;
      for (let row = await next(); row !== END_OF_ROWS; row = await next()) {
        batch.push(row, '\n');
        size += row.length + 1;
        counted[key]!++;
        if (size >= BATCH_BYTES) {
          yield Buffer.from(batch.join(''));
          batch = [];
          size = 0;
        }
      }
      finished = true;
      if (size > 0) yield Buffer.from(batch.join(''));
    }
    yield { kind: 'table', table, rows: rows() };
    if (!finished) throw new BackupFileError(`The rows of ${key} were not read to their end`);
  }
  const end = parseLine(line, 'end', End);
  for (const [key, n] of Object.entries(end.rows))
    if (counted[key] !== n)
      throw new BackupFileError(`Damaged backup: ${key} should have ${n} rows, it has ${counted[key] ?? 0}`);
  yield { kind: 'end', rows: end.rows };
}

import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import yauzl from 'yauzl';
import { z } from 'zod';
import {
  IMPORT_LIMITS,
  ImportedConversation,
  ImportedThought,
  assistantPortabilityContract,
  thoughtsPortabilityContract,
  type ImportError,
} from '@haven/contracts/portability';
import type { Db } from '@haven/kit/db';
import type { InternalClients } from '@haven/kit/internal-client';
import type { Logger } from '@haven/kit/logger';
import { dataTransfers } from '../../db/schema';
import type { TransferFiles } from './files';
import { readNote } from './notes';

interface ZipEntry {
  name: string;
  size: number;
  time: Date;
  read(): Promise<Buffer>;
}

/** The files of a zip (directories left out), each readable on demand. */
function openZip(buffer: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('Not a zip'));
      const entries: ZipEntry[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) {
          if (entries.length >= IMPORT_LIMITS.files)
            return reject(new Error(`The zip holds more than ${IMPORT_LIMITS.files} files`));
          entries.push({
            name: entry.fileName,
            size: entry.uncompressedSize,
            time: entry.getLastModDate(),
            read: () =>
              new Promise<Buffer>((ok, fail) =>
                zip.openReadStream(entry, (e, stream) => {
                  if (e || !stream) return fail(e ?? new Error('Unreadable entry'));
                  const chunks: Buffer[] = [];
                  stream.on('data', (c: Buffer) => chunks.push(c));
                  stream.on('error', fail);
                  stream.on('end', () => ok(Buffer.concat(chunks)));
                }),
              ),
          });
        }
        zip.readEntry();
      });
      zip.readEntry();
    });
  });
}

/** The line of a JSON syntax error, from the position V8 names in its message. */
function jsonErrorLine(text: string, err: Error): number | undefined {
  const at = /position (\d+)/.exec(err.message)?.[1];
  return at === undefined ? undefined : text.slice(0, Number(at)).split('\n').length;
}

/** Parses a JSON array file, every item checked; a bad file is one error and imports nothing. */
function readArray<T extends z.ZodType>(
  file: string,
  text: string,
  item: T,
): { items: Array<z.infer<T>> } | { error: ImportError } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return {
      error: { file, line: jsonErrorLine(text, err as Error), message: 'The file is not valid JSON' },
    };
  }
  if (!Array.isArray(json)) return { error: { file, line: 1, message: 'The file must hold a list' } };
  const items: Array<z.infer<T>> = [];
  for (const [i, value] of json.entries()) {
    const parsed = item.safeParse(value);
    if (!parsed.success) {
      // Each item of our export is on its own line, after the opening bracket.
      const issue = parsed.error.issues[0]!;
      return {
        error: {
          file,
          line: i + 2,
          message: `Item ${i + 1}: ${issue.path.join('.') || 'value'}: ${issue.message}`,
        },
      };
    }
    items.push(parsed.data);
  }
  return { items };
}

const ExportedThoughtLine = ImportedThought.omit({ audio: true }).extend({
  audioFile: z.string().max(200).nullable().optional(),
});

const isNote = (name: string) =>
  /\.(md|markdown|txt)$/i.test(name) &&
  !name.split('/').some((part) => part.startsWith('.') || part === '__MACOSX');

export interface ImportDeps {
  db: Db;
  internal: InternalClients;
  files: TransferFiles;
  log: Logger;
}

/**
 * Imports an uploaded zip: this product's own export (thoughts with their audio, conversations),
 * or a folder of Markdown or text notes, one thought per file. Thoughts with the same text and time
 * as one the user has are skipped, so importing twice adds nothing. Each file is read whole before
 * any of it is imported: a malformed one is named (with its line) and nothing of it is imported.
 */
export async function runImport(deps: ImportDeps, userId: number, transferId: string): Promise<void> {
  const { db, files } = deps;
  const [row] = await db.select().from(dataTransfers).where(eq(dataTransfers.id, transferId));
  if (!row || row.status === 'done' || row.status === 'failed' || !row.iv || !row.tag) return;
  const thoughts = deps.internal('thoughts', thoughtsPortabilityContract)(userId);
  const conversations = deps.internal('assistant', assistantPortabilityContract)(userId);
  const result = { imported: 0, skipped: 0, errors: [] as ImportError[] };
  const save = (patch: Partial<typeof dataTransfers.$inferInsert>) =>
    db.update(dataTransfers).set(patch).where(eq(dataTransfers.id, transferId));
  await save({ status: 'running', progress: 0 });

  const finish = async (status: 'done' | 'failed') => {
    await save({ status, progress: 100, result });
    await files.remove(transferId);
    deps.log.info(
      { transferId, imported: result.imported, skipped: result.skipped, errors: result.errors.length },
      'import finished',
    );
  };

  let entries: ZipEntry[];
  try {
    const sealed = await readFile(files.pathOf(transferId));
    const decipher = files.decrypter(transferId, row.iv, row.tag);
    entries = await openZip(Buffer.concat([decipher.update(sealed), decipher.final()]));
  } catch (err) {
    result.errors.push({
      file: 'upload',
      message: (err as Error).message.startsWith('The zip')
        ? (err as Error).message
        : 'The file is not a zip archive',
    });
    return finish('failed');
  }
  const byName = new Map(entries.map((e) => [e.name, e]));

  /** Sends thoughts in batches (smaller when they carry audio). */
  const sendThoughts = async (items: ImportedThought[], progressFrom: number, progressTo: number) => {
    let batch: ImportedThought[] = [];
    let bytes = 0;
    let sent = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const counts = (await thoughts.importThoughts({ body: { items: batch } })).body;
      result.imported += counts.imported;
      result.skipped += counts.skipped;
      sent += batch.length;
      batch = [];
      bytes = 0;
      await save({
        progress: Math.round(progressFrom + ((progressTo - progressFrom) * sent) / items.length),
      });
    };
    for (const item of items) {
      batch.push(item);
      bytes += item.content.length + (item.audio?.data.length ?? 0);
      if (batch.length >= 200 || bytes > 4_000_000) await flush();
    }
    await flush();
  };

  const own = byName.get('thoughts.json');
  if (own) {
    const text = (await own.read()).toString('utf8');
    const read = readArray('thoughts.json', text, ExportedThoughtLine);
    if ('error' in read) result.errors.push(read.error);
    else {
      const items: ImportedThought[] = [];
      for (const { audioFile, ...t } of read.items) {
        const audio = audioFile ? byName.get(audioFile) : undefined;
        const ext = audioFile?.split('.').pop() ?? 'webm';
        items.push({
          ...t,
          audio: audio
            ? {
                mimeType: `audio/${ext === 'mp3' ? 'mpeg' : ext}`,
                data: (await audio.read()).toString('base64'),
              }
            : null,
        });
      }
      await sendThoughts(items, 0, 80);
    }
    const chats = byName.get('conversations.json');
    if (chats) {
      const text = (await chats.read()).toString('utf8');
      const read = readArray('conversations.json', text, ImportedConversation);
      if ('error' in read) result.errors.push(read.error);
      else
        for (let i = 0; i < read.items.length; i += 50) {
          const counts = (
            await conversations.importConversations({ body: { items: read.items.slice(i, i + 50) } })
          ).body;
          result.imported += counts.imported;
          result.skipped += counts.skipped;
        }
    }
    return finish('done');
  }

  // A folder of notes: one thought per Markdown or text file.
  const notes = entries.filter((e) => isNote(e.name));
  if (notes.length === 0) {
    result.errors.push({
      file: 'upload',
      message: 'The zip holds no thoughts.json and no Markdown or text notes',
    });
    return finish('failed');
  }
  const items: ImportedThought[] = [];
  for (const note of notes) {
    if (note.size > IMPORT_LIMITS.fileBytes) {
      result.errors.push({ file: note.name, message: 'The note is larger than 1 MB' });
      continue;
    }
    const outcome = readNote(note.name, (await note.read()).toString('utf8'), note.time);
    if ('error' in outcome) result.errors.push(outcome.error);
    else items.push(outcome.thought);
  }
  await sendThoughts(items, 10, 95);
  return finish('done');
}

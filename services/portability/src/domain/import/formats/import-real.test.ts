import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoredBlob } from '../../blob-store';
import type { ImportItem } from '../source';
import { openZipSource } from '../zip-source';
import { zipEntries } from '../../../../test/support/probe-zips';
import { detectFormat } from './index';
import { filesUnder, REAL } from './labelled.test-support';
import { problemsOf, readAll, thoughtsOf } from './memory-source.test-support';
import { corpusPresent } from '@haven/kit/corpus';

/*
 * Every export in ../shared/corpora/import-real (real exports and other importers' own test files,
 * read in place, never copied: SOURCES.md there names each) imported as a user would upload it: a
 * folder zipped as it is, a zip as it is. Whatever a file holds, the import never throws, loses no
 * note (a note that cannot be read whole is imported with what can be, and only a file with no note
 * in it fails), and leaves no markup or placeholder of the app it came from in the text. The
 * labelled checks of titles, tags and task states are in each reader's own tests.
 */

/** One upload: a folder of the corpus (zipped under its own name) or a zip file in it. */
interface Upload {
  name: string;
  /** The format it is detected as. */
  format: string;
  /**
   * Files that fail, each with why it is right (they hold no note at all): every other failure is
   * a lost note.
   */
  failing?: Record<string, RegExp>;
}

const UPLOADS: Upload[] = [
  { name: 'dayone/bsingr', format: 'dayone' },
  { name: 'dayone/ergebnis', format: 'dayone' },
  { name: 'dayone/pkamppur', format: 'dayone' },
  { name: 'enex/evernote-to-sqlite', format: 'evernote' },
  { name: 'enex/evernote2md', format: 'evernote' },
  { name: 'enex/joplin', format: 'evernote' },
  { name: 'enex/notallyx', format: 'evernote' },
  { name: 'enex/notesnook', format: 'evernote' },
  { name: 'enex/yarle', format: 'evernote' },
  { name: 'obsidian-importer/evernote', format: 'evernote' },
  { name: 'joplin/frontmatter-yaml', format: 'notes' },
  { name: 'joplin/notesnook-jex/03_10_2022', format: 'joplin' },
  { name: 'keep/notallyx', format: 'keep' },
  { name: 'keep/notallyx-german', format: 'keep' },
  { name: 'keep/notesnook-2021', format: 'keep' },
  { name: 'keep/notesnook-2023', format: 'keep' },
  { name: 'keep/notesnook-2026/takeout-20260605T094613Z-3-001.zip', format: 'keep' },
  { name: 'other/logseq-exporter-test-graph', format: 'logseq' },
  { name: 'other/notesnook-md', format: 'notes' },
  { name: 'other/notion-md', format: 'notion' },
  { name: 'other/obsidian-importer-markdown', format: 'notes' },
  { name: 'other/simplenote/notes_1.zip', format: 'simplenote' },
  { name: 'other/simplenote/simplenote.zip', format: 'simplenote' },
  { name: 'other/textbundle', format: 'textbundle' },
];

/** What an app leaves in a note when its markup or a placeholder is imported as text. */
const LEFT_BEHIND =
  /<\/?(?:en-note|en-media|en-todo|en-crypt|div|span|table|td)\b|]]>|Content not supported|Inhalt nicht unterstützt|placeholder for Tasks/i;

/** A stored blob over bytes in memory, as the import's blob store gives one. */
function bufferBlob(bytes: Buffer): StoredBlob {
  return {
    id: 'corpus',
    size: bytes.length,
    readRange: async (start, end) => bytes.subarray(start, end),
    stream: () => Readable.from([bytes]),
  };
}

/** The upload's bytes: the zip as it is, or the folder zipped under its own name. */
async function zipOf(upload: Upload): Promise<Buffer> {
  const where = path.join(REAL, upload.name);
  if (upload.name.endsWith('.zip')) return readFileSync(where);
  const top = path.basename(where);
  return zipEntries(
    filesUnder(where).map((file) => ({ name: `${top}/${file}`, data: readFileSync(path.join(where, file)) })),
    statSync(where).mtime,
  );
}

async function importOf(upload: Upload): Promise<{ format: string | null; items: ImportItem[] }> {
  const source = await openZipSource(bufferBlob(await zipOf(upload)));
  const reader = detectFormat(source.entries);
  return { format: reader?.format ?? null, items: reader ? await readAll(reader, source) : [] };
}

describe.runIf(corpusPresent(REAL))('real exports of other apps', () => {
  const figures: string[] = [];

  it.each(UPLOADS)(
    '$name: detected, no note lost, nothing left behind',
    async (upload) => {
      const { format, items } = await importOf(upload);
      expect(format).toBe(upload.format);
      const failed = problemsOf(items).filter((p) => p.outcome === 'failed');
      const unexpected = failed.filter((p) => !upload.failing?.[p.file]?.test(p.reason));
      expect(unexpected.map((p) => `${p.file}: ${p.reason}`).join('\n')).toBe('');
      const thoughts = thoughtsOf(items);
      expect(thoughts.length).toBeGreaterThan(0);
      const leftBehind = thoughts.filter((t) => LEFT_BEHIND.test(t.thought.content));
      expect(leftBehind.map((t) => `${t.file}: ${LEFT_BEHIND.exec(t.thought.content)![0]}`).join('\n')).toBe(
        '',
      );
      const skipped = problemsOf(items).length - failed.length;
      figures.push(
        `${upload.name}: ${thoughts.length} thoughts, ${skipped} skipped, ${failed.length} failed (format ${format})`,
      );
    },
    60_000,
  );

  afterAll(() => {
    console.log(`Real exports (../shared/corpora/import-real):\n  ${figures.join('\n  ')}`);
  });
});

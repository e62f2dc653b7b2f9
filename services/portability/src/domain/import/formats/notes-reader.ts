import { IMPORT_LIMITS, type ImportFormat } from '@haven/contracts/portability';
import { ImportLimitError, type FormatReader, type ImportSource, type SourceEntry } from '../source';
import { dateFromFileName } from './dates';
import {
  baseName,
  hiddenReason,
  noteKind,
  notANote,
  relativeName,
  stem,
  textBundleOf,
  topFolder,
} from './entries';
import { htmlNote, isHtmlPage } from './html-note';
import { markdownNote } from './markdown-note';
import { skipped, walkEntries, tooLarge } from './walk';

/** A TextBundle's `info.json` is a few hundred bytes; a bigger one is not read. */
const INFO_BYTES = 64 * 1024;

/**
 * A TextBundle's `info.json` as metadata: its fields and those of the objects in it (apps keep
 * theirs under their own key, `net.shinyfrog.bear`), so that a creation date anywhere is found.
 * Empty when it is missing, too large or not JSON.
 */
async function bundleInfo(source: ImportSource, entry: SourceEntry | undefined) {
  if (!entry || entry.size > INFO_BYTES) return {};
  let info: unknown;
  try {
    info = JSON.parse((await source.read(entry.name, INFO_BYTES)).toString('utf8'));
  } catch (err) {
    if (err instanceof ImportLimitError) throw err;
    return {};
  }
  if (!info || typeof info !== 'object' || Array.isArray(info)) return {};
  const meta: Record<string, unknown> = {};
  const fields = Object.entries(info);
  for (const [, value] of fields)
    if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(meta, value);
  // The bundle's own fields win over an app's.
  for (const [key, value] of fields) meta[key] = value;
  return meta;
}

/**
 * A folder of Markdown and text notes (an Obsidian vault, Bear, iA Writer, any plain folder): one
 * note per `.md`, `.markdown` or `.txt` file; everything else is listed as skipped, never read.
 * A TextBundle's text (Bear, Ulysses: `Note.textbundle/text.md`) is titled by its first line (a
 * heading or not; the file is always called "text") and dated by the bundle's `info.json` when it
 * holds a date, which is the one file beside a note that is read. A folder of mostly web pages
 * (Apple Notes exporters, Evernote's and Notion's HTML exports) has its pages read as notes too.
 */
export function notesReader(
  format: Extract<ImportFormat, 'notes' | 'obsidian' | 'textbundle' | 'html'>,
): FormatReader {
  return {
    format,
    read(source, options) {
      const top = topFolder(source.entries);
      const byName = new Map(source.entries.map((e) => [e.name, e]));
      return walkEntries(source, options, async (entry) => {
        const rel = relativeName(entry.name, top);
        const kind = noteKind(rel);
        const hidden = hiddenReason(rel);
        if (format === 'html' && !hidden && isHtmlPage(rel)) return htmlNote(source, entry, rel, options.now);
        if (hidden || !kind) return skipped(hidden ?? notANote(rel));
        if (entry.size > IMPORT_LIMITS.fileBytes) return tooLarge();
        const raw = await source.read(entry.name, IMPORT_LIMITS.fileBytes);
        // The full name: a zip of one bundle has the bundle as its top folder.
        const bundle = textBundleOf(entry.name);
        return markdownNote(raw, entry, kind, {
          now: options.now,
          fallbackTitle: bundle === null ? stem(rel) : stem(bundle),
          fileDate: dateFromFileName(baseName(bundle ?? rel)),
          indentedCode: true,
          ...(bundle !== null && {
            titleFromFirstLine: true,
            sidecar: await bundleInfo(source, byName.get(`${bundle}/info.json`)),
          }),
        });
      });
    },
  };
}

import { IMPORT_LIMITS, type ImportFormat } from '@haven/contracts/portability';
import type { FormatReader } from '../source';
import { dateFromFileName } from './dates';
import { baseName, hiddenReason, noteKind, notANote, relativeName, stem, topFolder } from './entries';
import { markdownNote } from './markdown-note';
import { skipped, walkEntries, tooLarge } from './walk';

/**
 * A folder of Markdown and text notes (an Obsidian vault, Bear, iA Writer, any plain folder): one
 * note per `.md`, `.markdown` or `.txt` file; everything else is listed as skipped, never read.
 */
export function notesReader(format: Extract<ImportFormat, 'notes' | 'obsidian'>): FormatReader {
  return {
    format,
    read(source, options) {
      const top = topFolder(source.entries);
      return walkEntries(source, options, async (entry) => {
        const rel = relativeName(entry.name, top);
        const kind = noteKind(rel);
        const hidden = hiddenReason(rel);
        if (hidden || !kind) return skipped(hidden ?? notANote(rel));
        if (entry.size > IMPORT_LIMITS.fileBytes) return tooLarge();
        const raw = await source.read(entry.name, IMPORT_LIMITS.fileBytes);
        return markdownNote(raw, entry, kind, {
          now: options.now,
          fallbackTitle: stem(rel),
          fileDate: dateFromFileName(baseName(rel)),
          indentedCode: true,
        });
      });
    },
  };
}

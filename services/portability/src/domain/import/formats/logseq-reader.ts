import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader } from '../source';
import { dateFromFileName } from './dates';
import { baseName, hiddenReason, noteKind, notANote, relativeName, stem, topFolder } from './entries';
import { markdownNote } from './markdown-note';
import { skipped, walkEntries, tooLarge } from './walk';

const PROPERTY = /^([A-Za-z][\w-]*)::[ \t]?(.*)$/;
/** Page properties that are the note's metadata; the others are the user's text and stay. */
const METADATA = new Set(['title', 'tags', 'tag', 'created-at', 'date', 'created', 'updated-at']);

/**
 * Logseq's page properties: the `key:: value` lines at the top of a page. Title, tags and dates
 * become metadata (and leave the text); every other property line stays as written.
 */
export function logseqProperties(body: string): { meta: Record<string, unknown>; body: string } {
  const lines = body.split('\n');
  const meta: Record<string, unknown> = {};
  const kept: string[] = [];
  let i = 0;
  for (; i < lines.length; i++) {
    const m = PROPERTY.exec(lines[i]!);
    if (!m) break;
    const key = m[1]!.toLowerCase();
    if (METADATA.has(key) && !(key in meta)) meta[key] = m[2]!.trim();
    else kept.push(lines[i]!);
  }
  return { meta, body: [...kept, ...lines.slice(i)].join('\n') };
}

/** A page's name from its file name: `foo___bar` (and the older `foo%2Fbar`) is namespace `foo/bar`. */
export function logseqPageName(fileStem: string): string {
  const named = fileStem.replace(/___/g, '/');
  try {
    return decodeURIComponent(named);
  } catch {
    return named; // a lone `%` is part of the name
  }
}

/**
 * A Logseq graph: `journals/2021_02_26.md` is the journal of that day (whatever else the file says),
 * `pages/*.md` are pages named by their file; `logseq/` (settings, backups) is not notes.
 */
export const logseqReader: FormatReader = {
  format: 'logseq',
  read(source, options) {
    const top = topFolder(source.entries);
    return walkEntries(source, options, async (entry) => {
      const rel = relativeName(entry.name, top);
      const hidden = hiddenReason(rel);
      if (hidden) return skipped(hidden);
      if (rel.startsWith('logseq/')) return skipped('Not a note (Logseq settings or backup)');
      const kind = noteKind(rel);
      if (!kind) return skipped(notANote(rel));
      const journalDate = rel.startsWith('journals/') ? dateFromFileName(baseName(rel)) : null;
      if (entry.size > IMPORT_LIMITS.fileBytes) return tooLarge();
      const raw = await source.read(entry.name, IMPORT_LIMITS.fileBytes);
      return markdownNote(raw, entry, kind, {
        now: options.now,
        fallbackTitle: journalDate ? journalDate.localDate : logseqPageName(stem(rel)),
        fileDate: journalDate ?? dateFromFileName(baseName(rel)),
        fileDateFirst: journalDate !== null,
        indentedCode: false,
        properties: logseqProperties,
      });
    });
  },
};

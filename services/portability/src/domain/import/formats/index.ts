import type { FormatReader, SourceEntry } from '../source';
import { dayOneReader } from './dayone-reader';
import { extensionOf, hiddenReason, noteKind, relativeName, textBundleOf, topFolder } from './entries';
import { evernoteReader } from './evernote-reader';
import { isHtmlPage } from './html-note';
import { havenReader } from './haven-reader';
import { JOPLIN_ID } from './joplin-raw';
import { joplinReader } from './joplin-reader';
import { isJrnlExport, jrnlReader } from './jrnl-reader';
import { keepFolders, keepReader } from './keep-reader';
import { logseqReader } from './logseq-reader';
import { notesReader } from './notes-reader';
import { isNotionExport, notionReader } from './notion-reader';
import { isSimplenoteJson, simplenoteReader } from './simplenote-reader';

/**
 * Which app made the zip, from its entry names alone (nothing is read to decide): this product's
 * own export, a Logseq graph, an Obsidian vault, a Joplin RAW export, a Notion export, Simplenote,
 * Google Keep (its folder known by its files' shape, as Takeout names it in the account's
 * language), Evernote, a jrnl journal, a Day One journal, Bear or Ulysses TextBundles, a folder of
 * web pages (Apple Notes exporters), else a folder of notes;
 * null when it holds nothing to import. A zip of one top folder (`MyVault/…`) is decided as its
 * contents would be.
 */
export function detectFormat(entries: readonly SourceEntry[]): FormatReader | null {
  const top = topFolder(entries);
  const names = entries.map((e) => relativeName(e.name, top)).filter((n) => !n.startsWith('__MACOSX/'));
  const visible = names.filter((n) => !hiddenReason(n));
  const notes = visible.filter((n) => noteKind(n) !== null);

  if (entries.some((e) => /^(?:[^/]+\/)?thoughts\.json$/.test(e.name))) return havenReader;
  if (isLogseqGraph(names, notes)) return logseqReader;
  if (names.some((n) => /^\.obsidian\//.test(n))) return notesReader('obsidian');
  if (isJoplinRaw(notes)) return joplinReader;
  if (isNotionExport(visible)) return notionReader;
  if (isSimplenoteExport(entries, notes)) return simplenoteReader;
  if (keepFolders(entries).size > 0) return keepReader;
  if (visible.some((n) => extensionOf(n) === 'enex')) return evernoteReader;
  // jrnl: at least half the notes named as only jrnl names files. Before Day One, which takes any
  // JSON at the root: a JSON export named `jrnl….json` is jrnl's.
  if (isJrnlExport(visible)) return jrnlReader;
  // Day One: journal JSON files at the root (its media sit in photos/, audios/, …), no notes.
  if (notes.length === 0 && visible.some((n) => !n.includes('/') && extensionOf(n) === 'json'))
    return dayOneReader;
  // Bear or Ulysses: most notes are the texts of TextBundles (`Note.textbundle/text.md`).
  const bundles = entries.filter((e) => !hiddenReason(e.name) && textBundleOf(e.name) !== null);
  if (notes.length > 0 && bundles.length * 2 > notes.length) return notesReader('textbundle');
  // Web pages (an Apple Notes exporter's folders, Evernote's or Notion's HTML export): more pages
  // than Markdown or text notes.
  const pages = visible.filter(isHtmlPage);
  if (pages.length > notes.length) return notesReader('html');
  if (notes.length > 0) return notesReader('notes');
  return null;
}

/** Logseq: its config, a journal named by its day, or pages beside journals. */
function isLogseqGraph(names: readonly string[], notes: readonly string[]): boolean {
  return (
    names.includes('logseq/config.edn') ||
    notes.some((n) => /^journals\/\d{4}[-_.]\d{2}[-_.]\d{2}\.md$/.test(n)) ||
    (notes.some((n) => n.startsWith('pages/')) && names.some((n) => /^journals\//.test(n)))
  );
}

/** A Joplin RAW export: most notes are items at the root named by their Joplin id. */
function isJoplinRaw(notes: readonly string[]): boolean {
  return (
    notes.length > 0 && notes.filter((n) => !n.includes('/') && JOPLIN_ID.test(n)).length * 2 > notes.length
  );
}

/** Simplenote: its JSON export, or only `.txt` notes with the trashed ones in `trash/`. */
function isSimplenoteExport(entries: readonly SourceEntry[], notes: readonly string[]): boolean {
  return (
    entries.some((e) => isSimplenoteJson(e.name)) ||
    (notes.some((n) => n.startsWith('trash/')) &&
      notes.every((n) => noteKind(n) === 'text' && (!n.includes('/') || /^trash\/[^/]+$/.test(n))))
  );
}

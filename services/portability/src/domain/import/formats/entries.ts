import type { SourceEntry } from '../source';

/**
 * Entry names as the format readers see them: relative to the zip's single top folder when it has
 * one (people zip `MyVault/` itself as often as its contents), and sorted into notes and not-notes
 * by name alone, so files that are not notes are never read.
 */

const IGNORED_AT_TOP = (name: string) =>
  name.startsWith('__MACOSX/') || /^\.[^/]*$/.test(name) || name === 'Thumbs.db';

/** The one top folder every file sits under (`MyVault/`), or '' when there is none. */
export function topFolder(entries: readonly SourceEntry[]): string {
  let prefix: string | null = null;
  for (const { name } of entries) {
    if (IGNORED_AT_TOP(name)) continue;
    const slash = name.indexOf('/');
    if (slash < 0) return '';
    const first = name.slice(0, slash + 1);
    if (prefix === null) prefix = first;
    else if (prefix !== first) return '';
  }
  return prefix ?? '';
}

/** The entry's name inside the top folder. */
export const relativeName = (name: string, top: string) =>
  top && name.startsWith(top) ? name.slice(top.length) : name;

/** The last segment of a path. */
export const baseName = (name: string) => name.slice(name.lastIndexOf('/') + 1);

/** The lower-case extension without its dot ('' when none). */
export function extensionOf(name: string): string {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The file name without its extension. */
export function stem(name: string): string {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? base : base.slice(0, dot);
}

const KINDS: Array<[RegExp, string]> = [
  [/^(png|jpe?g|gif|webp|svg|heic|heif|bmp|tiff?|ico|avif)$/, 'image'],
  [/^(mp3|m4a|ogg|oga|wav|flac|aac|opus)$/, 'audio'],
  [/^(mp4|mov|webm|mkv|avi|m4v)$/, 'video'],
  [/^pdf$/, 'PDF'],
  [/^(json|edn|ya?ml|toml|ini|conf|lock|code-workspace)$/, 'settings'],
  [/^(css|scss|js|mjs|cjs|ts|cljs|clj|py|r|rhistory|sh)$/, 'code'],
  [/^(html?)$/, 'web page'],
  [/^(zip|gz|tar|7z|rar)$/, 'archive'],
  // Zips are not read inside the zip: a TextPack is a TextBundle zipped, to be uploaded on its own.
  [/^textpack$/, 'TextPack, a zipped TextBundle: upload it on its own'],
  [/^(docx?|xlsx?|pptx?|odt|ods|rtf|pages|numbers|key)$/, 'document'],
  [/^(canvas|base)$/, 'Obsidian canvas or base'],
  [/^org$/, 'Org-mode file'],
];

/** A short name for what a file that is not a note is ("image", ".foo file"). */
export function kindOf(name: string): string {
  const ext = extensionOf(name);
  for (const [pattern, kind] of KINDS) if (pattern.test(ext)) return kind;
  return ext ? `.${ext} file` : 'file without extension';
}

/**
 * Why a file is no note whatever the format (hidden files, macOS metadata, app settings folders),
 * or null when the format reader should decide.
 */
export function hiddenReason(rel: string): string | null {
  const parts = rel.split('/');
  if (parts[0] === '__MACOSX') return 'Not a note (macOS metadata)';
  if (parts[0] === '.obsidian') return 'Not a note (Obsidian settings)';
  if (parts.some((p) => p.startsWith('.'))) return 'Not a note (hidden file)';
  return null;
}

/** The note kind of a file name, or null when it is not a Markdown or text note. */
export function noteKind(name: string): 'markdown' | 'text' | null {
  const ext = extensionOf(name);
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'txt') return 'text';
  return null;
}

/** The standard "not a note" reason for a file, naming its kind. */
export const notANote = (name: string) => hiddenReason(name) ?? `Not a note (${kindOf(name)})`;

/**
 * The folder of a TextBundle (Bear, Ulysses) whose text this is (`Note.textbundle/text.md`,
 * `text.markdown`), or null: a bundle is a folder of its text, `info.json` and `assets/`.
 */
export function textBundleOf(rel: string): string | null {
  const slash = rel.lastIndexOf('/');
  const folder = rel.slice(0, slash);
  if (slash < 0 || !folder.toLowerCase().endsWith('.textbundle')) return null;
  return stem(rel).toLowerCase() === 'text' && noteKind(rel) !== null ? folder : null;
}

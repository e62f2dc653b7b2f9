import {
  IMPORT_FORMAT_NAMES,
  IMPORT_LIMITS,
  ImportFormat,
  inMegabytes,
  type ImportCountsSoFar,
  type ImportProgress,
} from '@haven/contracts/portability';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What an import takes and its limits, for the line under the Import button. */
export function importableSummary(): string {
  const kinds = new Intl.ListFormat('en-US', { type: 'disjunction' }).format(
    ImportFormat.options.map((format) =>
      format === 'notes' ? 'a folder of Markdown/text notes' : IMPORT_FORMAT_NAMES[format],
    ),
  );
  return (
    `A .zip of ${kinds}, or a Joplin .jex as it is. Up to ${inMegabytes(IMPORT_LIMITS.bytes)} and ` +
    `${IMPORT_LIMITS.files.toLocaleString('en-US')} files; notes up to ${inMegabytes(IMPORT_LIMITS.fileBytes)} each. ` +
    'Images and other files are skipped.'
  );
}

/**
 * The counts of an import as one sentence, naming only what is not zero, like 'Imported 412 notes (3
 * split into parts), 5 duplicates skipped, 2 failed.'; null when every count is zero.
 */
export function importCountsSummary(c: ImportCountsSoFar): string | null {
  const brought = [
    c.imported > 0 &&
      count(c.imported, 'note', 'notes') + (c.split > 0 ? ` (${c.split} split into parts)` : ''),
    c.conversations > 0 && count(c.conversations, 'conversation', 'conversations'),
  ].filter(Boolean);
  const parts = [
    brought.length > 0 && `Imported ${brought.join(' and ')}`,
    c.duplicates > 0 && `${count(c.duplicates, 'duplicate', 'duplicates')} skipped`,
    c.skipped > 0 && `${count(c.skipped, 'file', 'files')} skipped`,
    c.failed > 0 && `${c.failed.toLocaleString('en-US')} failed`,
    c.undated > 0 && `${c.undated.toLocaleString('en-US')} without a date put on today`,
  ].filter((part): part is string => typeof part === 'string');
  if (parts.length === 0) return null;
  const sentence = parts.join(', ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/** Why a failed import failed, in words for a person. */
export function importFailure(result: ImportProgress): string {
  return result.message ?? result.errors[0]?.message ?? 'The import could not be finished. Please try again.';
}

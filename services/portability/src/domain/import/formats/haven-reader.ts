import { z } from 'zod';
import { IsoDateTime, LocalDate, StoredCategory, TimezoneOffset } from '@haven/contracts/common';
import { IMPORT_LIMITS, ImportedConversation } from '@haven/contracts/portability';
import { ThoughtFormat } from '@haven/contracts/thoughts';
import type { FormatReader, ImportSource } from '../source';
import { relativeName, topFolder } from './entries';
import { jsonItems } from './json-items';
import { splitNote } from './split';
import { finalTags } from '@haven/kit/hashtags';
import { failed, skipped, walkEntries, type ItemBody } from './walk';

/** A thought as our export writes it (its id and hasAudio are the old account's, not imported). */
const ExportedThoughtLine = z.object({
  content: z.string().min(1),
  date: IsoDateTime,
  localDate: LocalDate,
  // Exports made before thoughts kept their offset have none.
  timezoneOffset: TimezoneOffset.nullable().optional(),
  category: StoredCategory,
  tags: z.array(z.string()),
  isVoice: z.boolean(),
  // Exports made before thoughts had a format hold text.
  format: ThoughtFormat.default('text'),
  audioFile: z.string().max(200).nullable().optional(),
});

/** What our export's other files are, when they are not read. */
const OTHER_FILES: Array<[RegExp, string]> = [
  [/^audio\//, ''],
  [/^insights\.json$/, 'Insights are made again from your thoughts'],
  [/^integrations\.json$/, 'Connected accounts are not imported: connect them again'],
  [/^conversations\/.*\.md$/, 'A Markdown copy of conversations.json'],
  [/^\d{4}\/\d{2}\/[^/]*\.md$/, 'A Markdown copy of thoughts.json'],
  [/^README\.txt$/, 'Not a note (the export’s read-me)'],
];

const namesUser = (value: unknown) =>
  typeof value === 'object' && value !== null && ('userId' in value || 'user_id' in value);

/** The first problem of a value that fails its schema: item number, field and message. */
const problem = (n: number, error: z.ZodError) => {
  const issue = error.issues[0]!;
  return `Item ${n}: ${issue.path.join('.') || 'value'}: ${issue.message}`;
};

/** The thought items of one exported thought (parts if it is somehow longer than a thought). */
function thoughtItems(value: z.infer<typeof ExportedThoughtLine>, audioFile: string | null): ItemBody[] {
  const contents = splitNote('', value.content);
  return contents.map((content, i) => ({
    kind: 'thought',
    thought: {
      content,
      title: null,
      date: value.date,
      localDate: value.localDate,
      timezoneOffset: value.timezoneOffset,
      category: value.category,
      tags: finalTags(value.tags.map((t) => t.trim()).filter(Boolean)),
      isVoice: value.isVoice,
      format: value.format,
    },
    dateSource: 'metadata',
    audioFile,
    ...(contents.length > 1 ? { part: { n: i + 1, of: contents.length } } : {}),
  }));
}

/** thoughts.json or conversations.json, streamed, one item (or problem) per value of its list. */
async function* readList(
  source: ImportSource,
  name: string,
  top: string,
  kind: 'thoughts' | 'conversations',
) {
  const names = new Set(source.entries.map((e) => e.name));
  let n = 0;
  for await (const item of jsonItems(source.stream(name, IMPORT_LIMITS.dataFileBytes), null)) {
    if ('error' in item) {
      yield* failed(item.error, item.line);
      return;
    }
    n++;
    if (namesUser(item.value)) {
      yield* failed(`Item ${n}: Items cannot name a user`, item.line);
      continue;
    }
    if (kind === 'conversations') {
      const parsed = ImportedConversation.safeParse(item.value);
      if (parsed.success) yield { kind: 'conversation', conversation: parsed.data } as ItemBody;
      else yield* failed(problem(n, parsed.error), item.line);
      continue;
    }
    const parsed = ExportedThoughtLine.safeParse(item.value);
    if (!parsed.success) {
      yield* failed(problem(n, parsed.error), item.line);
      continue;
    }
    // Audio paths are relative to the export's root, which may be a folder of the zip.
    const audio = parsed.data.audioFile ? top + parsed.data.audioFile : null;
    yield* thoughtItems(parsed.data, audio && names.has(audio) ? audio : null);
  }
  if (n === 0)
    yield* skipped(kind === 'thoughts' ? 'No thoughts in the file' : 'No conversations in the file');
}

/**
 * This product's own export: thoughts.json (with each voice thought's audio file named) and
 * conversations.json, streamed item by item; the Markdown copies and other files are listed only.
 * Audio files yield nothing of their own: the orchestrator reads them with their thought.
 */
export const havenReader: FormatReader = {
  format: 'haven',
  read(source, options) {
    const list = source.entries.find((e) => /^(?:[^/]+\/)?thoughts\.json$/.test(e.name));
    const top = list
      ? list.name.slice(0, list.name.length - 'thoughts.json'.length)
      : topFolder(source.entries);
    return walkEntries(source, options, (entry) => {
      const rel = relativeName(entry.name, top);
      if (rel === 'thoughts.json') return readList(source, entry.name, top, 'thoughts');
      if (rel === 'conversations.json') return readList(source, entry.name, top, 'conversations');
      const other = OTHER_FILES.find(([pattern]) => pattern.test(rel));
      if (other?.[1] === '') return [];
      return skipped(other?.[1] ?? 'Not part of a Haven export');
    });
  },
};

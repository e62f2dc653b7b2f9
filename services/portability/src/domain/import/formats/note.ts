import { StoredCategory } from '@haven/contracts/common';
import type { ThoughtFormat } from '@haven/contracts/thoughts';
import { headingWords } from './headings';
import type { ResolvedDate } from './note-date';
import { splitNote } from './split';
import type { ItemBody } from './walk';

/** Everything a reader found out about one note. */
export interface NoteInput {
  /** Its title (front matter, first heading, file name, the app's own field), or null. */
  title: string | null;
  /** Its text without front matter or app metadata, `\n` line ends. */
  body: string;
  format: ThoughtFormat;
  date: ResolvedDate;
  /** Final tags (see `finalTags`). */
  tags: string[];
  category: StoredCategory;
  /** The title was typed by the user as part of the note (Joplin, Keep): a title alone is a note. */
  titleIsContent?: boolean;
  /** The title may be the body's first line as it is, not a heading (a TextBundle's): none is added then. */
  titleInBody?: boolean;
  /** What could not be read of the note though it imports (its front matter), for the report. */
  note?: string;
}

/** Titles are stored beside the thought (at most 1000 characters); the content keeps all of it. */
const MAX_TITLE = 1000;

/** The category a note names, when it is one of ours; else personal. */
export const categoryOf = (value: unknown): StoredCategory => {
  const parsed = StoredCategory.safeParse(typeof value === 'string' ? value.trim().toLowerCase() : value);
  return parsed.success ? parsed.data : 'personal';
};

/**
 * The thoughts of one note: its title kept visible at the top (`# Title` for Markdown, the bare
 * line for text) unless the text already starts with it, split into parts when too long; or a
 * skipped problem when there is nothing to keep.
 */
export function noteItems(note: NoteInput): ItemBody[] {
  let body = note.body.replace(/^\s*\n/, '').trimEnd();
  const title = note.title?.trim() ? note.title.trim() : null;
  let heading = '';
  if (title) {
    const first = /^[^\n]*/.exec(body)![0];
    const same =
      note.format === 'markdown'
        ? (note.titleInBody || /^#{1,6}\s/.test(first)) && headingWords(first) === title.toLowerCase()
        : first.trim().toLowerCase() === title.toLowerCase();
    if (same) {
      heading = first;
      body = body.slice(first.length).replace(/^\s*\n/, '');
    } else heading = note.format === 'markdown' ? `# ${title.replace(/\n/g, ' ')}` : title;
  }
  if (!body.trim() && !(note.titleIsContent && title))
    return [
      { kind: 'problem', outcome: 'skipped', reason: 'The note is empty (no text beside its properties)' },
    ];
  // A note that is only its title is still cut to thoughts' size.
  const contents = body.trim() ? splitNote(heading, body) : splitNote('', heading);
  return contents.map((content, i) => ({
    kind: 'thought',
    thought: {
      content,
      title: title ? title.slice(0, MAX_TITLE) : null,
      date: note.date.date,
      localDate: note.date.localDate,
      category: note.category,
      tags: note.tags,
      isVoice: false,
      format: note.format,
    },
    dateSource: note.date.source,
    ...(note.note ? { note: note.note } : {}),
    ...(contents.length > 1 ? { part: { n: i + 1, of: contents.length } } : {}),
  }));
}

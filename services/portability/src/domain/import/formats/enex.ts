import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { IMPORT_LIMITS } from '@haven/contracts/portability';

/** One `<note>` of an Evernote export, as written (its content still ENML). */
export interface EnexNote {
  title: string;
  content: string;
  created: string;
  updated: string;
  tags: string[];
  /** The line its `<note>` starts on. */
  line: number;
  /** Why it cannot be read (an undefined entity, a note too large), with the line of the problem. */
  error?: { message: string; line: number };
}

const FIELDS = new Set(['title', 'content', 'created', 'updated', 'tag']);

/**
 * The notes of an `.enex` file, one at a time, however big it is. saxes never expands entities of
 * a DTD (an internal `<!ENTITY>` is skipped, and using it is an "undefined entity" error), so a
 * billion-laughs file costs nothing; such an error fails the note it is in. Attachments
 * (`<resource>`, base64) are never kept: their text is dropped as it is parsed.
 */
export async function* enexNotes(
  stream: Readable,
): AsyncGenerator<EnexNote | { error: string; line: number }> {
  const parser = new SaxesParser({ position: true });
  const done: Array<EnexNote | { error: string; line: number }> = [];
  const path: string[] = [];
  let note: EnexNote | null = null;
  let field = '';
  let fatal: { error: string; line: number } | null = null;

  const fieldOf = () =>
    note && path.length === 3 && path[1] === 'note' && FIELDS.has(path[2]!) ? path[2]! : null;
  const onText = (text: string) => {
    if (!note || !fieldOf()) return;
    if (field.length + text.length > IMPORT_LIMITS.fileBytes) {
      note.error ??= { message: 'The note is larger than 1 MB', line: parser.line };
      return;
    }
    field += text;
  };
  parser.on('opentag', (tag) => {
    path.push(tag.name);
    if (path.length === 2 && tag.name === 'note')
      note = { title: '', content: '', created: '', updated: '', tags: [], line: parser.line };
    field = '';
  });
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const name = fieldOf();
    if (note && name) {
      if (name === 'tag') note.tags.push(field.trim());
      else
        note[name as 'title' | 'content' | 'created' | 'updated'] = name === 'content' ? field : field.trim();
    }
    if (path.length === 2 && note) {
      done.push(note);
      note = null;
    }
    field = '';
    path.pop();
  });
  parser.on('error', (err) => {
    const message = err.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
    if (note) note.error ??= { message: `The note is not valid XML: ${message}`, line: parser.line };
    else fatal ??= { error: `The file is not valid XML: ${message}`, line: parser.line };
  });

  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    parser.write(decoder.write(chunk));
    yield* done.splice(0);
    if (fatal) return yield fatal;
  }
  parser.write(decoder.end());
  parser.close();
  yield* done.splice(0);
  if (fatal) yield fatal;
}

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
  /** Its Evernote 10 tasks, written beside its content (at most MAX_TASKS). */
  tasks: EnexTask[];
  /** The line its `<note>` starts on. */
  line: number;
  /** Why it cannot be read (an undefined entity, a note too large), with the line of the problem. */
  error?: { message: string; line: number };
}

/** An Evernote 10 task of a note, as written (each value trimmed, '' when missing). */
export interface EnexTask {
  title: string;
  /** `open` or `completed`. */
  taskStatus: string;
  /** `20220528T215959Z`; Evernote writes a number of its own when there is none. */
  dueDate: string;
  /** Where it is among the tasks of its group: ordered as strings. */
  sortWeight: string;
  /** The `--en-id` of its group's placeholder block in the content. */
  taskGroupNoteLevelID: string;
}

const FIELDS = new Set(['title', 'content', 'created', 'updated', 'tag']);
const TASK_FIELDS = new Set(['title', 'taskStatus', 'dueDate', 'sortWeight', 'taskGroupNoteLevelID']);
/** How many tasks a note keeps (real notes have a few); the others are dropped. */
const MAX_TASKS = 1000;

/** Parser errors that fail the note they are in: an entity (never expanded) and nothing else. */
const FAILS_THE_NOTE = /undefined entity/i;

/**
 * What XML 1.0 never allows in a document: C0 controls but tab and line ends, U+FFFE and U+FFFF
 * (the decoder leaves no lone surrogate). They are no one's text, and saxes reports each as an
 * error, an Error object apiece: a file of them is dropped before parsing.
 */
// eslint-disable-next-line no-control-regex -- these characters are what it finds
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');

/**
 * The notes of an `.enex` file, one at a time, however big it is. saxes never expands entities of
 * a DTD (an internal `<!ENTITY>` is skipped, and using it is an "undefined entity" error), so a
 * billion-laughs file costs nothing; such an error fails the note it is in. Attachments
 * (`<resource>`, base64) are never kept: their text is dropped as it is parsed. Evernote 10 writes a
 * note's tasks as `<task>` elements beside its content: they are read as its `tasks`.
 *
 * Real exports are not always well-formed, and a note is never lost to a broken tag: saxes reads on
 * past every error, and the elements are followed here, not by saxes's stack (a stray close tag such
 * as `</note-attributesv>` makes saxes close every open element). A close tag closes what it names
 * if it is open, and is ignored if not. A CDATA section nested in the content (Evernote writes them)
 * ends the content's early, and the rest of the note's markup is read as XML: it is written back into
 * the content as markup, for the HTML converter to read as leniently as a browser would. A file
 * fails only when it gives no note at all.
 */
export async function* enexNotes(
  stream: Readable,
): AsyncGenerator<EnexNote | { error: string; line: number }> {
  const parser = new SaxesParser({ position: true });
  const done: Array<EnexNote | { error: string; line: number }> = [];
  /** The open elements; `strayClose`: a close tag naming no open element came while it was innermost. */
  const open: Array<{ name: string; selfClosing: boolean; strayClose?: boolean }> = [];
  // Kept as the elements open and close, so that every step is O(1) whatever the nesting (a file of
  // 100,000 open elements and as many stray close tags stays linear): how many are open by name, and
  // how many under the note never had a stray close tag.
  const openByName = new Map<string, number>();
  let underNoteUnbroken = 0;
  const push = (name: string, selfClosing: boolean) => {
    open.push({ name, selfClosing });
    openByName.set(name, (openByName.get(name) ?? 0) + 1);
    if (open.length > 2) underNoteUnbroken++;
  };
  const pop = () => {
    const element = open.pop()!;
    openByName.set(element.name, openByName.get(element.name)! - 1);
    if (open.length >= 2 && !element.strayClose) underNoteUnbroken--;
  };
  let note: EnexNote | null = null;
  /** The field being read, and the depth of its element; `task`: a field of the task being read. */
  let field: { name: string; depth: number; task?: boolean } | null = null;
  /** The task being read (an element right under the note), and the depth of its element. */
  let task: { value: EnexTask; depth: number } | null = null;
  let text = '';
  let notes = 0;
  let firstError: { error: string; line: number } | null = null;
  /** The name of the close tag saxes just reported, unless an error says it closed it implicitly. */
  let closing: string | null = null;

  const keep = (more: string) => {
    if (!note || !field) return;
    if (text.length + more.length > IMPORT_LIMITS.fileBytes) {
      note.error ??= { message: 'The note is larger than 1 MB', line: parser.line };
      return;
    }
    text += more;
  };
  /** Inside the content, under an element of its own: markup that escaped its CDATA. */
  const inRecoveredMarkup = () => field?.name === 'content' && open.length > field.depth;

  const closeTop = () => {
    const element = open[open.length - 1]!;
    if (field && open.length === field.depth && note) {
      const value = field.name === 'content' ? text : text.trim();
      if (field.task) {
        if (task) task.value[field.name as keyof EnexTask] = value;
      } else if (field.name === 'tag') note.tags.push(value);
      else note[field.name as 'title' | 'content' | 'created' | 'updated'] = value;
      field = null;
    } else if (inRecoveredMarkup() && !element.selfClosing) keep(`</${element.name}>`);
    else if (task && open.length === task.depth && note) {
      if (note.tasks.length < MAX_TASKS) note.tasks.push(task.value);
      task = null;
    }
    if (open.length === 2 && note) {
      done.push(note);
      notes++;
      note = null;
      field = null;
      task = null;
    }
    pop();
  };
  /** A close tag in the file: closes the innermost open element of its name and all inside it. */
  const closeTag = (name: string) => {
    if (!openByName.get(name)) {
      // Most likely the innermost element's close tag, misspelt (`</note-attributesv>`): what
      // follows is read as if it were closed.
      const top = open[open.length - 1];
      if (top && !top.strayClose) {
        top.strayClose = true;
        if (open.length > 2) underNoteUnbroken--;
      }
      return;
    }
    let top = open[open.length - 1]!;
    while (top.name !== name) {
      closeTop();
      top = open[open.length - 1]!;
    }
    closeTop();
  };
  /** Settles the close tag reported last, before anything else happens. */
  const settle = () => {
    if (closing !== null) closeTag(closing);
    closing = null;
  };

  /** A field's element: a child of the note, or of an element of it whose close tag was misspelt. */
  const isField = (name: string) =>
    note !== null && !field && FIELDS.has(name) && open[1]?.name === 'note' && underNoteUnbroken === 0;

  /** A task's element: a child of the note, as its fields are. */
  const isTask = (name: string) => name === 'task' && isField('title') && open.length === 2;
  /** A field of the task being read: a child of its element. */
  const isTaskField = (name: string) =>
    task !== null && !field && open.length === task.depth && TASK_FIELDS.has(name);

  parser.on('opentag', (tag) => {
    settle();
    const startsField = isField(tag.name);
    const startsTask = isTask(tag.name);
    const startsTaskField = isTaskField(tag.name);
    push(tag.name, tag.isSelfClosing);
    if (open.length === 2 && tag.name === 'note') {
      note = { title: '', content: '', created: '', updated: '', tags: [], tasks: [], line: parser.line };
      field = null;
      task = null;
    } else if (inRecoveredMarkup()) {
      const attributes = Object.entries(tag.attributes as Record<string, string>)
        .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
        .join('');
      keep(`<${tag.name}${attributes}${tag.isSelfClosing ? '/' : ''}>`);
    } else if (startsField) {
      field = { name: tag.name, depth: open.length };
      text = '';
    } else if (startsTask && !tag.isSelfClosing) {
      task = {
        value: { title: '', taskStatus: '', dueDate: '', sortWeight: '', taskGroupNoteLevelID: '' },
        depth: open.length,
      };
    } else if (startsTaskField) {
      field = { name: tag.name, depth: open.length, task: true };
      text = '';
    }
  });
  parser.on('text', (t) => {
    settle();
    // "]]>" is never text in XML: it ends a CDATA section that a nested one had already ended.
    const own = field?.name === 'content' ? t.replaceAll(']]>', '') : t;
    keep(inRecoveredMarkup() ? escapeText(own) : own);
  });
  parser.on('cdata', (t) => {
    settle();
    keep(t);
  });
  parser.on('closetag', (tag) => {
    settle();
    closing = tag.name;
  });
  parser.on('error', (err) => {
    const message = err.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
    // saxes closed an element the close tag did not name: it stays open here.
    if (message === 'unexpected close tag.') closing = null;
    else settle();
    const unmatched = /^unmatched closing tag: (.*)\.$/.exec(message);
    if (unmatched) closeTag(unmatched[1]!);
    if (note && FAILS_THE_NOTE.test(message))
      note.error ??= { message: `The note is not valid XML: ${message}`, line: parser.line };
    firstError ??= { error: `The file is not valid XML: ${message}`, line: parser.line };
  });

  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    writeQuietly(parser, decoder.write(chunk));
    yield* done.splice(0);
  }
  writeQuietly(parser, decoder.end());
  parser.close();
  settle();
  while (open.length) closeTop();
  yield* done.splice(0);
  if (notes === 0 && firstError) yield firstError;
}

/**
 * Feeds `text` to saxes without what XML never allows, and with errors made without a stack trace:
 * saxes makes an Error for each error it meets, and a file of broken markup (a `&bogus;` every
 * seven characters) is otherwise tens of thousands of stack traces, seconds of CPU; only their
 * messages are read.
 */
function writeQuietly(parser: SaxesParser, text: string): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    parser.write(text.replace(NOT_XML, ''));
  } finally {
    Error.stackTraceLimit = limit;
  }
}

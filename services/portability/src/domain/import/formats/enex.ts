import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { IMPORT_LIMITS } from '@haven/contracts/portability';
import { OpenElements } from './enex-elements';

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
  const reader = new NoteReader(() => parser.line);
  parser.on('opentag', (tag) => {
    reader.settle();
    reader.openTag(tag);
  });
  parser.on('text', (t) => {
    reader.settle();
    reader.text(t);
  });
  parser.on('cdata', (t) => {
    reader.settle();
    reader.keep(t);
  });
  parser.on('closetag', (tag) => {
    reader.settle();
    reader.closeReported(tag.name);
  });
  parser.on('error', (err) => reader.error(err.message));

  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    writeQuietly(parser, decoder.write(chunk));
    yield* reader.done.splice(0);
  }
  writeQuietly(parser, decoder.end());
  parser.close();
  yield* reader.end();
}

/** The notes of a file, made from saxes's events as they come. */
class NoteReader {
  /** Notes (and the file's error) read and not yet given. */
  readonly done: Array<EnexNote | { error: string; line: number }> = [];
  /** The name of the close tag saxes just reported, unless an error says it closed it implicitly. */
  private closing: string | null = null;
  private readonly open = new OpenElements();
  private note: EnexNote | null = null;
  /** The field being read, and the depth of its element; `task`: a field of the task being read. */
  private field: { name: string; depth: number; task?: boolean } | null = null;
  /** The task being read (an element right under the note), and the depth of its element. */
  private task: { value: EnexTask; depth: number } | null = null;
  private fieldText = '';
  private notes = 0;
  private firstError: { error: string; line: number } | null = null;

  /** `line`: the line saxes is on. */
  constructor(private readonly line: () => number) {}

  /** Adds to the text of the field being read, up to the size of a note. */
  keep(more: string): void {
    if (!this.note || !this.field) return;
    if (this.fieldText.length + more.length > IMPORT_LIMITS.fileBytes) {
      this.note.error ??= { message: 'The note is larger than 1 MB', line: this.line() };
      return;
    }
    this.fieldText += more;
  }

  /**
   * saxes reported a close tag: settled when the next event comes, unless that is an error saying
   * saxes closed the element implicitly.
   */
  closeReported(name: string): void {
    this.closing = name;
  }

  /** Settles the close tag reported last, before anything else happens. */
  settle(): void {
    if (this.closing !== null) this.closeTag(this.closing);
    this.closing = null;
  }

  openTag(tag: { name: string; isSelfClosing: boolean; attributes: unknown }): void {
    const startsField = this.isField(tag.name);
    const startsTask = this.isTask(tag.name);
    const startsTaskField = this.isTaskField(tag.name);
    this.open.push(tag.name, tag.isSelfClosing);
    const depth = this.open.depth;
    if (depth === 2 && tag.name === 'note') {
      this.note = {
        title: '',
        content: '',
        created: '',
        updated: '',
        tags: [],
        tasks: [],
        line: this.line(),
      };
      this.field = null;
      this.task = null;
    } else if (this.inRecoveredMarkup()) {
      const attributes = Object.entries(tag.attributes as Record<string, string>)
        .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
        .join('');
      this.keep(`<${tag.name}${attributes}${tag.isSelfClosing ? '/' : ''}>`);
    } else if (startsField) this.startField({ name: tag.name, depth });
    else if (startsTask && !tag.isSelfClosing) {
      this.task = {
        value: { title: '', taskStatus: '', dueDate: '', sortWeight: '', taskGroupNoteLevelID: '' },
        depth,
      };
    } else if (startsTaskField) this.startField({ name: tag.name, depth, task: true });
  }

  text(t: string): void {
    // "]]>" is never text in XML: it ends a CDATA section that a nested one had already ended.
    const own = this.field?.name === 'content' ? t.replaceAll(']]>', '') : t;
    this.keep(this.inRecoveredMarkup() ? escapeText(own) : own);
  }

  /** An error saxes reports (it reads on past every one). */
  error(reported: string): void {
    const message = reported.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
    // saxes closed an element the close tag did not name: it stays open here.
    if (message === 'unexpected close tag.') this.closing = null;
    else this.settle();
    const unmatched = /^unmatched closing tag: (.*)\.$/.exec(message);
    if (unmatched) this.closeTag(unmatched[1]!);
    if (this.note && FAILS_THE_NOTE.test(message))
      this.note.error ??= { message: `The note is not valid XML: ${message}`, line: this.line() };
    this.firstError ??= { error: `The file is not valid XML: ${message}`, line: this.line() };
  }

  /** The end of the file: what is still open is closed; the file's error when it gave no note. */
  end(): Array<EnexNote | { error: string; line: number }> {
    this.settle();
    while (this.open.depth) this.closeTop();
    const rest = this.done.splice(0);
    if (this.notes === 0 && this.firstError) rest.push(this.firstError);
    return rest;
  }

  private startField(field: { name: string; depth: number; task?: boolean }): void {
    this.field = field;
    this.fieldText = '';
  }

  /** Inside the content, under an element of its own: markup that escaped its CDATA. */
  private inRecoveredMarkup(): boolean {
    return this.field?.name === 'content' && this.open.depth > this.field.depth;
  }

  /** A field's element: a child of the note, or of an element of it whose close tag was misspelt. */
  private isField(name: string): boolean {
    return (
      this.note !== null &&
      !this.field &&
      FIELDS.has(name) &&
      this.open.at(1)?.name === 'note' &&
      this.open.unbrokenUnderNote()
    );
  }

  /** A task's element: a child of the note, as its fields are. */
  private isTask(name: string): boolean {
    return name === 'task' && this.isField('title') && this.open.depth === 2;
  }

  /** A field of the task being read: a child of its element. */
  private isTaskField(name: string): boolean {
    return this.task !== null && !this.field && this.open.depth === this.task.depth && TASK_FIELDS.has(name);
  }

  /** A close tag in the file: closes the innermost open element of its name and all inside it. */
  private closeTag(name: string): void {
    // Most likely the innermost element's close tag, misspelt (`</note-attributesv>`): what
    // follows is read as if it were closed.
    if (!this.open.isOpen(name)) return this.open.strayClose();
    while (this.open.top()!.name !== name) this.closeTop();
    this.closeTop();
  }

  /** Closes the innermost open element: a field, task or note it ends is complete. */
  private closeTop(): void {
    const element = this.open.top()!;
    const depth = this.open.depth;
    if (this.field && depth === this.field.depth && this.note) this.endField(this.note, this.field);
    else if (this.inRecoveredMarkup() && !element.selfClosing) this.keep(`</${element.name}>`);
    else if (this.task && depth === this.task.depth && this.note) {
      if (this.note.tasks.length < MAX_TASKS) this.note.tasks.push(this.task.value);
      this.task = null;
    }
    if (depth === 2 && this.note) {
      this.done.push(this.note);
      this.notes++;
      this.note = null;
      this.field = null;
      this.task = null;
    }
    this.open.pop();
  }

  private endField(note: EnexNote, field: { name: string; task?: boolean }): void {
    const value = field.name === 'content' ? this.fieldText : this.fieldText.trim();
    if (field.task) {
      if (this.task) this.task.value[field.name as keyof EnexTask] = value;
    } else if (field.name === 'tag') note.tags.push(value);
    else note[field.name as 'title' | 'content' | 'created' | 'updated'] = value;
    this.field = null;
  }
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

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { enexNotes, type EnexNote } from './enex';
import { evernoteReader } from './evernote-reader';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';

/** Real exports with broken XML (../shared/corpora/import-real, read in place, never copied). */
const REAL = path.resolve(import.meta.dirname, '../../../../../../../shared/corpora/import-real/enex');

const notesOf = async (xml: string) => {
  const notes: Array<EnexNote | { error: string; line: number }> = [];
  for await (const note of enexNotes(Readable.from([Buffer.from(xml)]))) notes.push(note);
  return notes;
};

const exportOf = (...notes: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<en-export>\n${notes.join('\n')}\n</en-export>\n`;

describe('an Evernote file that is not well-formed', () => {
  it('reads a note whose attributes end with a misspelt close tag, and the notes after it', async () => {
    const notes = await notesOf(
      exportOf(
        `<note><title>First</title><tag>a</tag><note-attributes><author>me</author></note-attributesv>
           <content><![CDATA[<en-note><div>Steps</div></en-note>]]></content></note>`,
        `<note><title>Second</title><content><![CDATA[<en-note>Two</en-note>]]></content></note>`,
      ),
    );
    expect(notes).toMatchObject([
      { title: 'First', tags: ['a'], content: '<en-note><div>Steps</div></en-note>' },
      { title: 'Second', content: '<en-note>Two</en-note>' },
    ]);
    expect(notes.some((n) => 'error' in n && n.error)).toBe(false);
  });

  it('keeps the markup after a CDATA section nested in the content, as markup', async () => {
    const [note] = await notesOf(
      exportOf(
        `<note><title>Nested</title><content><![CDATA[<en-note><div>email</div><![CDATA[>]]>
<div><b>Title</b><br/></div><div>a &amp; b</div></en-note>]]></content></note>`,
      ),
    );
    expect((note as EnexNote).content).toBe(
      '<en-note><div>email</div><![CDATA[>\n<div><b>Title</b><br/></div><div>a &amp; b</div></en-note>',
    );
  });

  it('reads the task titles of a note as its tasks, never as its title', async () => {
    const [note] = await notesOf(
      exportOf(
        `<note><title>Plans</title><content><![CDATA[<en-note/>]]></content><task><title>Buy milk</title></task></note>`,
      ),
    );
    expect(note).toMatchObject({ title: 'Plans', tasks: [{ title: 'Buy milk', taskStatus: '' }] });
  });

  it('reads the fields of each task, and only of tasks right under the note', async () => {
    const [note] = await notesOf(
      exportOf(
        `<note><title>Plans</title><task>
           <title> Pay rent </title><taskStatus>completed</taskStatus><dueDate>20220528T215959Z</dueDate>
           <sortWeight>B</sortWeight><taskGroupNoteLevelID>g-1</taskGroupNoteLevelID><creator>7</creator>
         </task><note-attributes><task><title>Not a task</title></task></note-attributes><task/>
         <content><![CDATA[<en-note/>]]></content></note>`,
      ),
    );
    expect((note as EnexNote).tasks).toEqual([
      {
        title: 'Pay rent',
        taskStatus: 'completed',
        dueDate: '20220528T215959Z',
        sortWeight: 'B',
        taskGroupNoteLevelID: 'g-1',
      },
    ]);
    expect(note).toMatchObject({ title: 'Plans', content: '<en-note/>' });
  });

  it('imports the tasks of a real Evernote 10 note where their placeholder was, with their state', async () => {
    const items = await readAll(
      evernoteReader,
      memorySource({ 'Notebook.enex': readFileSync(path.join(REAL, 'joplin/tasks.enex')) }),
    );
    const [thought] = thoughtsOf(items);
    expect(thought!.thought.content).toBe(
      '# Here is a simple test\n\na\n\n  \n\nb\n\n  \n\nList 1\n\n- [ ] Bob\n- [x] Clara\n\nList 2\n\n- [ ] Jeff',
    );
  });

  it('fails the file only when it gives no note', async () => {
    expect(await notesOf('<en-export><note><title>x</title></notex')).toMatchObject([{ title: 'x' }]);
    expect(await notesOf('this is no XML </a>')).toMatchObject([
      { error: expect.stringMatching(/^The file is not valid XML/) },
    ]);
  });

  it('reads open elements and stray close tags in time linear in their number', async () => {
    /** The faster of two reads of `n` open elements, then `n` stray close tags, in a note. */
    const fastest = async (n: number) => {
      const xml = exportOf(
        `<note><title>Deep</title><content>${'<a>'.repeat(n)}${'</b>'.repeat(n)}</content></note>`,
      );
      let best = Infinity;
      for (let i = 0; i < 2; i++) {
        const started = performance.now();
        expect(await notesOf(xml)).toMatchObject([{ title: 'Deep' }]);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const small = await fastest(20_000);
    const large = await fastest(80_000);
    // Four times the tags: about four times the time (each stray tag scanning the open elements
    // would make it sixteen).
    expect(large / small, `${Math.round(small)} ms, then ${Math.round(large)} ms`).toBeLessThan(8);
  }, 60_000);

  it('drops what XML never allows, and reads a file of errors about as fast as a clean one', async () => {
    /** The least CPU time of three reads of a note whose content is `body`. */
    const cpu = async (body: string) => {
      const xml = exportOf(`<note><title>Errors</title><content>${body}</content></note>`);
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const started = process.cpuUsage();
        const [note] = await notesOf(xml);
        const used = process.cpuUsage(started);
        best = Math.min(best, (used.user + used.system) / 1000);
        expect(note).toMatchObject({ title: 'Errors' });
        if (body.includes('\u0000')) expect(note).toMatchObject({ content: 'a'.repeat(100_000) });
      }
      return best;
    };
    // As many elements as the errors below, in as many characters.
    const clean = await cpu('<b>x</b>'.repeat(25_000));
    // Each NUL was an error saxes made an Error for, with its stack trace, and so was each bad
    // character reference: 17 and 9 times the clean file's time (now 0.1 and 0.8).
    const nuls = await cpu('a\u0000'.repeat(100_000));
    const references = await cpu('&#xD800;'.repeat(25_000));
    const figures = `clean ${clean.toFixed(1)} ms, NULs ${nuls.toFixed(1)} ms, references ${references.toFixed(1)} ms`;
    expect(nuls / clean, figures).toBeLessThan(4);
    expect(references / clean, figures).toBeLessThan(4);
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
  }, 60_000);

  it.each(['yarle/test.enex', 'evernote2md/cdata.issue.enex', 'joplin/invalid_html.enex'])(
    'imports the note of the real %s with its text',
    async (file) => {
      const items = await readAll(
        evernoteReader,
        memorySource({ 'Notebook.enex': readFileSync(path.join(REAL, file)) }),
      );
      expect(problemsOf(items)).toEqual([]);
      const [thought] = thoughtsOf(items);
      expect(thought!.thought.content).not.toMatch(/]]>|<\/?(div|en-note)/);
      const expected = {
        'yarle/test.enex': ['# test', 'Draft the proposal', 'An international thing would be more powerful.'],
        'evernote2md/cdata.issue.enex': [
          '# Test note with nested CDATA tags',
          'email',
          '**Title**',
          'Date',
          'text',
        ],
        'joplin/invalid_html.enex': ['# DSCN0716.JPG'],
      }[file]!;
      for (const text of expected) expect(thought!.thought.content).toContain(text);
    },
  );
});

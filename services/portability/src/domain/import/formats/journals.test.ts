import { describe, expect, it } from 'vitest';
import { evernoteReader } from './evernote-reader';
import { havenReader } from './haven-reader';
import { detectFormat } from './index';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';

const ENEX = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export3.dtd" [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<en-export export-date="20240105T120000Z" application="Evernote" version="10">
  <note>
    <title>Trip &amp; plans</title>
    <content><![CDATA[<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd"><en-note><h2>Packing</h2><div><en-todo checked="true"/>Passport</div><div><en-todo/>Socks #travel</div><en-media type="image/png" hash="abc"/><div>Visit <a href="https://example.com/#frag">site</a></div></en-note>]]></content>
    <created>20240102T103000Z</created>
    <updated>20240103T080000Z</updated>
    <tag>Travel</tag>
    <tag>2024</tag>
    <note-attributes><author>me</author></note-attributes>
    <resource><data encoding="base64">${'QUJD'.repeat(5000)}</data><mime>image/png</mime></resource>
  </note>
  <note>
    <title>Laughs &lol3;</title>
    <content><![CDATA[<en-note><div>never expanded</div></en-note>]]></content>
    <created>20240104T090000Z</created>
  </note>
  <note>
    <title>Last</title>
    <content><![CDATA[<en-note><div>still read after the bad note</div></en-note>]]></content>
    <created>20240105T090000Z</created>
  </note>
</en-export>
`;

describe('Evernote', () => {
  it('reads notes as Markdown, never expands entities, and fails only the note that uses one', async () => {
    const source = memorySource({ 'Notebook.enex': ENEX, 'cover.png': 'png' });
    expect(detectFormat(source.entries)).toBe(evernoteReader);
    const items = await readAll(evernoteReader, source);
    const [trip, last] = thoughtsOf(items);
    expect(trip!.thought).toMatchObject({
      title: 'Trip & plans',
      date: '2024-01-02T10:30:00.000Z',
      localDate: '2024-01-02',
      tags: ['Travel', 'travel'].slice(0, 1),
      format: 'markdown',
    });
    expect(trip!.thought.content).toBe(
      '# Trip & plans\n\n## Packing\n\n- [x] Passport\n- [ ] Socks #travel\n\nVisit [site](https://example.com/#frag)',
    );
    expect(last!.thought.content).toBe('# Last\n\nstill read after the bad note');
    const [bad, cover] = problemsOf(items);
    expect(bad).toMatchObject({ file: 'Notebook.enex', outcome: 'failed', at: { entry: 0, item: 1 } });
    expect(bad!.reason).toMatch(/^Note 2: The note is not valid XML: undefined entity/);
    expect(bad!.line).toBe(ENEX.split('\n').findIndex((l) => l.includes('&lol3;')) + 1);
    expect(JSON.stringify(items)).not.toContain('lollol');
    expect(cover).toMatchObject({ outcome: 'skipped', reason: 'Not a note (image)' });
  });
});

const THOUGHTS = `[
{"id":1,"content":"First thought #x","date":"2024-03-01T20:00:00.000Z","localDate":"2024-03-01","tags":["Work","work"],"isVoice":false,"category":"professional","hasAudio":false,"format":"markdown","audioFile":null},
{"id":2,"content":"🎤 voice","date":"2024-03-02T08:00:00.000Z","localDate":"2024-03-02","tags":[],"isVoice":true,"category":"personal","hasAudio":true,"audioFile":"audio/2.webm"},
{"id":3,"content":"","date":"2024-03-03T08:00:00.000Z","localDate":"2024-03-03","tags":[],"isVoice":false,"category":"personal","hasAudio":false,"format":"text"},
{"id":4,"content":"mine","date":"2024-03-04T08:00:00.000Z","localDate":"2024-03-04","tags":[],"isVoice":false,"category":"personal","userId":7}
]
`;
const CONVERSATIONS = `[
{"id":1,"title":"Chat","createdAt":"2024-03-01T10:00:00.000Z","updatedAt":"2024-03-01T10:05:00.000Z","messages":[{"type":"user","content":"Hi","createdAt":"2024-03-01T10:00:00.000Z"},{"type":"assistant","content":"Hello","createdAt":"2024-03-01T10:00:05.000Z"}]},
{"title":"Bad","createdAt":"yesterday","messages":[]}
]
`;

describe('Haven export', () => {
  it('streams thoughts with their audio file, then conversations; bad items fail by number, field and line', async () => {
    const source = memorySource({
      'export/README.txt': 'read me',
      'export/thoughts.json': THOUGHTS,
      'export/audio/2.webm': 'audio',
      'export/insights.json': '[]',
      'export/conversations.json': CONVERSATIONS,
      'export/2024/03/2024-03-01.md': '# day',
    });
    expect(detectFormat(source.entries)).toBe(havenReader);
    const items = await readAll(havenReader, source);
    const [first, voice] = thoughtsOf(items);
    expect(first).toMatchObject({
      dateSource: 'metadata',
      audioFile: null,
      thought: {
        content: 'First thought #x',
        tags: ['Work'],
        category: 'professional',
        format: 'markdown',
        title: null,
      },
    });
    expect(voice).toMatchObject({
      audioFile: 'export/audio/2.webm',
      thought: { isVoice: true, format: 'text', localDate: '2024-03-02' },
    });
    const conversations = items.flatMap((i) => (i.kind === 'conversation' ? [i.conversation] : []));
    expect(conversations).toEqual([
      {
        title: 'Chat',
        createdAt: '2024-03-01T10:00:00.000Z',
        messages: [
          { type: 'user', content: 'Hi', createdAt: '2024-03-01T10:00:00.000Z' },
          { type: 'assistant', content: 'Hello', createdAt: '2024-03-01T10:00:05.000Z' },
        ],
      },
    ]);
    expect(problemsOf(items).map((p) => [p.file, p.outcome, p.line, p.reason])).toEqual([
      ['export/README.txt', 'skipped', undefined, 'Not a note (the export’s read-me)'],
      ['export/thoughts.json', 'failed', 4, expect.stringMatching(/^Item 3: content: /)],
      ['export/thoughts.json', 'failed', 5, 'Item 4: Items cannot name a user'],
      ['export/insights.json', 'skipped', undefined, 'Insights are made again from your thoughts'],
      ['export/conversations.json', 'failed', 3, expect.stringMatching(/^Item 2: createdAt: /)],
      ['export/2024/03/2024-03-01.md', 'skipped', undefined, 'A Markdown copy of thoughts.json'],
    ]);
    expect(items.some((i) => i.file === 'export/audio/2.webm')).toBe(false);
    expect(source.reads).toEqual(['export/thoughts.json', 'export/conversations.json']);
  });

  it('resumes inside thoughts.json with exactly the suffix of a full read', async () => {
    const files = { 'thoughts.json': THOUGHTS, 'conversations.json': CONVERSATIONS };
    const full = await readAll(havenReader, memorySource(files));
    for (const [k, item] of full.entries())
      expect(await readAll(havenReader, memorySource(files), { resume: item.at })).toEqual(full.slice(k));
  });
});

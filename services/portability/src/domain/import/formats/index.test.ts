import { describe, expect, it } from 'vitest';
import type { SourceEntry } from '../source';
import { detectFormat } from './index';

const entries = (...names: string[]): SourceEntry[] =>
  names.map((name) => ({ name, size: 1, time: new Date(0) }));
const formatOf = (...names: string[]) => detectFormat(entries(...names))?.format ?? null;

describe('detectFormat', () => {
  it.each([
    [['README.txt', 'thoughts.json', 'audio/1.webm', '2024/01/2024-01-01.md'], 'haven'],
    [['haven-export/thoughts.json', 'haven-export/conversations.json'], 'haven'],
    [['logseq/config.edn', 'pages/contents.md'], 'logseq'],
    [['journals/2021_02_26.md', 'assets/a.png'], 'logseq'],
    [['.obsidian/app.json', 'Note.md', 'img.png'], 'obsidian'],
    [
      [
        '8436cd9c58824ca58ed146d7bd519dfd.md',
        '59e44f93f28242529fbbca804bdd25c5.md',
        'resources/b1947d6f70314ab180b343e90f1b4660.jpg',
      ],
      'joplin',
    ],
    [['Journal.json', 'photos/abc.jpeg'], 'dayone'],
    [['Takeout/Keep/Shopping.json', 'Takeout/Keep/Shopping.html', 'Takeout/archive_browser.html'], 'keep'],
    [['Keep/Note.json', 'Keep/Labels.txt'], 'keep'],
    // Takeout names Keep's folder in the account's language: known by the `.html` twins and Labels.txt.
    [
      ['Takeout/Google Notizen/A.json', 'Takeout/Google Notizen/A.html', 'Takeout/Google Notizen/Labels.txt'],
      'keep',
    ],
    [
      [
        'Takeout/Keep Notes/A.json',
        'Takeout/Keep Notes/A.html',
        'Takeout/Keep Notes/B.json',
        'Takeout/Keep Notes/B.html',
      ],
      'keep',
    ],
    [['Journal.json', 'Other.json', 'Journal.html', 'photos/a.jpeg'], 'dayone'],
    [['source/notes.json', 'Groceries.txt', 'trash/Old.txt'], 'simplenote'],
    [['simplenote/source/notes.json', 'simplenote/A.txt'], 'simplenote'],
    [['A.txt', 'B.txt', 'trash/C.txt'], 'simplenote'],
    [['A.txt', 'B.md', 'trash/C.txt'], 'notes'],
    [
      [
        'Home 5389002953cc46458768b37b378097e8.md',
        'Home 5389002953cc46458768b37b378097e8/Tasks 0123456789abcdef0123456789abcdef.csv',
        'Home 5389002953cc46458768b37b378097e8/Tasks 0123456789abcdef0123456789abcdef_all.csv',
        'Home 5389002953cc46458768b37b378097e8/image.png',
      ],
      'notion',
    ],
    [['My Notebook.enex'], 'evernote'],
    // jrnl: names only jrnl gives, for at least half the notes, the others `.txt`.
    [['journal.txt'], 'jrnl'],
    [['jrnl/journal.txt', 'jrnl/.DS_Store'], 'jrnl'],
    [['work.journal', 'personal.journal', 'cover.png'], 'jrnl'],
    [['jrnl-export.json'], 'jrnl'],
    [['backup/2020/08/29.txt', 'backup/2020/08/31.txt', 'backup/2021/01/02.txt'], 'jrnl'],
    [['2020/08/29.txt', '2020/08/31.txt', '2020/should-be-ignored.txt', 'README.txt'], 'jrnl'],
    // …and never another format's zip.
    [['journal.txt', 'Ideas.md'], 'notes'],
    [['journal.txt', 'todo.txt', 'ideas.txt'], 'notes'],
    [['2020/08/29.txt', '2020/08/notes.md'], 'notes'],
    [['work.journal', 'Page.html'], 'html'],
    [['journal.txt', 'trash/Old.txt'], 'simplenote'],
    [['.obsidian/app.json', 'daily.journal', 'Note.md'], 'obsidian'],
    [['Journal.json', 'journal-2024.json', 'photos/a.jpeg'], 'dayone'],
    [['jrnl.txt', 'Keep/Note.json', 'Keep/Note.html'], 'keep'],
    [['Notebook.enex', 'jrnl.txt'], 'evernote'],
    [['a.md', 'b.txt', 'c.png'], 'notes'],
    [['image.png', '.DS_Store', '__MACOSX/._a.md'], null],
    [[], null],
  ])('names %j as %s', (names, format) => expect(formatOf(...names)).toBe(format));

  it('decides a zip of one top folder as its contents', () => {
    for (const [names, format] of [
      [['MyVault/.obsidian/app.json', 'MyVault/Note.md'], 'obsidian'],
      [['graph/journals/2021_02_26.md', 'graph/pages/a.md', '__MACOSX/graph/._a.md'], 'logseq'],
      [['export/Journal.json', 'export/photos/a.jpeg'], 'dayone'],
      [['Notes/x.md'], 'notes'],
    ] as const)
      expect(formatOf(...names)).toBe(format);
  });
});

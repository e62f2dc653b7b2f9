import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/**
 * The zips of the outside probe against the import parsers (issue 31), made from code so that the
 * tests and the bench use exactly them. Run this file with a folder to write them there:
 * `npx tsx services/portability/test/support/probe-zips.ts /tmp/probe`.
 */

type Entry = { name: string; data: Buffer | Readable; mode?: number };

/** A zip of entries (name → bytes or a stream of bytes, and a file mode where one is given). */
export function zipEntries(entries: Entry[], mtime = new Date('2024-06-01T08:00:00Z')): Promise<Buffer> {
  const zip = new ZipFile();
  for (const e of entries)
    if (Buffer.isBuffer(e.data)) zip.addBuffer(e.data, e.name, { mtime, mode: e.mode });
    else zip.addReadStream(e.data, e.name, { mtime, mode: e.mode });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** A stream of `count` pieces, each made when it is read (a file far larger than memory should hold). */
function generated(count: number, piece: (i: number) => string, head = '', tail = ''): Readable {
  let i = -1;
  return new Readable({
    read() {
      if (i === -1) {
        i = 0;
        if (head) return void this.push(head);
      }
      if (i > count) return void this.push(null);
      if (i === count) {
        i++;
        return void this.push(tail || null);
      }
      const parts: string[] = [];
      for (let n = 0; n < 500 && i < count; n++, i++) parts.push(piece(i));
      this.push(parts.join(''));
    },
  });
}

/** The note that crashed the server: YAML front matter of 50,000 nested flow sequences. */
export const nestedFrontMatterNote = () => `---\n${'['.repeat(50_000)}\n---\nbody`;

/**
 * The probe's 547-byte zip and its bigger sister: `nested` notes of deeply nested front matter
 * (3 in the probe, 30 in the test's second round) among `good` ordinary notes.
 */
export function nestedFrontMatterZip(nested: number, good = 3): Promise<Buffer> {
  return zipEntries([
    ...Array.from({ length: good }, (_, i) => ({
      name: `good-${i + 1}.md`,
      data: Buffer.from(`# Good note ${i + 1}\n\nWalked by the river. #walk`),
    })),
    ...Array.from({ length: nested }, (_, i) => ({
      name: `nested-${i + 1}.md`,
      data: Buffer.from(nestedFrontMatterNote()),
    })),
  ]);
}

/** A line that made the hashtag masking quadratic: `[[` repeated to `bytes` characters. */
export const redosLine = (bytes: number, piece = '[[') => piece.repeat(Math.ceil(bytes / piece.length));

/** The probe's 330-byte zip: one note of one 200 KB line of `[[`, beside an ordinary note. */
export function redosZip(bytes = 200_000): Promise<Buffer> {
  return zipEntries([
    { name: 'ordinary.md', data: Buffer.from('# Ordinary\n\nA plain note. #plain') },
    { name: 'brackets.md', data: Buffer.from(redosLine(bytes)) },
  ]);
}

/** A realistic Day One entry: Markdown text of a few sentences, a zone, tags. */
function dayOneEntry(i: number): string {
  const created = new Date(Date.UTC(2010, 0, 1) + i * 47 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const text =
    `# Day ${i}\\n\\nWoke early and wrote for an hour before work. The light over the roofs was grey, ` +
    `then gold. Thought about project ${i % 97} and the conversation with Sam ${i % 13} days ago. #journal`;
  return JSON.stringify({
    uuid: i.toString(16).padStart(32, '0').toUpperCase(),
    creationDate: created,
    modifiedDate: created,
    timeZone: ['Europe/London', 'America/New_York', 'Asia/Tokyo'][i % 3],
    starred: i % 17 === 0,
    tags: i % 5 === 0 ? ['morning', 'work'] : ['morning'],
    text: JSON.parse(`"${text}"`) as string,
  });
}

/** A Day One JSON export of `entries` entries in one journal file (100,000 is the probe's 861 KB zip). */
export function dayOneZip(entries: number): Promise<Buffer> {
  return zipEntries([
    {
      name: 'Journal.json',
      data: generated(
        entries,
        (i) => (i ? ',\n' : '') + dayOneEntry(i),
        '{"metadata":{"version":"1.0"},"entries":[\n',
        '\n]}\n',
      ),
    },
  ]);
}

/** A forged Haven export: `items` items in thoughts.json, each naming another user (the probe's 1,000,000). */
export function forgedExportZip(items: number): Promise<Buffer> {
  return zipEntries([
    {
      name: 'thoughts.json',
      data: generated(items, (i) => `${i ? ',' : ''}{"userId":${i + 2},"content":"x"}\n`, '[\n', ']\n'),
    },
  ]);
}

/**
 * An Evernote export of `notes` notes in one `.enex` file, as Evernote 10 writes them: ENML in
 * CDATA with headings, a checklist, a table, a code block and tags.
 */
export function evernoteZip(notes: number): Promise<Buffer> {
  const note = (i: number) => {
    const day = new Date(Date.UTC(2019, 0, 1) + i * 3_600_000 * 9);
    const stamp = day.toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
    const enml = [
      '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">',
      `<en-note><h2>Evening ${i}</h2><div>Walked to the market and thought about <b>project ${i % 50}</b>.</div>`,
      '<ul><li style="--en-checked:true;"><div>water the tomatoes</div></li><li style="--en-checked:false;"><div>call the plumber</div></li></ul>',
      '<table><tr><td>Item</td><td>Cost</td></tr><tr><td>Bread</td><td>2.40</td></tr></table>',
      '<div style="--en-codeblock:true;"><div>#include &lt;stdio.h&gt;</div></div>',
      `<div>${'Some longer paragraph about the day, the weather and what I read in the evening. '.repeat(4)}</div></en-note>`,
    ].join('');
    return [
      `<note><title>Evening ${i}</title><content><![CDATA[${enml}]]></content>`,
      `<created>${stamp}</created><updated>${stamp}</updated>`,
      `<tag>journal</tag><tag>${['work', 'garden', 'reading'][i % 3]}</tag></note>\n`,
    ].join('');
  };
  return zipEntries([
    {
      name: 'Notebook.enex',
      data: generated(
        notes,
        note,
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export3.dtd">\n<en-export export-date="20240105T120000Z" application="Evernote" version="10.0">\n',
        '</en-export>\n',
      ),
    },
  ]);
}

/** A vault of `notes` ordinary Markdown notes (front matter, tags, links, a code block). */
export function vaultZip(notes: number): Promise<Buffer> {
  const entries: Entry[] = [];
  for (let i = 0; i < notes; i++) {
    const day = new Date(Date.UTC(2021, 0, 1) + i * 3_600_000 * 7);
    const body = [
      '---',
      `created: ${day.toISOString().slice(0, 16).replace('T', ' ')}`,
      `tags: [journal, ${['work', 'garden', 'reading'][i % 3]}]`,
      '---',
      `# Day note ${i}`,
      '',
      `Walked to the [[Market]] and thought about **project ${i % 50}**. #idea`,
      '',
      '- [ ] call the plumber',
      '- [x] water the tomatoes',
      '',
      '```js',
      'const colour = "#fff"; // #not-a-tag',
      '```',
      '',
      'Some longer paragraph about the day, the weather and what I read in the evening. '.repeat(4),
    ].join('\n');
    entries.push({
      name: `Vault/Journal/${day.toISOString().slice(0, 10)} note ${i}.md`,
      data: Buffer.from(body),
    });
  }
  entries.push({ name: 'Vault/.obsidian/app.json', data: Buffer.from('{}') });
  return zipEntries(entries);
}

const PROBES: Record<string, () => Promise<Buffer>> = {
  'nested-front-matter-3.zip': () => nestedFrontMatterZip(3, 0),
  'nested-front-matter-30.zip': () => nestedFrontMatterZip(30),
  'redos-200k.zip': () => redosZip(200_000),
  'redos-1m.zip': () => redosZip(1_000_000 - 1),
  'dayone-100k.zip': () => dayOneZip(100_000),
  'forged-1m.zip': () => forgedExportZip(1_000_000),
  'vault-10k.zip': () => vaultZip(10_000),
};

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const dir = process.argv[2] ?? '.';
  mkdirSync(dir, { recursive: true });
  for (const [name, make] of Object.entries(PROBES)) {
    const zip = await make();
    writeFileSync(path.join(dir, name), zip);
    console.log(`${name}: ${zip.length} bytes`);
  }
}

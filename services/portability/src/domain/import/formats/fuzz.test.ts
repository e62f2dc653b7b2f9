import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONTENT_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from '@haven/contracts/thoughts';
import { ImportLimitError, type FormatReader, type ImportItem } from '../source';
import { dayOneReader } from './dayone-reader';
import { evernoteReader } from './evernote-reader';
import { havenReader } from './haven-reader';
import { detectFormat } from './index';
import { joplinReader } from './joplin-reader';
import { jrnlReader } from './jrnl-reader';
import { keepReader } from './keep-reader';
import { logseqReader } from './logseq-reader';
import { memorySource, readAll } from './memory-source.test-support';
import { notesReader } from './notes-reader';
import { notionReader } from './notion-reader';
import { simplenoteReader } from './simplenote-reader';

/*
 * The format readers parse whatever a user uploads. Each format's usual files, with hostile text
 * put in every field (deep nesting, long runs of the characters parsers care about, NUL, lone
 * surrogates, markup of the other formats), must give sane items, quickly, or fail with an
 * ImportLimitError; anything else thrown is a crash. A failure prints fast-check's counterexample
 * and seed: FUZZ_SEED=<seed> replays a run, FUZZ_RUNS=<factor> fuzzes longer (both optional).
 */

/**
 * Longest one input may take to read, in CPU time of this process (the machine's other load
 * stretches wall time, not this), whatever it holds: it takes a few ms when all is well.
 */
const TIME_LIMIT_MS = 2_000;
/** What the heap may have grown by over the whole file, once garbage is collected. */
const HEAP_GROWTH_LIMIT = 200 * 1024 * 1024;
const RUN_FACTOR = Number(process.env.FUZZ_RUNS ?? 1) || 1;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
/**
 * fast-check's parameters for `n` runs. A property is cut short after a minute: shrinking a failure
 * re-reads slow hostile inputs hundreds of times, and is then reported with the smallest input so
 * far (a machine too slow to make the `n` runs in a minute passes with those it made).
 */
const runs = <T>(n: number): fc.Parameters<T> => ({
  numRuns: Math.ceil(n * RUN_FACTOR),
  interruptAfterTimeLimit: 60_000 * RUN_FACTOR,
  ...(SEED === undefined ? {} : { seed: SEED }),
});
/** Per test: the runs take seconds; a slow machine, or shrinking a failure, takes longer. */
const TEST_TIMEOUT = 120_000 * RUN_FACTOR;

type Files = Record<string, string | Buffer>;

// ---------------------------------------------------------------------------------------------
// Hostile text
// ---------------------------------------------------------------------------------------------

/** What parsers of Markdown, YAML, JSON, XML and HTML treat specially, and what breaks text. */
const TOKENS = [
  // Characters Markdown, YAML, JSON and XML give a meaning to.
  ...'#[](){}-:`$%<>*_\\"\'|!&=,./~+?@^',
  ...['##', '# ', '- ', ': ', '::', '```', '~~~', '$$', '%%', '> ', '\\#', '#abcd ', '#tag ', '#a/b '],
  // Space, line ends, and what breaks text: NUL, BEL, lone surrogates, BOM, joiners, RTL, emoji.
  ...[' ', '    ', '\t', '\n', '\n\n', '\r', '\r\n', '\v', '\f', '\u00A0', '\u2028', '\u3000'],
  ...['\u0000', '\u0007', '\uD800', '\uDFFF', '\uDBFF\uDFFF', '\uFEFF', '\u200B', '\u202E', 'e\u0301'],
  ...['😀', '👩‍👩‍👧‍👦', 'مرحبا بالعالم', 'שלום'],
  // Markdown and front matter.
  ...['---', '---\n', '\n---\n', '...\n', '[[', ']]', '](', '[x](', '![', '#[[', '<!--', '-->'],
  ...['http://', 'https://a.b/#c', 'www.', '#+BEGIN_SRC', '#+END_SRC', 'key:: value\n', 'id: ', 'type_: 1'],
  // XML and HTML.
  ...[']]>', '<![CDATA[', '&lt;', '&amp;', '&bogus;', '&#0;', '&#xD800;', '&#1114112;', '<?xml', '<!DOCTYPE'],
  ...['<div>', '</div>', '<b><i>', '<en-todo/>', '<en-media/>', '<pre>', '<code>', '<script>', '<style>'],
  ...['<br>', '<p>', '<a href="'],
  // JSON.
  ...['\\u0000', '\\ud800', '0', '1e999', '-0', 'null', 'true', '2023-01-02T04:30:00Z'],
];

/** Lengths of runs: mostly short, now and then long, a few up to 200,000 characters. */
const runLength = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 1, max: 64 }) },
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 5_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 200_000 }) },
);

/** Nesting depths: mostly shallow, now and then past any parser's comfort, a few 100,000 deep. */
const depth = fc.oneof(
  { weight: 20, arbitrary: fc.integer({ min: 1, max: 50 }) },
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 3_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 100_000 }) },
);

/** A token repeated to about `n` characters. */
const run = fc
  .tuple(fc.constantFrom(...TOKENS), runLength)
  .map(([token, n]) => token.repeat(Math.max(1, Math.ceil(n / token.length))));

/** Openers and closers of the nesting readers meet: Markdown, YAML, JSON, HTML, wikilinks. */
const NESTS: Array<[string, string]> = [
  ['[', ']'],
  ['{', '}'],
  ['(', ')'],
  ['[[', ']]'],
  ['- ', '\n'],
  ['> ', ''],
  ['* ', ''],
  ['1. ', ''],
  ['[x](', ')'],
  ['`', '`'],
  ['<div>', '</div>'],
  ['<b><i>', '</i></b>'],
  ['<ul><li>', '</li></ul>'],
  ['<table><tr><td>', '</td></tr></table>'],
  ['<blockquote>', '</blockquote>'],
  ['<a href="#">', '</a>'],
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['{"a":', '}'],
  ['["', '"]'],
];

/** Deep nesting, closed or left open, around a little text. */
const nested = fc
  .tuple(fc.constantFrom(...NESTS), depth, fc.boolean(), fc.string({ maxLength: 8 }))
  .map(([[open, close], d, closed, inner]) => open.repeat(d) + inner + (closed ? close.repeat(d) : ''));

/** An outline indented one more level per line (Logseq's and Markdown lists' nesting). */
const outline = fc
  .tuple(
    fc.integer({ min: 1, max: 400 }),
    fc.constantFrom('  ', '\t', '    '),
    fc.constantFrom('- ', '* ', ''),
  )
  .map(([d, indent, bullet]) =>
    Array.from({ length: d }, (_, i) => `${indent.repeat(i)}${bullet}item ${i} #t${i}`).join('\n'),
  );

/** A piece of hostile text. */
const piece = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...TOKENS) },
  { weight: 4, arbitrary: run },
  { weight: 2, arbitrary: nested },
  { weight: 1, arbitrary: outline },
);

/** The text put in a field: one piece, or several joined. */
const text = fc.oneof(
  { weight: 1, arbitrary: piece },
  { weight: 2, arbitrary: fc.array(piece, { minLength: 2, maxLength: 6 }).map((a) => a.join('')) },
);

/** A one-line value (a title, a date, a metadata value) — and now and then not one line after all. */
const lineText = fc.oneof(
  { weight: 6, arbitrary: text.map((t) => t.replace(/[\r\n]/g, ' ')) },
  { weight: 1, arbitrary: text },
);

/** Dates in the forms readers know, near misses, and anything. */
const dateText = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '2023-01-02T04:30:00Z',
      '2023-01-01T23:30:00-05:00',
      '2021-02-26',
      '2021/02/26',
      '2021-02-30',
      '0000-01-01',
      '9999-12-31T23:59:60.999999999+14:00',
      '20240102T103000Z',
      '01-01-2024 01:23 AM',
      'Feb 26th, 2021',
      'Tue, 1 Nov 2022 10:00:00 GMT',
      '1700000000',
      '1700000000000',
      '99999999999999999999',
      '[[Feb 26th, 2021]]',
      '{{date}}',
      '',
    ),
  },
  { weight: 1, arbitrary: lineText },
);

const hexId = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });

/** A file name's stem: short, with the characters names hold (and a few they should not). */
const stemText = fc.string({
  unit: fc.constantFrom(...'abcXYZ019 _-.%#[]()&+é😀', '___', '%2F', '2021_02_26', '2021-02-26 14.05'),
  minLength: 1,
  maxLength: 12,
});

// ---------------------------------------------------------------------------------------------
// JSON, YAML and XML built around hostile text
// ---------------------------------------------------------------------------------------------

/** Raw JSON nested `depth` deep, closed (valid) or left open (a syntax error). */
const jsonNested = fc
  .tuple(
    fc.constantFrom<[string, string, string]>(['[', '1', ']'], ['{"a":', '1', '}'], ['[{"x":', '"y"', '}]']),
    depth,
    fc.boolean(),
  )
  .map(([[open, inner, close], d, closed]) => open.repeat(d) + (closed ? inner + close.repeat(d) : ''));

/** The JSON text of a field's value: mostly the expected kind, else any value, deep nesting or garbage. */
const jsonField = (usual: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 12, arbitrary: usual.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: jsonNested },
    { weight: 1, arbitrary: fc.constantFrom('1e999', '-0', '"\\ud800"', '"\\u0000"', '', '"', '"\\', 'NaN') },
  );

/** A JSON object from fields (each left out now and then), written by hand so fields can be invalid. */
function jsonObject(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const entries = Object.entries(fields).map(([key, value]) =>
    fc.option(
      value.map((v) => `${JSON.stringify(key)}: ${v}`),
      { freq: 8 },
    ),
  );
  return fc.tuple(...entries).map((parts) => `{${parts.filter((p) => p !== null).join(',\n  ')}}`);
}

/** A JSON list of items, now and then with a hostile item or tail. */
const jsonList = (item: fc.Arbitrary<string>, maxLength = 4) =>
  fc
    .tuple(
      fc.array(fc.oneof({ weight: 8, arbitrary: item }, { weight: 1, arbitrary: jsonNested }), { maxLength }),
      fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: text }),
    )
    .map(([items, tail]) => `[\n${items.join(',\n')}\n]${tail}`);

/** A YAML value as front matter writes them: plain, quoted, lists, nested, or anything. */
const yamlValue = fc.oneof(
  { weight: 4, arbitrary: lineText },
  { weight: 2, arbitrary: text.map((t) => JSON.stringify(t)) },
  { weight: 2, arbitrary: dateText },
  {
    weight: 2,
    arbitrary: fc
      .array(lineText, { maxLength: 5 })
      .map((a) => `[${a.map((t) => JSON.stringify(t)).join(', ')}]`),
  },
  {
    weight: 1,
    arbitrary: fc.array(lineText, { maxLength: 5 }).map((a) => a.map((t) => `\n  - ${t}`).join('')),
  },
  { weight: 1, arbitrary: nested },
  { weight: 1, arbitrary: text },
);

/** YAML front matter: `key: value` lines, or any text at all. */
const frontMatter = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(
              ...'title,Title,tags,tag,keywords,created,Created At,date,updated,category,aliases'.split(','),
            ),
            lineText,
          ),
          yamlValue,
        ),
        { maxLength: 6 },
      )
      .map((lines) => lines.map(([k, v]) => `${k}: ${v}`).join('\n')),
  },
  { weight: 1, arbitrary: text },
);

/** A Markdown note: optional front matter, optional heading, body. */
const markdownNote = fc
  .tuple(fc.option(frontMatter, { freq: 2 }), fc.option(lineText, { freq: 2 }), text, fc.boolean())
  .map(([fm, heading, body, crlf]) => {
    const note =
      (fm === null ? '' : `---\n${fm}\n---\n`) + (heading === null ? '' : `# ${heading}\n\n`) + body;
    return crlf ? note.replace(/\n/g, '\r\n') : note;
  });

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Text of an XML element: escaped as it should be, or raw (then it may well break the XML). */
const xmlText = (arb: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 4, arbitrary: arb.map(escapeXml) }, { weight: 1, arbitrary: arb });

/** ENML: HTML with Evernote's own elements, nested, broken, or anything. */
const enmlPiece = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 2, arbitrary: nested },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...'div p b i span h1 h2 ul ol li table td pre code a blockquote'.split(' ')),
        depth,
        fc.boolean(),
        text,
      )
      .map(([tag, d, closed, inner]) => `<${tag}>`.repeat(d) + inner + (closed ? `</${tag}>`.repeat(d) : '')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '<en-todo checked="true"/>',
      '<en-todo/>',
      '<en-media type="image/png" hash="abc"/>',
      '<en-crypt>abc</en-crypt>',
      '<a href="https://example.com/#frag">site</a>',
      '<br/>',
      '<hr/>',
      '<img src="x"/>',
      '<script>alert(1)</script>',
      '<style>p{}</style>',
      '<?xml version="1.0"?>',
      '<!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">',
    ),
  },
);
const enml = fc
  .array(enmlPiece, { maxLength: 6 })
  .map((pieces) => `<?xml version="1.0" encoding="UTF-8"?><en-note>${pieces.join('')}</en-note>`);

// ---------------------------------------------------------------------------------------------
// The formats' files
// ---------------------------------------------------------------------------------------------

/** Files as a record; names made twice keep their last content. */
const filesOf = (list: Array<[string, string | Buffer]>): Files => Object.fromEntries(list);

/** Now and then, bytes that are not UTF-8 spliced into a file (a stray Latin-1 byte, a cut sequence). */
const withBadBytes = (files: fc.Arbitrary<Files>) =>
  fc
    .tuple(
      files,
      fc.option(fc.tuple(fc.nat(), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4, min: 0x80 })), {
        freq: 6,
      }),
    )
    .map(([record, bad]) => {
      const names = Object.keys(record);
      if (!bad || names.length === 0) return record;
      const [which, at, bytes] = bad;
      const name = names[which % names.length]!;
      const buf = Buffer.from(record[name]!);
      const cut = at % (buf.length + 1);
      return { ...record, [name]: Buffer.concat([buf.subarray(0, cut), bytes, buf.subarray(cut)]) };
    });

/** This product's own export: thoughts.json, conversations.json and the files beside them. */
const havenFiles = withBadBytes(
  fc
    .tuple(
      fc.constantFrom('', 'export/'),
      jsonList(
        jsonObject({
          id: jsonField(fc.nat()),
          content: jsonField(text),
          date: jsonField(fc.oneof(fc.constant('2024-03-01T20:00:00.000Z'), dateText)),
          localDate: jsonField(fc.oneof(fc.constant('2024-03-01'), dateText)),
          timezoneOffset: jsonField(fc.oneof(fc.integer({ min: -900, max: 900 }), fc.constant(null))),
          category: jsonField(fc.oneof(fc.constantFrom('personal', 'professional', 'creative'), lineText)),
          tags: jsonField(fc.array(lineText, { maxLength: 25 })),
          isVoice: jsonField(fc.boolean()),
          format: jsonField(fc.oneof(fc.constantFrom('text', 'markdown'), lineText)),
          audioFile: jsonField(fc.oneof(fc.constant('audio/2.webm'), fc.constant(null), lineText)),
        }),
      ),
      jsonList(
        jsonObject({
          title: jsonField(lineText),
          createdAt: jsonField(fc.oneof(fc.constant('2024-03-01T10:00:00.000Z'), dateText)),
          updatedAt: jsonField(dateText),
          messages: fc.oneof(
            {
              weight: 4,
              arbitrary: jsonList(
                jsonObject({
                  type: jsonField(fc.constantFrom('user', 'assistant', 'x')),
                  content: jsonField(text),
                  createdAt: jsonField(fc.oneof(fc.constant('2024-03-01T10:00:00.000Z'), dateText)),
                }),
              ),
            },
            { weight: 1, arbitrary: jsonNested },
          ),
        }),
      ),
      fc.option(text, { freq: 3 }),
    )
    .map(([top, thoughts, conversations, markdown]) =>
      filesOf([
        [`${top}README.txt`, 'read me'],
        [`${top}thoughts.json`, thoughts],
        [`${top}audio/2.webm`, 'audio'],
        [`${top}insights.json`, '[]'],
        [`${top}conversations.json`, conversations],
        ...(markdown === null
          ? []
          : ([[`${top}2024/03/2024-03-01.md`, markdown]] as Array<[string, string]>)),
      ]),
    ),
);

/** A Logseq graph: settings, journals named by their day, pages with `key:: value` properties. */
const logseqFiles = withBadBytes(
  fc
    .tuple(
      fc.array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom('journals/2021_02_26', 'journals/2023-01-01', 'journals/2021_13_45'),
            stemText.map((s) => `pages/${s}`),
          ),
          fc.array(fc.tuple(fc.constantFrom('title', 'tags', 'alias', 'created-at', 'date', 'x'), lineText), {
            maxLength: 4,
          }),
          fc.oneof(
            text,
            fc.array(text, { maxLength: 6 }).map((lines) => lines.map((l) => `- ${l}`).join('\n')),
            markdownNote,
          ),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([pages]) =>
      filesOf([
        ['logseq/config.edn', '{:meta/version 1}'],
        ...pages.map(([name, props, body]): [string, string] => [
          `${name}.md`,
          props.map(([k, v]) => `${k}:: ${v}\n`).join('') + body,
        ]),
      ]),
    ),
);

/** A folder of notes (an Obsidian vault when `.obsidian/` is there): Markdown and text files. */
const noteFiles = (obsidian: boolean) =>
  withBadBytes(
    fc
      .array(
        fc.tuple(
          fc.constantFrom('', 'Notes/', 'Notes/Sub/'),
          stemText,
          fc.constantFrom('md', 'md', 'markdown', 'txt'),
          markdownNote,
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((notes) =>
        filesOf([
          ...(obsidian ? ([['.obsidian/app.json', '{}']] as Array<[string, string]>) : []),
          ...notes.map(([folder, stem, ext, body]): [string, string] => [`${folder}${stem}.${ext}`, body]),
          ['Notes/picture.jpg', 'jpg'],
        ]),
      ),
  );

/** A Joplin RAW export: `<id>.md` items (title, body, then `key: value` metadata), resources. */
const joplinFiles = withBadBytes(
  fc
    .array(
      fc.tuple(
        hexId,
        lineText,
        // Markdown, or HTML (markup_language 2).
        fc.oneof(
          text,
          fc.array(enmlPiece, { maxLength: 6 }).map((pieces) => pieces.join('')),
        ),
        fc.record({
          id: fc.oneof(hexId, lineText),
          parent_id: hexId,
          created_time: dateText,
          updated_time: dateText,
          user_created_time: dateText,
          user_updated_time: dateText,
          markup_language: fc.oneof(fc.constantFrom('1', '2', '2'), lineText),
          is_todo: fc.constantFrom('0', '1'),
          type_: fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom('1', '1', '2', '5', '13', '99') },
            { weight: 1, arbitrary: lineText },
          ),
        }),
        fc.boolean(),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((items) =>
      filesOf([
        ...items.map(([id, title, body, meta, withMeta]): [string, string] => [
          `${id}.md`,
          `${title}\n\n${body}\n\n` +
            (withMeta
              ? Object.entries(meta)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join('\n')
              : ''),
        ]),
        ['resources/abc.png', 'png'],
      ]),
    ),
);

/** Web pages as the Apple Notes exporters write them: head (title, meta, inline data) or none, then HTML. */
const htmlPageFiles = withBadBytes(
  fc
    .array(
      fc.tuple(
        stemText,
        fc.constantFrom('html', 'htm'),
        fc.option(
          fc.tuple(
            lineText,
            fc.constantFrom(
              '',
              '<meta name="created" content="2021-02-26T10:00:00Z">',
              "<meta content='",
              '<title',
            ),
          ),
          { freq: 3 },
        ),
        fc.array(
          fc.oneof(
            { weight: 6, arbitrary: enmlPiece },
            {
              weight: 1,
              arbitrary: fc.constantFrom(
                '<img src="data:image/png;base64,AAAA">',
                ' src="data:',
                '<div><br></div>',
              ),
            },
          ),
          { maxLength: 6 },
        ),
      ),
      { maxLength: 4 },
    )
    .map((pages) =>
      filesOf(
        pages.map(([name, ext, head, pieces]) => [
          `Notes/${name}.${ext}`,
          (head ? `<html><head>${head[1]}<title>${head[0]}</title></head><body>` : '') + pieces.join(''),
        ]),
      ),
    ),
);

/** Google Keep in a Takeout: one JSON file per note, with its HTML copy and the labels' list. */
const keepFiles = withBadBytes(
  fc
    .array(
      fc.tuple(
        stemText,
        fc.oneof(
          {
            weight: 8,
            arbitrary: jsonObject({
              color: jsonField(fc.constant('DEFAULT')),
              isTrashed: jsonField(
                fc.oneof(
                  { weight: 6, arbitrary: fc.constant(false) },
                  { weight: 1, arbitrary: fc.boolean() },
                ),
              ),
              isPinned: jsonField(fc.boolean()),
              title: jsonField(lineText),
              textContent: jsonField(text),
              listContent: fc.oneof(
                {
                  weight: 1,
                  arbitrary: jsonList(
                    jsonObject({ text: jsonField(text), isChecked: jsonField(fc.boolean()) }),
                    6,
                  ),
                },
                { weight: 1, arbitrary: fc.constant('[]') },
              ),
              labels: jsonList(jsonObject({ name: jsonField(lineText) }), 6),
              createdTimestampUsec: jsonField(
                fc.oneof(
                  fc.constant(1_700_000_000_000_000),
                  fc.integer(),
                  fc.double(),
                  fc.stringMatching(/^\d{1,25}$/),
                ),
              ),
              userEditedTimestampUsec: jsonField(fc.oneof(fc.constant(1_600_000_000_000_000), fc.integer())),
            }),
          },
          { weight: 1, arbitrary: jsonNested },
          { weight: 1, arbitrary: text },
        ),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((notes) =>
      filesOf([
        ...notes.flatMap(([stem, json]): Array<[string, string]> => [
          [`Takeout/Keep/${stem}.json`, json],
          [`Takeout/Keep/${stem}.html`, '<html></html>'],
        ]),
        ['Takeout/Keep/Labels.txt', 'Home\n'],
      ]),
    ),
);

/** An Evernote notebook: `<note>`s with title, ENML in CDATA, dates and tags; a DTD now and then. */
const enexNote = fc
  .tuple(
    xmlText(lineText),
    fc.oneof(
      { weight: 6, arbitrary: enml.map((c) => `<![CDATA[${c}]]>`) },
      { weight: 1, arbitrary: enml.map(escapeXml) },
      { weight: 1, arbitrary: xmlText(text) },
    ),
    xmlText(dateText),
    xmlText(dateText),
    fc.array(xmlText(lineText), { maxLength: 4 }),
  )
  .map(
    ([title, content, created, updated, tags]) =>
      `  <note>\n    <title>${title}</title>\n    <content>${content}</content>\n` +
      `    <created>${created}</created>\n    <updated>${updated}</updated>\n` +
      tags.map((t) => `    <tag>${t}</tag>\n`).join('') +
      `    <resource><data encoding="base64">QUJD</data><mime>image/png</mime></resource>\n  </note>\n`,
  );
const evernoteFiles = withBadBytes(
  fc
    .tuple(
      fc.constantFrom(
        '',
        '<!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export3.dtd">\n',
        '<!DOCTYPE en-export [\n  <!ENTITY lol "lol">\n  <!ENTITY lol2 "&lol;&lol;&lol;&lol;">\n]>\n',
      ),
      fc.array(enexNote, { minLength: 1, maxLength: 3 }),
      fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: text }),
    )
    .map(([doctype, notes, tail]) =>
      filesOf([
        [
          'Notebook.enex',
          `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}` +
            `<en-export export-date="20240105T120000Z" application="Evernote" version="10">\n` +
            `${notes.join('')}</en-export>\n${tail}`,
        ],
        ['cover.png', 'png'],
      ]),
    ),
);

/** A Day One journal: `entries` with Markdown text, instant, time zone and tags; photos beside it. */
const dayOneFiles = withBadBytes(
  fc
    .tuple(
      jsonList(
        jsonObject({
          uuid: jsonField(hexId),
          creationDate: jsonField(fc.oneof(fc.constant('2023-01-02T04:30:00Z'), dateText)),
          timeZone: jsonField(
            fc.oneof(
              fc.constantFrom('America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Etc/GMT+12', 'UTC'),
              lineText,
            ),
          ),
          text: jsonField(text),
          tags: jsonField(fc.array(lineText, { maxLength: 25 })),
          starred: jsonField(fc.boolean()),
          photos: jsonField(fc.constant([{ md5: 'abc', type: 'jpeg' }])),
        }),
      ),
      fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: jsonNested }),
    )
    .map(([entries, extra]) =>
      filesOf([
        [
          'Journal.json',
          `{"metadata": {"version": "1.0"}, ${extra ? `"extra": ${extra}, ` : ''}"entries": ${entries}}`,
        ],
        ['photos/abc.jpeg', 'binary'],
      ]),
    ),
);

/** A CSV cell: quoted as it should be, bare, or anything (a stray quote breaks the CSV). */
const csvCell = fc.oneof(
  { weight: 4, arbitrary: text.map((t) => `"${t.replace(/"/g, '""')}"`) },
  { weight: 2, arbitrary: lineText.map((t) => t.replace(/[",\r\n]/g, ' ')) },
  { weight: 1, arbitrary: fc.constantFrom('', 'January 5, 2023 3:04 PM', 'February 30, 2023', 'a, b, c') },
  { weight: 1, arbitrary: text },
);

/** A CSV: a header of property names, rows of cells (their count need not match the header's). */
const csvFile = (firstCells: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.array(fc.oneof(fc.constantFrom('Name', 'Tags', 'Created', 'Status', 'Date', 'category'), csvCell), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.array(fc.tuple(firstCells, fc.array(csvCell, { maxLength: 7 })), { maxLength: 5 }),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
    )
    .map(
      ([header, rows, eol, bom]) =>
        (bom ? '\uFEFF' : '') +
        [header.join(','), ...rows.map(([first, cells]) => [first, ...cells].join(','))].join(eol),
    );

/** Notion's Markdown & CSV export: `Title <id>.md` pages, a database's CSVs and its row pages. */
const notionFiles = withBadBytes(
  fc
    .tuple(
      fc.array(
        fc.tuple(
          stemText,
          hexId,
          fc
            .tuple(
              fc.option(lineText, { freq: 4 }),
              fc.array(fc.tuple(fc.constantFrom('Tags', 'Created', 'Status', 'x'), lineText), {
                maxLength: 4,
              }),
              markdownNote,
            )
            .map(
              ([title, props, body]) =>
                (title === null ? '' : `# ${title}\n\n`) +
                props.map(([k, v]) => `${k}: ${v}\n`).join('') +
                body,
            ),
        ),
        { minLength: 1, maxLength: 3 },
      ),
      hexId,
      fc.array(stemText, { maxLength: 3 }),
      fc.option(csvFile(fc.oneof(stemText, csvCell)), { freq: 4 }),
      fc.boolean(),
    )
    .map(([pages, dbId, rowPages, csv, both]) => {
      const [first] = pages;
      return filesOf([
        ...pages.map(([stem, id, body]): [string, string] => [`${stem} ${id}.md`, body]),
        [`${first![0]} ${first![1]}/image.png`, 'png'],
        ...(csv === null
          ? []
          : ([[`Tasks ${dbId}_all.csv`, csv], ...(both ? [[`Tasks ${dbId}.csv`, csv]] : [])] as Array<
              [string, string]
            >)),
        ...rowPages.map((stem, i): [string, string] => [
          `Tasks ${dbId}/${stem} ${dbId.slice(i + 1)}${'0'.repeat(i + 1)}.md`,
          `# ${stem}\n\nStatus: x\n\nbody`,
        ]),
      ]);
    }),
);

/** A Simplenote export: `source/notes.json` (live and trashed notes) with `.txt` copies, or only the `.txt`. */
const simplenoteNote = jsonObject({
  id: jsonField(lineText),
  content: jsonField(text),
  creationDate: jsonField(fc.oneof(fc.constant('2021-03-04T05:06:07.000Z'), dateText)),
  lastModified: jsonField(fc.oneof(fc.constant('2022-01-01T00:00:00.000Z'), dateText)),
  tags: jsonField(fc.array(lineText, { maxLength: 25 })),
  markdown: jsonField(fc.boolean()),
  pinned: jsonField(fc.boolean()),
  deleted: jsonField(
    fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.boolean() }),
  ),
});
const simplenoteFiles = withBadBytes(
  fc
    .tuple(
      fc.constantFrom('', 'simplenote/'),
      fc.option(
        fc
          .tuple(
            jsonList(simplenoteNote),
            jsonList(simplenoteNote),
            fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: jsonNested }),
          )
          .map(
            ([active, trashed, extra]) =>
              `{${extra ? `"extra": ${extra}, ` : ''}"activeNotes": ${active}, "trashedNotes": ${trashed}}`,
          ),
        { freq: 4 },
      ),
      fc.array(fc.tuple(stemText, text), { minLength: 1, maxLength: 3 }),
      text,
    )
    .map(([top, json, notes, trashed]) =>
      filesOf([
        ...(json === null ? [] : ([[`${top}source/notes.json`, json]] as Array<[string, string]>)),
        // A visible note always: with only hidden ones, `trash/` alone would be the zip's top folder.
        [`${top}Welcome.txt`, 'Welcome'],
        ...notes.map(([stem, body]): [string, string] => [`${top}${stem}.txt`, body]),
        [`${top}trash/Old.txt`, trashed],
      ]),
    ),
);

/** A jrnl stamp: its own formats, near misses (no such day, hour or form), or anything. */
const jrnlStamp = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '2024-01-31 09:00',
      '2024-01-31 09:00:00 PM',
      '2024-01-31 12:00 am',
      '14:32',
      '31.01.2024 09:00',
      '2024-02-30 09:00',
      '2024-01-31 25:00',
      '2024-01-31 13:00 PM',
      '2019-07 14:23',
      '1',
      '',
    ),
  },
  { weight: 1, arbitrary: dateText },
);

/** A plain jrnl journal: text before any entry now and then, entries `[stamp] Title *` and a body. */
const jrnlText = fc
  .tuple(
    fc.option(text, { freq: 4 }),
    fc.array(
      fc.tuple(
        jrnlStamp,
        fc.constantFrom(' ', '', '  ', 'x'),
        lineText,
        fc.constantFrom('', ' *', '*'),
        text,
      ),
      { maxLength: 5 },
    ),
    fc.boolean(),
  )
  .map(([before, entries, crlf]) => {
    const journal =
      (before === null ? '' : `${before}\n`) +
      entries.map(([stamp, gap, title, star, body]) => `[${stamp}]${gap}${title}${star}\n${body}\n`).join('');
    return crlf ? journal.replace(/\n/g, '\r\n') : journal;
  });

/** jrnl: a journal file, a folder journal's day files, or its JSON export. */
const jrnlFiles = withBadBytes(
  fc
    .tuple(
      fc.constantFrom('journal.txt', 'work.journal', 'jrnl/journal.txt'),
      jrnlText,
      fc.array(fc.tuple(fc.constantFrom('2020/08/29', '2020/02/30', '2021/13/01'), jrnlText), {
        maxLength: 2,
      }),
      fc.option(
        fc.tuple(
          jsonList(
            jsonObject({
              title: jsonField(lineText),
              body: jsonField(text),
              date: jsonField(fc.oneof(fc.constant('2024-01-31'), dateText)),
              time: jsonField(fc.oneof(fc.constant('09:00'), lineText)),
              tags: jsonField(
                fc.array(
                  lineText.map((t) => `@${t}`),
                  { maxLength: 25 },
                ),
              ),
              starred: jsonField(fc.boolean()),
            }),
          ),
          fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: jsonNested }),
        ),
        { freq: 3 },
      ),
    )
    .map(([name, journal, days, json]) =>
      filesOf([
        [name, journal],
        ...days.map(([day, body]): [string, string] => [`${day}.txt`, body]),
        ...(json === null
          ? []
          : ([['jrnl-export.json', `{"tags": ${json[1] || '{"@a": 1}'}, "entries": ${json[0]}}`]] as Array<
              [string, string]
            >)),
      ]),
    ),
);

// ---------------------------------------------------------------------------------------------
// What every read must satisfy
// ---------------------------------------------------------------------------------------------

const KINDS = new Set(['thought', 'conversation', 'problem']);

/** Sane items: known kinds, positions in order, thoughts within the limits of a thought. */
function expectSane(items: ImportItem[], names: Set<string>): void {
  let previous: ImportItem['at'] | null = null;
  for (const item of items) {
    expect(KINDS.has(item.kind), `kind ${item.kind}`).toBe(true);
    expect(names.has(item.file), `file ${item.file}`).toBe(true);
    expect(Number.isInteger(item.at.entry) && item.at.entry >= 0).toBe(true);
    expect(Number.isInteger(item.at.item) && item.at.item >= 0).toBe(true);
    if (previous)
      expect(
        item.at.entry > previous.entry || (item.at.entry === previous.entry && item.at.item > previous.item),
        'items in order',
      ).toBe(true);
    previous = item.at;
    if (item.kind === 'thought') {
      const { content, tags } = item.thought;
      expect(typeof content).toBe('string');
      expect(content.length).toBeLessThanOrEqual(MAX_CONTENT_LENGTH);
      expect(tags.length).toBeLessThanOrEqual(MAX_TAGS);
      for (const tag of tags) {
        expect(typeof tag).toBe('string');
        expect(tag.length).toBeLessThanOrEqual(MAX_TAG_LENGTH);
      }
      if (item.part) expect(item.part.n >= 1 && item.part.n <= item.part.of).toBe(true);
    } else if (item.kind === 'problem') {
      expect(typeof item.reason).toBe('string');
    }
  }
}

/**
 * Reads the files with `reader` as the sandbox would (format detection first): anything thrown but
 * an ImportLimitError is a crash, the read takes under TIME_LIMIT_MS, and its items are sane.
 */
async function readChecked(reader: FormatReader, files: Files): Promise<ImportItem[]> {
  const source = memorySource(files);
  let items: ImportItem[] = [];
  let thrown: unknown = null;
  const start = process.cpuUsage();
  try {
    // The input is of the format meant (else the property tests less than it says), or of none
    // (a folder whose every note is hidden).
    const detected = detectFormat(source.entries);
    expect([reader.format, null]).toContain(detected?.format ?? null);
    items = await readAll(reader, source);
  } catch (err) {
    thrown = err;
  }
  const used = process.cpuUsage(start);
  const elapsed = (used.user + used.system) / 1000;
  if (thrown !== null && !(thrown instanceof ImportLimitError)) throw thrown;
  expect(elapsed, 'CPU milliseconds to read one input').toBeLessThan(TIME_LIMIT_MS);
  expectSane(items, new Set(Object.keys(files)));
  return items;
}

/** Heap in use once garbage is collected (V8's `gc` is made reachable as jest's leak detector does). */
function heapUsed(): number {
  let gc = globalThis.gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as typeof gc;
    setFlagsFromString('--no-expose-gc');
  }
  gc?.();
  return process.memoryUsage().heapUsed;
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

describe('import readers under hostile input', () => {
  let heapAtStart = 0;
  beforeAll(() => {
    heapAtStart = heapUsed();
  });

  const FORMATS: Array<[string, FormatReader, fc.Arbitrary<Files>, number]> = [
    ['Haven export', havenReader, havenFiles, 250],
    ['Logseq graph', logseqReader, logseqFiles, 250],
    ['Obsidian vault', notesReader('obsidian'), noteFiles(true), 250],
    ['folder of notes', notesReader('notes'), noteFiles(false), 250],
    ['Joplin RAW export', joplinReader, joplinFiles, 300],
    ['Google Keep', keepReader, keepFiles, 400],
    ['Evernote', evernoteReader, evernoteFiles, 200],
    ['Day One', dayOneReader, dayOneFiles, 250],
    ['Notion', notionReader, notionFiles, 250],
    ['Simplenote', simplenoteReader, simplenoteFiles, 250],
    ['folder of HTML notes', notesReader('html'), htmlPageFiles, 250],
    ['jrnl', jrnlReader, jrnlFiles, 250],
  ];

  for (const [name, reader, files, numRuns] of FORMATS)
    it(
      `${name}: never crashes, hangs or yields an insane item`,
      async () => {
        await fc.assert(
          fc.asyncProperty(files, async (input) => {
            await readChecked(reader, input);
          }),
          runs(numRuns),
        );
      },
      TEST_TIMEOUT,
    );

  describe('known hostile inputs', () => {
    /** How many times `char` occurs in the contents of the thoughts of `items`. */
    const countIn = (items: ImportItem[], char: string) =>
      items.reduce((n, i) => n + (i.kind === 'thought' ? i.thought.content.split(char).length - 1 : 0), 0);

    it('keeps front matter of 50,000 `[` as text, never parsed, twice in a row in the same process', async () => {
      // The YAML parser's stack overflow, caught, used to abort the process at the next regex.
      const brackets = '['.repeat(50_000);
      for (const note of [`---\n${brackets}\n---\nbody`, `---\ntags: ${brackets}\n---\nbody`]) {
        for (let i = 0; i < 2; i++) {
          const items = await readChecked(notesReader('notes'), { 'a.md': note });
          expect(items.every((item) => item.kind === 'thought')).toBe(true);
          expect(countIn(items, '[')).toBe(50_000);
        }
      }
    });

    it('reads a note body of 100,000 `[[`, all of it', async () => {
      const items = await readChecked(notesReader('obsidian'), {
        '.obsidian/app.json': '{}',
        'a.md': '[['.repeat(100_000),
      });
      expect(items.filter((i) => i.file === 'a.md').every((i) => i.kind === 'thought')).toBe(true);
      expect(countIn(items, '[')).toBe(200_000);
    });

    it('reads an Evernote note of <div> 100,000 deep', async () => {
      // Both under the 1 MB limit of a note: left open, and closed 90,000 deep.
      const open = '<div>'.repeat(100_000);
      const closed = '<div>'.repeat(90_000) + 'x' + '</div>'.repeat(90_000);
      for (const deep of [open, closed]) {
        const enex =
          '<?xml version="1.0" encoding="UTF-8"?>\n<en-export>\n  <note>\n    <title>Deep</title>\n' +
          `    <content><![CDATA[<en-note>${deep}deep</en-note>]]></content>\n` +
          '    <created>20240102T103000Z</created>\n  </note>\n</en-export>\n';
        const [item, ...rest] = await readChecked(evernoteReader, { 'Deep.enex': enex });
        expect(rest).toEqual([]);
        // Its text, or a failed note; never a crash.
        if (item!.kind === 'thought') expect(item!.thought.content).toMatch(/deep$/);
        else expect(item).toMatchObject({ kind: 'problem', outcome: 'failed' });
      }
    });

    it('reads a Day One entry of 1 MB of `#`, all of it', async () => {
      const journal = JSON.stringify({
        entries: [{ uuid: 'A1', creationDate: '2023-01-02T04:30:00Z', text: '#'.repeat(1024 * 1024) }],
      });
      const items = await readChecked(dayOneReader, { 'Journal.json': journal });
      expect(items.every((i) => i.kind === 'thought')).toBe(true);
      expect(countIn(items, '#')).toBe(1024 * 1024);
    });

    it('reads a Notion database of one unclosed quote and 1 MB of `"`, and a page of 90,000 properties', async () => {
      const id = 'a'.repeat(32);
      const items = await readChecked(notionReader, {
        [`DB ${id}.csv`]: 'Name,Tags\n"' + '"'.repeat(1024 * 1024),
        [`DB ${id}/Row ${id}.md`]: '# Row\n\n' + 'Key: value\n'.repeat(90_000),
        [`Other ${id}.md`]: '# Other\n\n' + ':'.repeat(1_000_000),
      });
      // Both pages under the 1 MB limit of a note, read whole; the CSV fails or gives its row.
      expect(items.filter((i) => i.kind === 'thought' && (i.part?.n ?? 1) === 1).map((i) => i.file)).toEqual([
        `DB ${id}/Row ${id}.md`,
        `Other ${id}.md`,
      ]);
    });

    it('reads a Simplenote note whose first line is 1 MB of `#`', async () => {
      const json = JSON.stringify({ activeNotes: [{ content: '#'.repeat(1024 * 1024) + '\nbody' }] });
      const items = await readChecked(simplenoteReader, { 'source/notes.json': json });
      expect(items.every((i) => i.kind === 'thought')).toBe(true);
    });

    it('reads jrnl journals of 20,000 entries, of a 1 MB line of stamps and of lines of `[` and `@`', async () => {
      const many = await readChecked(jrnlReader, {
        'journal.txt': '[2024-01-31 09:00] Day @a #b *\nbody\n'.repeat(20_000),
      });
      expect(many.filter((i) => i.kind === 'thought')).toHaveLength(20_000);
      const stamps = '[2024-01-31 09:00] '.repeat(50_000);
      const hostile = await readChecked(jrnlReader, {
        'a.journal': stamps,
        'b.journal': `[2024-01-31 09:00] x\n${'['.repeat(300_000)}\n${' @'.repeat(100_000)}\n${'@'.repeat(200_000)}`,
      });
      expect(hostile.every((i) => i.kind === 'thought')).toBe(true);
      // The first stamp of a.journal is its entry's; the others are its title.
      expect(countIn(hostile, '[')).toBe(49_999 + 300_000);
    });

    it('fails a thoughts.json of arrays nested 100,000 deep', async () => {
      for (const json of ['['.repeat(100_000), '['.repeat(100_000) + ']'.repeat(100_000)]) {
        const items = await readChecked(havenReader, { 'thoughts.json': json });
        expect(items).toMatchObject([{ kind: 'problem', outcome: 'failed', file: 'thoughts.json' }]);
      }
    });
  });

  it('has not grown the heap over the whole run', () => {
    // After everything above: hostile input must not have left the heap holding what it read.
    expect(heapUsed() - heapAtStart).toBeLessThan(HEAP_GROWTH_LIMIT);
  });
});

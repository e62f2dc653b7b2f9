import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { StoredBlob } from '../../blob-store';
import { ImportLimitError, type ImportItem, type ImportSource } from '../source';
import { openZipSource } from '../zip-source';
import { thoughtsOf } from './memory-source.test-support';

/** The real exports of other apps (CI has `shared/` beside the checkout); read in place, never copied. */
export const REAL = path.resolve(import.meta.dirname, '../../../../../../../shared/corpora/import-real');

/** Every file under `dir`, relative to it, `/`-separated, in a stable order. */
export function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) =>
      statSync(path.join(dir, name)).isDirectory()
        ? filesUnder(path.join(dir, name), `${prefix}${name}/`)
        : [`${prefix}${name}`],
    );
}

/** An ImportSource over a corpus folder as if it were zipped as it is (its files under their paths). */
export function folderSource(folder: string): ImportSource {
  const dir = path.join(REAL, folder);
  const names = filesUnder(dir);
  const open = (name: string, max: number) => {
    const buf = readFileSync(path.join(dir, name));
    if (buf.length > max) throw new ImportLimitError(`${name} is larger than ${max} bytes`);
    return buf;
  };
  return {
    entries: names.map((name) => ({
      name,
      size: statSync(path.join(dir, name)).size,
      time: new Date('2024-01-01T00:00:00Z'),
    })),
    read: async (name, max) => open(name, max),
    stream: (name, max) => Readable.from([open(name, max)]),
  };
}

/** A corpus zip opened as the import opens an upload. */
export function zipSource(file: string): Promise<ImportSource> {
  const bytes = readFileSync(path.join(REAL, file));
  const blob: StoredBlob = {
    id: file,
    size: bytes.length,
    readRange: async (start, end) => bytes.subarray(start, end),
    stream: () => Readable.from([bytes]),
  };
  return openZipSource(blob);
}

/** One note as a person labelled it by reading the export. */
export interface Label {
  /** Text only this note holds: finds its thought. */
  probe: string;
  title: string | null;
  tags: string[];
  /** Its checklist, each item's text and whether it is checked. */
  checks?: Array<[string, boolean]>;
}

/** What an import kept of the labelled notes. */
export interface Score {
  notes: number;
  lost: number;
  titlesRight: number;
  tagsRight: number;
  checks: number;
  checksKept: number;
  wrong: string[];
}

/** The labelled notes found among the items (each by its probe), and how much of each is right. */
export function score(items: ImportItem[], labels: readonly Label[]): Score {
  const thoughts = thoughtsOf(items).filter((t) => !t.part || t.part.n === 1);
  const s: Score = {
    notes: labels.length,
    lost: 0,
    titlesRight: 0,
    tagsRight: 0,
    checks: 0,
    checksKept: 0,
    wrong: [],
  };
  for (const label of labels) {
    const found = thoughts.find((t) => t.thought.content.includes(label.probe));
    s.checks += label.checks?.length ?? 0;
    if (!found) {
      s.lost++;
      s.wrong.push(`lost: ${label.probe}`);
      continue;
    }
    const { title, tags, content } = found.thought;
    if (title === label.title) s.titlesRight++;
    else s.wrong.push(`title of ${label.probe}: ${JSON.stringify(title)}`);
    if (JSON.stringify(tags) === JSON.stringify(label.tags)) s.tagsRight++;
    else s.wrong.push(`tags of ${label.probe}: ${JSON.stringify(tags)}`);
    for (const [text, checked] of label.checks ?? []) {
      if (content.split('\n').includes(`- [${checked ? 'x' : ' '}] ${text}`)) s.checksKept++;
      else s.wrong.push(`check ${text} of ${label.probe}`);
    }
  }
  return s;
}

/** Scores added up. */
export const total = (scores: readonly Score[]): Score =>
  scores.reduce(
    (a, b) => ({
      notes: a.notes + b.notes,
      lost: a.lost + b.lost,
      titlesRight: a.titlesRight + b.titlesRight,
      tagsRight: a.tagsRight + b.tagsRight,
      checks: a.checks + b.checks,
      checksKept: a.checksKept + b.checksKept,
      wrong: [...a.wrong, ...b.wrong],
    }),
    { notes: 0, lost: 0, titlesRight: 0, tagsRight: 0, checks: 0, checksKept: 0, wrong: [] },
  );

const pct = (n: number, of: number) => (of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(1)}%`);

/** A score as one line: notes lost, titles right, tags right, checklist states kept. */
export const describeScore = (name: string, s: Score) =>
  `${name}: ${s.notes} notes, ${s.lost} lost, titles right ${pct(s.titlesRight, s.notes)}, ` +
  `tags right ${pct(s.tagsRight, s.notes)}, checklist states kept ${pct(s.checksKept, s.checks)} of ${s.checks}`;

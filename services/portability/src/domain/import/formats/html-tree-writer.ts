import type { StyleMarks } from './html-dom';
import { BREAKS, FORMATTING, MARKERS } from './html-tags';

/**
 * How many elements a note keeps. Real notes have hundreds (836 in the largest clip we have);
 * turndown spends ~20 µs on each, so a megabyte of `<p>` (333,000) would take seconds. Past this
 * the rest of the note is its text, a space where a tag broke the line.
 */
export const MAX_ELEMENTS = 20_000;
/** How many formatting elements may wait to be reopened (the parser keeps at most 3 alike). */
const MAX_ACTIVE = 64;

/** A formatting element in effect, whether or not it is open now (HTML's "active formatting"). */
export interface Formatting {
  name: string;
  tag: string;
  open: boolean;
}
interface OpenElement {
  name: string;
  formatting: Formatting | null;
}

/** The formatting in effect, a null for each marker (HTML's "list of active formatting elements"). */
class ActiveFormatting {
  list: Array<Formatting | null> = [];

  get length(): number {
    return this.list.length;
  }

  /** The latest formatting named `name` since the last marker. */
  named(name: string): Formatting | null {
    const { list } = this;
    for (let k = list.length - 1; k >= 0 && list[k] !== null; k--)
      if (list[k]!.name === name) return list[k]!;
    return null;
  }

  forget(formatting: Formatting): void {
    const k = this.list.lastIndexOf(formatting);
    if (k >= 0) this.list.splice(k, 1);
  }

  /** The formatting `<name>` written as `tag` comes into effect. */
  add(name: string, tag: string): Formatting {
    const { list } = this;
    // As the parser: no more than 3 alike since the last marker (and no more than MAX_ACTIVE).
    const marker = list.lastIndexOf(null);
    let alike = 0;
    for (let k = list.length - 1; k > marker; k--)
      if (list[k]!.tag === tag && ++alike === 3) {
        list.splice(k, 1);
        break;
      }
    if (list.length - marker - 1 >= MAX_ACTIVE) list.splice(marker + 1, 1);
    const formatting = { name, tag, open: true };
    list.push(formatting);
    return formatting;
  }

  addMarker(): void {
    this.list.push(null);
  }

  /** A marker's element closed: the formatting since the last marker is no longer in effect. */
  clearToMarker(): void {
    if (this.list.includes(null)) this.list = this.list.slice(0, this.list.lastIndexOf(null));
  }

  /** Where the formatting closed early, to be reopened, starts (its end when there is none). */
  firstClosed(): number {
    const { list } = this;
    let k = list.length;
    while (k > 0 && list[k - 1] !== null && !list[k - 1]!.open) k--;
    return k;
  }
}

/** Start tags dropped below the deepest open element, by name, not yet closed. */
class DroppedTags {
  private byName = new Map<string, number>();
  count = 0;

  add(name: string): void {
    this.byName.set(name, (this.byName.get(name) ?? 0) + 1);
    this.count++;
  }

  /** Whether a dropped `<name>` is still open: then its end tag is taken by it, and dropped too. */
  take(name: string): boolean {
    if (this.count === 0 || (this.byName.get(name) ?? 0) === 0) return false;
    this.byName.set(name, this.byName.get(name)! - 1);
    this.count--;
    return true;
  }

  /** An element was closed: the tags dropped inside it are closed with it. */
  clear(): void {
    if (this.count === 0) return;
    this.byName = new Map();
    this.count = 0;
  }
}

/**
 * What `boundNesting` writes, and the tree an HTML parser builds from it as it stands: the open
 * elements, the formatting in effect, the start tags dropped, how much was written.
 */
export class TreeWriter {
  readonly out: string[] = [];
  /** Characters of text written, and of text times the depth it is written at. */
  textLength = 0;
  work = 0;
  /** Open elements, outermost first (never more than maxDepth). */
  readonly open: OpenElement[] = [];
  readonly active = new ActiveFormatting();
  readonly dropped = new DroppedTags();
  /** Elements written (at most MAX_ELEMENTS). */
  elements = 0;

  constructor(
    readonly html: string,
    readonly maxDepth: number,
    readonly styleMarks: StyleMarks,
  ) {}

  /** Whether another element may be written, and opened. */
  room(): boolean {
    return this.elements < MAX_ELEMENTS && this.open.length < this.maxDepth;
  }

  /** The innermost open element that `match`es, unless one in `stop` comes first: its index, or -1. */
  find(match: (name: string) => boolean, stop: Set<string>): number {
    const { open } = this;
    for (let i = open.length - 1; i >= 0; i--) {
      if (match(open[i]!.name)) return i;
      if (stop.has(open[i]!.name)) return -1;
    }
    return -1;
  }

  isOpen(name: string): boolean {
    return this.open.some((element) => element.name === name);
  }

  /** Writes an element that has no children (a `<br>`, an empty `<p></p>`). */
  writeElement(markup: string): void {
    this.elements++;
    this.out.push(markup);
  }

  /** Writes the start tag `tag` of `<name>`, which stays open. */
  openElement(name: string, tag: string): void {
    this.elements++;
    this.out.push(tag);
    let formatting: Formatting | null = null;
    if (FORMATTING.has(name)) formatting = this.active.add(name, tag);
    else if (MARKERS.has(name)) this.active.addMarker();
    this.open.push({ name, formatting });
  }

  /** Closes the open elements from the `i`th on. */
  closeFrom(i: number): void {
    while (this.open.length > i) {
      const element = this.open.pop()!;
      this.out.push(`</${element.name}>`);
      if (element.formatting) element.formatting.open = false;
      if (MARKERS.has(element.name)) this.active.clearToMarker();
    }
    this.dropped.clear();
  }

  /** Reopens the formatting closed early, as the parser does before text and inline tags. */
  reopen(): void {
    const { list } = this.active;
    for (let k = this.active.firstClosed(); k < list.length && this.room(); k++) {
      const formatting = list[k]!;
      this.elements++;
      this.out.push(formatting.tag);
      formatting.open = true;
      this.open.push({ name: formatting.name, formatting });
    }
  }

  /** A `<` the parser could read as markup is written as text, so the parser sees only our tags. */
  writeText(from: number, to: number): void {
    if (to <= from) return;
    if (this.active.length > 0 && this.dropped.count === 0) this.reopen();
    this.out.push(this.html.slice(from, to).replace(/</g, '&lt;'));
    this.countText(from, to);
  }

  /** Writes an element of raw text (`<textarea>`), its text from `from` to `to` as it is. */
  writeRaw(start: string, from: number, to: number, closing: string): void {
    this.elements++;
    this.out.push(start, this.html.slice(from, to), closing);
    this.countText(from, to);
  }

  private countText(from: number, to: number): void {
    this.textLength += to - from;
    this.work += (to - from) * this.open.length;
  }

  /** A dropped tag that broke the line leaves a space, so the words on each side stay apart. */
  drop(name: string): void {
    if (BREAKS.has(name)) this.out.push(' ');
  }
}

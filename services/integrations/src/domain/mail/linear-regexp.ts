/*
 * Regular expressions run in time linear in the text, for patterns that are not ours to rewrite
 * (email-reply-parser's quote headers and signatures, which backtrack for seconds on one crafted
 * line: `^(.+\son.*at.*wrote:)$` tries every split of the line three ways).
 *
 * A Pike VM: the pattern compiles to a small program, and every thread of it advances one character
 * at a time, at most one thread per instruction, kept in the order a backtracking engine would try
 * them. The first thread to match is then the match RegExp finds, with the same groups, and the
 * cost is O(text × program). Only what those patterns use is supported (no lookaround,
 * back-references, named groups, the `i` and `u` flags together, or a reported group inside a
 * repeat): anything else throws when the pattern is compiled, so a pattern is never run with
 * different semantics.
 */
import { isRegExpSpace } from '@haven/kit/unicode';

type CharTest = (c: number) => boolean;

/** The assertions: `^`, `$`, `\b`, `\B`. */
const Assertion = { Start: 0, End: 1, Boundary: 2, NotBoundary: 3 } as const;
type Assertion = (typeof Assertion)[keyof typeof Assertion];

type Node =
  /** One character; `literal` when it is one given character (under `i`, in either case). */
  | { kind: 'char'; test: CharTest; literal?: number }
  | { kind: 'assert'; what: Assertion }
  | { kind: 'group'; index: number | undefined; body: Node }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; body: Node; min: number; max: number; greedy: boolean };

/** Line terminators, which `.` does not match and where `^` and `$` hold under the `m` flag. */
const isLineTerminator = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

const isSpace = isRegExpSpace;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isWord = (c: number) =>
  isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

/** How the `i` flag compares characters without the `u` flag (ECMAScript's Canonicalize). */
function canonicalize(c: number): number {
  const upper = String.fromCharCode(c).toUpperCase();
  if (upper.length !== 1) return c;
  const u = upper.charCodeAt(0);
  return c >= 128 && u < 128 ? c : u;
}

/** `\d`, `\s`, `\w` and their complements (none of which the `i` flag changes without `u`). */
const CLASS_ESCAPES: Record<string, CharTest> = {
  d: isDigit,
  D: (c) => !isDigit(c),
  s: isSpace,
  S: (c) => !isSpace(c),
  w: isWord,
  W: (c) => !isWord(c),
};

const CONTROL_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b, f: 0x0c };
const SYNTAX_CHARACTERS = '^$\\.*+?()[]{}|/';

/** The pattern's source read into a tree, as ECMAScript's grammar reads it. */
class PatternParser {
  private at = 0;
  groups = 0;

  constructor(
    private readonly source: string,
    private readonly unicode: boolean,
    private readonly ignoreCase: boolean,
    private readonly dotAll: boolean,
  ) {}

  parse(): Node {
    const node = this.disjunction();
    if (this.at < this.source.length) this.fail('unbalanced )');
    return node;
  }

  private fail(why: string): never {
    throw new SyntaxError(`LinearRegExp: ${why} at ${this.at} in /${this.source}/`);
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.at + offset];
  }

  private disjunction(): Node {
    const options = [this.alternative()];
    while (this.peek() === '|') {
      this.at++;
      options.push(this.alternative());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  private alternative(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.peek() !== '|' && this.peek() !== ')')
      items.push(this.term());
    return { kind: 'seq', items };
  }

  private term(): Node {
    const c = this.peek();
    if (c === '^' || c === '$') {
      this.at++;
      return { kind: 'assert', what: c === '^' ? Assertion.Start : Assertion.End };
    }
    if (c === '\\' && (this.peek(1) === 'b' || this.peek(1) === 'B')) {
      this.at += 2;
      return { kind: 'assert', what: this.peek(-1) === 'b' ? Assertion.Boundary : Assertion.NotBoundary };
    }
    return this.quantified(this.atom());
  }

  /** A quantifier's bounds at the cursor (consumed), or undefined when there is none. */
  private quantifier(): { min: number; max: number } | undefined {
    const c = this.peek();
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      return { min: c === '+' ? 1 : 0, max: c === '?' ? 1 : Infinity };
    }
    if (c !== '{') return undefined;
    const braces = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.source.slice(this.at, this.at + 24));
    if (!braces) {
      if (this.unicode) this.fail('lone {');
      return undefined;
    }
    this.at += braces[0].length;
    const min = Number(braces[1]);
    const max = braces[2] === undefined ? min : braces[3] ? Number(braces[3]) : Infinity;
    if (max < min) this.fail('numbers out of order in quantifier');
    return { min, max };
  }

  private quantified(body: Node): Node {
    const bounds = this.quantifier();
    if (!bounds) return body;
    let greedy = true;
    if (this.peek() === '?') {
      this.at++;
      greedy = false;
    }
    return { kind: 'repeat', body, ...bounds, greedy };
  }

  private atom(): Node {
    const c = this.peek()!;
    if (c === '.') {
      this.at++;
      return { kind: 'char', test: this.dotAll ? () => true : (x) => !isLineTerminator(x) };
    }
    if (c === '(') {
      if (this.peek(1) === '?') {
        if (this.peek(2) !== ':') this.fail('lookaround and named groups are not supported');
        this.at += 3;
        const body = this.disjunction();
        this.expect(')');
        return { kind: 'group', index: undefined, body };
      }
      this.at++;
      const index = ++this.groups;
      const body = this.disjunction();
      this.expect(')');
      return { kind: 'group', index, body };
    }
    if (c === '[') return this.bracketClass();
    if (c === '\\') {
      this.at++;
      const escaped = this.escape(false);
      return typeof escaped === 'number' ? this.literal(escaped) : { kind: 'char', test: escaped };
    }
    if (c === '*' || c === '+' || c === '?' || c === ')') this.fail('nothing to repeat');
    if (c === '{') {
      const at = this.at;
      if (this.quantifier()) {
        this.at = at;
        this.fail('nothing to repeat');
      }
    }
    if ((c === ']' || c === '{' || c === '}') && this.unicode) this.fail(`lone ${c}`);
    return this.literal(this.character());
  }

  private expect(c: string): void {
    if (this.peek() !== c) this.fail(`expected ${c}`);
    this.at++;
  }

  /** The character at the cursor (a code point under `u`), consumed. */
  private character(): number {
    const c = this.unicode ? this.source.codePointAt(this.at)! : this.source.charCodeAt(this.at);
    this.at += c > 0xffff ? 2 : 1;
    return c;
  }

  private literal(c: number): Node {
    if (!this.ignoreCase) return { kind: 'char', test: (x) => x === c, literal: c };
    if (this.unicode) this.fail('the i and u flags together are not supported');
    const canonical = canonicalize(c);
    return { kind: 'char', test: (x) => x === c || canonicalize(x) === canonical, literal: c };
  }

  private hex(digits: number): number | undefined {
    const text = this.source.slice(this.at, this.at + digits);
    if (text.length !== digits || !/^[0-9a-fA-F]+$/.test(text)) return undefined;
    this.at += digits;
    return parseInt(text, 16);
  }

  /** What follows a backslash (consumed): a character, or a class of them. */
  private escape(inClass: boolean): number | CharTest {
    const e = this.peek();
    if (e === undefined) this.fail('\\ at end of pattern');
    this.at++;
    if (CLASS_ESCAPES[e]) return CLASS_ESCAPES[e];
    if (CONTROL_ESCAPES[e] !== undefined) return CONTROL_ESCAPES[e];
    if (inClass && e === 'b') return 0x08;
    if (e === '0' && !isDigit(this.source.charCodeAt(this.at))) return 0;
    if (isDigit(e.charCodeAt(0))) this.fail('back-references and octal escapes are not supported');
    if (e === 'x' || e === 'u') return this.hexEscape(e);
    return this.identityEscape(e, inClass);
  }

  /** `\xHH` or `\uHHHH` after its letter; without the digits, the letter itself (not under `u`). */
  private hexEscape(e: 'x' | 'u'): number {
    const code = this.hex(e === 'x' ? 2 : 4);
    if (code !== undefined) return code;
    if (this.unicode) this.fail(`invalid \\${e} escape`);
    return e.charCodeAt(0);
  }

  /** `e` escaped for itself (`\.`, `\/`…), which `u` allows only for syntax characters (and `-` in a class). */
  private identityEscape(e: string, inClass: boolean): number {
    if (e === 'c' || (this.unicode && (e === 'p' || e === 'P' || e === 'k')))
      this.fail(`\\${e} is not supported`);
    if (this.unicode && !SYNTAX_CHARACTERS.includes(e) && !(inClass && e === '-'))
      this.fail(`invalid \\${e}`);
    this.at--;
    return this.character();
  }

  private bracketClass(): Node {
    if (this.ignoreCase && this.unicode) this.fail('the i and u flags together are not supported');
    this.at++;
    const negated = this.peek() === '^';
    if (negated) this.at++;
    const ranges: Array<[number, number]> = [];
    const tests: CharTest[] = [];
    const member = (): number | CharTest => {
      if (this.at >= this.source.length) this.fail('unterminated class');
      if (this.peek() === '\\') {
        this.at++;
        return this.escape(true);
      }
      return this.character();
    };
    while (this.peek() !== ']') {
      const from = member();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.at++;
        const to = member();
        if (typeof from !== 'number' || typeof to !== 'number')
          this.fail('a class in a range is not supported');
        if (to < from) this.fail('range out of order in class');
        ranges.push([from, to]);
      } else if (typeof from === 'number') ranges.push([from, from]);
      else tests.push(from);
    }
    this.at++;
    let inClass = (c: number) => ranges.some(([lo, hi]) => c >= lo && c <= hi) || tests.some((t) => t(c));
    if (this.ignoreCase) {
      // A character matches when one of the class's has the same canonical form. (`\d`, `\s` and
      // `\w` are their own canonical forms without the `u` flag.)
      const canonical = new Set<number>();
      for (const [lo, hi] of ranges) {
        if (hi - lo > 0xffff) this.fail('a range too wide for the i flag');
        for (let c = lo; c <= hi; c++) canonical.add(canonicalize(c));
      }
      const inRanges = inClass;
      inClass = (c) => inRanges(c) || canonical.has(canonicalize(c));
    }
    const test = inClass;
    return { kind: 'char', test: negated ? (c) => !test(c) : test };
  }
}

const CHAR = 0;
const SPLIT = 1;
const JUMP = 2;
const SAVE = 3;
const ASSERT = 4;
const MATCH = 5;

/** One instruction: every field on every instruction, so the VM's loop sees one shape. */
interface Instruction {
  op: number;
  test: CharTest | null;
  /** SPLIT: the preferred branch; JUMP: the target. */
  x: number;
  /** SPLIT: the other branch. */
  y: number;
  /** SAVE: the capture slot; ASSERT: the assertion. */
  arg: number;
}

const canBeEmpty = (node: Node): boolean => {
  switch (node.kind) {
    case 'char':
      return false;
    case 'assert':
      return true;
    case 'group':
      return canBeEmpty(node.body);
    case 'seq':
      return node.items.every(canBeEmpty);
    case 'alt':
      return node.options.some(canBeEmpty);
    case 'repeat':
      return node.min === 0 || canBeEmpty(node.body);
  }
};

/** Strings every match contains: runs of literal characters outside alternatives and optional parts. */
function requiredStrings(node: Node): string[] {
  switch (node.kind) {
    case 'group':
      return requiredStrings(node.body);
    case 'repeat':
      if (node.body.kind === 'char' && node.body.literal !== undefined)
        return node.min > 0 ? [String.fromCodePoint(node.body.literal).repeat(node.min)] : [];
      return node.min > 0 ? requiredStrings(node.body) : [];
    case 'seq': {
      const found: string[] = [];
      let run = '';
      for (const item of node.items) {
        if (item.kind === 'char' && item.literal !== undefined) {
          run += String.fromCodePoint(item.literal);
          continue;
        }
        if (run) found.push(run);
        run = '';
        found.push(...requiredStrings(item));
      }
      if (run) found.push(run);
      return found;
    }
    default:
      return [];
  }
}

/** Whether the node holds a group that is reported (numbered `reported` or less). */
const hasGroup = (node: Node, reported: number): boolean => {
  switch (node.kind) {
    case 'group':
      return (node.index !== undefined && node.index <= reported) || hasGroup(node.body, reported);
    case 'seq':
      return node.items.some((item) => hasGroup(item, reported));
    case 'alt':
      return node.options.some((option) => hasGroup(option, reported));
    case 'repeat':
      return hasGroup(node.body, reported);
    default:
      return false;
  }
};

function compile(root: Node, reported: number): Instruction[] {
  const program: Instruction[] = [];
  const emit = (op: number, fields: Partial<Instruction> = {}): Instruction => {
    const instruction = { op, test: null, x: -1, y: -1, arg: -1, ...fields };
    program.push(instruction);
    return instruction;
  };
  const walk = (node: Node): void => {
    switch (node.kind) {
      case 'char':
        emit(CHAR, { test: node.test });
        return;
      case 'assert':
        emit(ASSERT, { arg: node.what });
        return;
      case 'group':
        if (node.index !== undefined) emit(SAVE, { arg: 2 * node.index });
        walk(node.body);
        if (node.index !== undefined) emit(SAVE, { arg: 2 * node.index + 1 });
        return;
      case 'seq':
        node.items.forEach(walk);
        return;
      case 'alt': {
        const exits: Instruction[] = [];
        node.options.forEach((option, i) => {
          if (i === node.options.length - 1) return walk(option);
          const split = emit(SPLIT, { x: program.length + 1 });
          walk(option);
          exits.push(emit(JUMP));
          split.y = program.length;
        });
        for (const exit of exits) exit.x = program.length;
        return;
      }
      case 'repeat': {
        const { body, min, max, greedy } = node;
        // ECMAScript refuses an iteration that matches nothing, and resets the groups inside a
        // quantified atom at each iteration: neither is modelled, and the patterns need neither.
        if (max > min && canBeEmpty(body)) throw new SyntaxError('LinearRegExp: a repeat that can be empty');
        if (max > 1 && hasGroup(body, reported))
          throw new SyntaxError('LinearRegExp: a reported group inside a repeat');
        for (let i = 0; i < min; i++) walk(body);
        const branch = (split: Instruction, into: number, past: number) => {
          split.x = greedy ? into : past;
          split.y = greedy ? past : into;
        };
        if (max === Infinity) {
          const loop = program.length;
          const split = emit(SPLIT);
          const into = program.length;
          walk(body);
          emit(JUMP, { x: loop });
          branch(split, into, program.length);
          return;
        }
        // Each optional iteration nested in the one before: (b(b(b)?)?)?.
        const optional: Array<[Instruction, number]> = [];
        for (let i = min; i < max; i++) {
          const split = emit(SPLIT);
          optional.push([split, program.length]);
          walk(body);
        }
        for (const [split, into] of optional) branch(split, into, program.length);
        return;
      }
    }
  };
  emit(SAVE, { arg: 0 });
  walk(root);
  emit(SAVE, { arg: 1 });
  emit(MATCH);
  return program;
}

/** A program in flat arrays, for the VM's loop. */
interface Flat {
  op: Uint8Array;
  x: Int32Array;
  y: Int32Array;
  arg: Int32Array;
  /** CHAR: for each ASCII character, whether it matches (128 bytes an instruction). */
  ascii: Uint8Array;
  /** CHAR: the test for the other characters. */
  tests: Array<CharTest | null>;
}

function flatten(program: Instruction[]): Flat {
  const n = program.length;
  const flat: Flat = {
    op: new Uint8Array(n),
    x: new Int32Array(n),
    y: new Int32Array(n),
    arg: new Int32Array(n),
    ascii: new Uint8Array(n * 128),
    tests: program.map((instruction) => instruction.test),
  };
  program.forEach((instruction, pc) => {
    flat.op[pc] = instruction.op;
    flat.x[pc] = instruction.x;
    flat.y[pc] = instruction.y;
    flat.arg[pc] = instruction.arg;
    if (instruction.test)
      for (let c = 0; c < 128; c++) flat.ascii[pc * 128 + c] = instruction.test(c) ? 1 : 0;
  });
  return flat;
}

/** The fewest characters a match of the node takes. */
const minLength = (node: Node): number => {
  switch (node.kind) {
    case 'char':
      return 1;
    case 'assert':
      return 0;
    case 'group':
      return minLength(node.body);
    case 'seq':
      return node.items.reduce((sum, item) => sum + minLength(item), 0);
    case 'alt':
      return Math.min(...node.options.map(minLength));
    case 'repeat':
      return node.min * minLength(node.body);
  }
};

/** Whether every match begins with `^`. */
const startsAnchored = (node: Node): boolean => {
  switch (node.kind) {
    case 'alt':
      return node.options.every(startsAnchored);
    case 'seq':
      return node.items.length > 0 && startsAnchored(node.items[0]!);
    case 'group':
      return startsAnchored(node.body);
    default:
      return node.kind === 'assert' && node.what === Assertion.Start;
  }
};

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/g;

/** Where the line after `at` begins, or -1 when no line terminator follows. */
function nextLineStart(text: string, at: number): number {
  LINE_TERMINATOR.lastIndex = at;
  return LINE_TERMINATOR.test(text) ? LINE_TERMINATOR.lastIndex : -1;
}

/** Whether an assertion (`^`, `$`, `\b`, `\B`) holds at `at`. */
function holds(what: number, text: string, at: number, multiline: boolean): boolean {
  if (what === Assertion.Start) return at === 0 || (multiline && isLineTerminator(text.charCodeAt(at - 1)));
  if (what === Assertion.End)
    return at === text.length || (multiline && isLineTerminator(text.charCodeAt(at)));
  const boundary = isWord(text.charCodeAt(at - 1)) !== isWord(text.charCodeAt(at));
  return what === Assertion.Boundary ? boundary : !boundary;
}

/**
 * The character at `at` (under `u`, a surrogate pair read as its code point, two code units long),
 * or -1 past the end.
 */
function characterAt(text: string, at: number, unicode: boolean): number {
  if (at >= text.length) return -1;
  const c = text.charCodeAt(at);
  if (unicode && c >= 0xd800 && c <= 0xdbff && at + 1 < text.length) {
    const low = text.charCodeAt(at + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
  }
  return c;
}

/** A run's thread lists (pcs and slots, current and next), the slots being added, and a stack. */
type Buffers = [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];

/** A match: where it starts, and the text of the whole match and of the groups asked for. */
export interface LinearMatch {
  index: number;
  /** As RegExp's exec gives them: the match, then each group (undefined when it took no part). */
  captures: Array<string | undefined>;
}

export class LinearRegExp {
  readonly source: string;
  readonly flags: string;
  private readonly program: Flat;
  /** Capture slots kept: two per group, the whole match's first. */
  private readonly slots: number;
  private readonly multiline: boolean;
  private readonly unicode: boolean;
  /** Every match begins with `^`: at position 0 only (or, under `m`, where a line begins). */
  private readonly anchored: boolean;
  private readonly shortest: number;
  /**
   * The longest string every match contains, as a plain RegExp (a literal, which V8 finds in
   * linear time): most texts lack it, and then the VM need not run.
   */
  private readonly required: RegExp | undefined;
  /** For each instruction, the last step that added it (see `run`). */
  private readonly marks: Int32Array;
  private stamp = 0;
  private readonly made = new Map<number, Buffers>();

  /** `groups`: how many groups `exec` reports (all by default; fewer is less to carry). */
  constructor(pattern: RegExp, { groups }: { groups?: number } = {}) {
    if (/[^imsu]/.test(pattern.flags)) throw new SyntaxError(`LinearRegExp: flags ${pattern.flags}`);
    this.source = pattern.source;
    this.flags = pattern.flags;
    this.multiline = pattern.multiline;
    this.unicode = pattern.unicode;
    const parser = new PatternParser(pattern.source, pattern.unicode, pattern.ignoreCase, pattern.dotAll);
    const root = parser.parse();
    const reported = Math.min(groups ?? parser.groups, parser.groups);
    this.slots = 2 * (reported + 1);
    this.program = flatten(compile(root, reported));
    this.marks = new Int32Array(this.program.op.length);
    this.anchored = startsAnchored(root);
    this.shortest = minLength(root);
    const longest = requiredStrings(root).reduce((a, b) => (b.length > a.length ? b : a), '');
    this.required = longest
      ? new RegExp(longest.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), pattern.flags.replace(/[ms]/g, ''))
      : undefined;
  }

  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean {
    return this.run(text, 0) !== null;
  }

  /** The leftmost match, with its groups, as RegExp's exec finds it; null when there is none. */
  exec(text: string): LinearMatch | null {
    const slots = this.run(text, this.slots);
    if (!slots) return null;
    const captures: Array<string | undefined> = [];
    for (let i = 0; i < this.slots; i += 2)
      captures.push(slots[i]! >= 0 && slots[i + 1]! >= 0 ? text.slice(slots[i], slots[i + 1]) : undefined);
    return { index: slots[0]!, captures };
  }

  /**
   * The capture slots of the leftmost match (`width` of them; with none, of any match, the search
   * stopping at the first), or null. Threads are added depth first, preferred branch first, so a
   * list's order is the order backtracking would try them; `marks` keeps one thread per
   * instruction and step. `path` holds the slots of the thread being added, set and restored
   * around each SAVE, and copied into the list with each thread.
   */
  private run(text: string, width: number): Int32Array | null {
    if (this.cannotMatch(text)) return null;
    const { op, x, y, arg, ascii, tests } = this.program;
    const { multiline, unicode, anchored, marks } = this;
    const buffers = this.buffers(width);
    let [currentPcs, nextPcs, currentSlots, nextSlots] = buffers;
    const [, , , , path, stack] = buffers;
    let currentSize = 0;
    let nextSize = 0;
    let stamp = this.firstStamp();

    /**
     * Adds the threads that `pc` leads to at `at` to the next list, in priority order: depth
     * first, a SPLIT's other branch and a SAVE's old value kept on `stack` (as `-1 - slot` over the
     * value) until what comes first is done.
     */
    const add = (pc: number, at: number): void => {
      let sp = 0;
      for (;;) {
        if (marks[pc] !== stamp) {
          marks[pc] = stamp;
          const code = op[pc];
          if (code === JUMP) {
            pc = x[pc]!;
            continue;
          }
          if (code === SPLIT) {
            stack[sp++] = y[pc]!;
            pc = x[pc]!;
            continue;
          }
          if (code === SAVE) {
            const slot = arg[pc]!;
            if (slot < width) {
              stack[sp++] = path[slot]!;
              stack[sp++] = -1 - slot;
              path[slot] = at;
            }
            pc++;
            continue;
          }
          if (code === ASSERT) {
            if (holds(arg[pc]!, text, at, multiline)) {
              pc++;
              continue;
            }
          } else {
            for (let k = 0; k < width; k++) nextSlots[nextSize * width + k] = path[k]!;
            nextPcs[nextSize++] = pc;
          }
        }
        // What is left to do: restore the slots saved on the way, down to the next branch.
        for (;;) {
          if (sp === 0) return;
          const top = stack[--sp]!;
          if (top >= 0) {
            pc = top;
            break;
          }
          path[-1 - top] = stack[--sp]!;
        }
      }
    };
    /** A new attempt at `at`, after every attempt begun before it. */
    const start = (at: number) => {
      path.fill(-1);
      add(0, at);
    };
    const swap = () => {
      [currentPcs, nextPcs] = [nextPcs, currentPcs];
      [currentSlots, nextSlots] = [nextSlots, currentSlots];
      currentSize = nextSize;
      nextSize = 0;
    };

    let matched: Int32Array | null = null;
    let at = 0;
    start(0);
    swap();
    for (;;) {
      if (currentSize === 0 && (matched !== null || anchored)) {
        // No attempt alive: the next can only begin where a line does (under `m`).
        at = this.restartAt(text, at, matched !== null);
        if (at < 0) break;
        stamp++;
        start(at);
        swap();
        continue;
      }
      const c = characterAt(text, at, unicode);
      const step = c > 0xffff ? 2 : 1;
      stamp++;
      for (let i = 0; i < currentSize; i++) {
        const pc = currentPcs[i]!;
        if (op[pc] === CHAR) {
          if (c < 0 || !(c < 128 ? ascii[pc * 128 + c] === 1 : tests[pc]!(c))) continue;
          for (let k = 0; k < width; k++) path[k] = currentSlots[i * width + k]!;
          add(pc + 1, at + step);
        } else {
          // The threads after this one would only have been tried had it failed (and a test
          // needs no more than one match).
          matched = currentSlots.slice(i * width, (i + 1) * width);
          break;
        }
      }
      if (at >= text.length || (matched !== null && width === 0)) break;
      at += step;
      if (matched === null && this.mayBeginAt(text, at)) start(at);
      swap();
    }
    this.stamp = stamp;
    return matched;
  }

  /** The text is shorter than any match, or lacks a string every match holds: no need to run. */
  private cannotMatch(text: string): boolean {
    return text.length < this.shortest || (this.required !== undefined && !this.required.test(text));
  }

  /**
   * Where the next attempt begins when none is alive and every match begins with `^`: at the next
   * line (under `m`), unless a match was found already; -1 for nowhere.
   */
  private restartAt(text: string, at: number, matched: boolean): number {
    return matched || !this.multiline ? -1 : nextLineStart(text, at);
  }

  /** Whether an attempt may begin at `at`: anywhere, unless every match begins with `^` (then where a line does, under `m`). */
  private mayBeginAt(text: string, at: number): boolean {
    return !this.anchored || (this.multiline && isLineTerminator(text.charCodeAt(at - 1)));
  }

  /** The first stamp of a run: stamps go on from the last run, so that `marks` need not be cleared. */
  private firstStamp(): number {
    if (this.stamp > 0x3fffffff) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** The VM's lists, path and stack for `width` slots, made once (a run is never re-entered). */
  private buffers(width: number): Buffers {
    let made = this.made.get(width);
    if (!made) {
      const size = this.program.op.length;
      made = [
        new Int32Array(size),
        new Int32Array(size),
        new Int32Array(size * width),
        new Int32Array(size * width),
        new Int32Array(width),
        new Int32Array(3 * size + 3),
      ];
      this.made.set(width, made);
    }
    made[4].fill(-1);
    return made;
  }
}

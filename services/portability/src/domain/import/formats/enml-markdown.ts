import {
  BLOCK,
  convertHtml,
  createTurndown,
  ELEMENT_NODE,
  FLAT,
  TEXT_NODE,
  traverse,
  trimNewlines,
  type HtmlDialect,
} from './html-markdown';

/** What an encrypted block (`<en-crypt>`) becomes: its text cannot be read without its passphrase. */
export const ENCRYPTED = '[encrypted content, not imported]';
/** What a task group's placeholder becomes when the export has none of its tasks. */
export const TASKS_MISSING = '[tasks not in the export]';

/** An Evernote 10 task (written outside the note's body), as an item of the note's task list. */
export interface EnmlTask {
  title: string;
  done: boolean;
  /** When it is due, as text. */
  due?: string;
  /** The `--en-id` of the task group (the placeholder block in the body) it belongs to. */
  group?: string;
}

/**
 * What Evernote says in `style` attributes that the Markdown keeps, as data attributes (`style`
 * itself is dropped): code blocks, Evernote 10 checklists and their items' state, and the
 * placeholder block of a task group, with its id.
 */
const CODE_BLOCK = 'data-en-codeblock';
const TODO = 'data-en-todo';
const CHECKED = 'data-en-checked';
const TASK_GROUP = 'data-en-task-group';
/** Text in Evernote's monospace font: its inline code. */
const MONOSPACE = 'data-en-monospace';
/** Marks a task group's placeholder whose tasks are not in the export. */
const TASKS_GONE = 'data-en-tasks-missing';
/** Marks a checkbox (`<en-todo>`) that starts a line: it writes a task-list item's `- [ ] `. */
const LINE_START = 'data-en-line-start';
/** Marks a checkbox that starts a list item: the item (given its state) writes the box. */
const IN_ITEM = 'data-en-in-item';
/** Marks a block started by a checkbox: a task-list line, with no blank line next to another. */
const TASK_LINE = 'data-en-task-line';
/** How many checkboxes are moved out of formatting (see moveOutOfFormatting); real notes have a few. */
const MAX_MOVED = 1_000;
/** Blocks whose lines a checkbox at their start makes task-list items (not cells or headings). */
const LINE_BLOCKS = new Set(['DIV', 'P', 'BLOCKQUOTE']);

/** The data attributes standing for what a `style` says of Evernote's own blocks (see CODE_BLOCK). */
function evernoteMarks(style: string): string {
  if (!style.includes('-en-')) return '';
  let marks = '';
  if (/-en-codeblock\s*:\s*true/i.test(style)) {
    // Its language as Evernote names it (Prism's names), when a fence can carry it.
    const language = /--en-(?:codeblockLanguage|syntaxLanguage)\s*:\s*([^;"&]{1,40})/i
      .exec(style)?.[1]
      ?.trim();
    const named = language && /^[\w+#-]+$/.test(language) && language !== 'plaintext';
    marks += named ? ` ${CODE_BLOCK}="${language}"` : ` ${CODE_BLOCK}`;
  }
  if (/--en-fontfamily\s*:\s*monospace/i.test(style)) marks += ` ${MONOSPACE}`;
  if (/--en-todo\s*:\s*true/i.test(style)) marks += ` ${TODO}`;
  const checked = /--en-checked\s*:\s*(true|false)/i.exec(style);
  if (checked) marks += ` ${CHECKED}="${checked[1]!.toLowerCase()}"`;
  if (/--en-task-group\s*:\s*true/i.test(style))
    marks += ` ${TASK_GROUP}="${/--en-id\s*:\s*([\w-]{1,100})/i.exec(style)?.[1] ?? ''}"`;
  return marks;
}

/** The list item `node` is in, if any, below `flatten`'s depth (so a bounded climb). */
function itemOf(node: Node): Element | null {
  for (let parent = node.parentNode; parent; parent = parent.parentNode)
    if (parent.nodeName === 'LI') return parent as Element;
  return null;
}

/**
 * A checkbox's text: `- [x] ` where it starts a line, nothing where its list item writes it (unless
 * the item is written as a plain block), `[x] ` anywhere else.
 */
function checkboxText(node: HTMLElement): string | null {
  if (node.nodeName !== 'EN-TODO') return null;
  const box = node.getAttribute('checked') === 'true' ? '[x] ' : '[ ] ';
  if (node.hasAttribute(IN_ITEM)) return itemOf(node)?.hasAttribute(FLAT) ? box : '';
  return node.hasAttribute(LINE_START) ? `- ${box}` : box;
}

/** The sibling before (or after) `node`, past whitespace. */
function siblingPast(node: Node, before: boolean): Node | null {
  let sibling = before ? node.previousSibling : node.nextSibling;
  while (sibling?.nodeType === TEXT_NODE && !/\S/.test((sibling as Text).data))
    sibling = before ? sibling.previousSibling : sibling.nextSibling;
  return sibling;
}
const isTaskLine = (node: Node | null) =>
  node?.nodeType === ELEMENT_NODE && (node as Element).hasAttribute(TASK_LINE);

const turndown = createTurndown(checkboxText);
// Attachments are not imported.
turndown.remove((node) => node.nodeName === 'EN-MEDIA');
// Encrypted text cannot be read, but the note says that it had some.
turndown.addRule('encrypted', {
  filter: (node) => node.nodeName === 'EN-CRYPT',
  replacement: () => `\n\n${ENCRYPTED}\n\n`,
});
// Tasks that the export left out, but the note says that it had some.
turndown.addRule('tasksMissing', {
  filter: (node) => node.hasAttribute(TASKS_GONE),
  replacement: () => `\n\n${TASKS_MISSING}\n\n`,
});

// An item of an Evernote 10 checklist (`--en-checked`), a task, or a list item an old-style
// checkbox starts: a Markdown task-list item.
turndown.addRule('checklistItem', {
  filter: (node) =>
    node.nodeName === 'LI' &&
    !node.hasAttribute(FLAT) &&
    (node.hasAttribute(CHECKED) || node.parentElement?.hasAttribute(TODO) === true),
  replacement: (content, node) => {
    const box = (node as HTMLElement).getAttribute(CHECKED) === 'true' ? '[x]' : '[ ]';
    // One item a line: the blank lines of its blocks would make the list loose.
    const text = trimNewlines(content)
      .split('\n')
      .filter((line) => line.trim())
      .join('\n    ')
      .trimStart();
    return `- ${box} ${text}${node.nextSibling ? '\n' : ''}`;
  },
});

// A block an old-style checkbox starts: a task-list line, next to the lines of its neighbours.
turndown.addRule('taskLine', {
  filter: (node) => node.hasAttribute(TASK_LINE),
  replacement: (content, node) => {
    const before = isTaskLine(siblingPast(node, true)) ? '\n' : '\n\n';
    const after = isTaskLine(siblingPast(node, false)) ? '\n' : '\n\n';
    return `${before}${trimNewlines(content)}${after}`;
  },
});

// Text in Evernote's code font is inline code, as `<code>` is (so `#include` in it is no tag).
turndown.addRule('monospace', {
  filter: (node) => node.nodeName === 'SPAN' && node.hasAttribute(MONOSPACE),
  replacement: (_content, node) => {
    const code = (node.textContent ?? '').replace(/\n/g, ' ');
    if (!code.trim()) return code;
    let longest = 0;
    let run = 0;
    for (const c of code) {
      run = c === '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    const fence = '`'.repeat(longest + 1);
    const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
    return `${fence}${pad}${code}${pad}${fence}`;
  },
});

/** A note's tasks by the id of their group ('' for those of none), in order. */
function tasksByGroup(tasks: readonly EnmlTask[]): Map<string, EnmlTask[]> {
  const groups = new Map<string, EnmlTask[]>();
  for (const task of tasks) {
    const group = groups.get(task.group ?? '');
    if (group) group.push(task);
    else groups.set(task.group ?? '', [task]);
  }
  return groups;
}

/** Tasks as a checklist, each with its state and when it is due. */
function taskList(document: Document, tasks: readonly EnmlTask[]): Element {
  const list = document.createElement('ul');
  list.setAttribute(TODO, '');
  for (const task of tasks) {
    const item = list.appendChild(document.createElement('li'));
    item.setAttribute(CHECKED, String(task.done));
    item.textContent = task.due ? `${task.title} (due ${task.due})` : task.title;
  }
  return list;
}

/**
 * A task group's placeholder ("Content not supported…", in the user's language) replaced by its
 * tasks, taken out of `groups` (and their id put in `placed`); by TASKS_MISSING when the export has
 * none of them. A second placeholder of tasks already placed, or one of no group while tasks of no
 * group are written at the end, is dropped.
 */
function placeTasks(element: Element, groups: Map<string, EnmlTask[]>, placed: Set<string>): void {
  const group = element.getAttribute(TASK_GROUP) ?? '';
  element.textContent = '';
  const tasks = group ? groups.get(group) : undefined;
  if (tasks) {
    element.appendChild(taskList(element.ownerDocument, tasks));
    groups.delete(group);
    placed.add(group);
  } else if (!placed.has(group) && !(group === '' && groups.has(''))) {
    // Text, so that the placeholder is not blank (and dropped) before turndown writes it.
    element.textContent = TASKS_MISSING;
    element.setAttribute(TASKS_GONE, '');
  }
}

/**
 * The text of a code block, a line for each of its blocks and `<br>`s, its non-breaking spaces
 * (Evernote's indentation) as spaces.
 */
function codeText(element: Element): string {
  const parts: string[] = [];
  /** Whether what was written last ends a line (or nothing was written). */
  let lineEnded = true;
  const endLine = () => {
    if (!lineEnded) parts.push('\n');
    lineEnded = true;
  };
  traverse(
    element,
    (node) => {
      if (node.nodeType === TEXT_NODE) {
        const data = (node as Text).data;
        if (data) {
          parts.push(data);
          lineEnded = data.endsWith('\n');
        }
        return false;
      }
      if (node.nodeType !== ELEMENT_NODE) return false;
      if (node.nodeName === 'BR') {
        parts.push('\n');
        lineEnded = true;
        return false;
      }
      if (BLOCK.has(node.nodeName)) endLine();
      return true;
    },
    (block) => {
      if (BLOCK.has(block.nodeName)) endLine();
    },
  );
  return trimNewlines(parts.join('').replace(/\u00a0/g, ' '));
}

/** A code block (`<div>`s of lines) as `<pre><code>`, so its text is code, never prose (no tags). */
function writeCodeBlock(element: Element): void {
  const language = element.getAttribute(CODE_BLOCK);
  const text = codeText(element);
  element.textContent = '';
  const document = element.ownerDocument;
  const code = element.appendChild(document.createElement('pre')).appendChild(document.createElement('code'));
  code.textContent = text;
  if (language) code.className = `language-${language}`;
}

/**
 * Moves each checkbox first in formatting (`<b><en-todo/></b>text`) out of it: turndown writes
 * formatting without text as nothing, the checkbox with it. Each is moved once, before the outermost
 * such element, and at most MAX_MOVED are: domino splices an array of children a move.
 */
function moveOutOfFormatting(todos: readonly Element[], root: Element): void {
  let moved = 0;
  for (const todo of todos) {
    if (moved === MAX_MOVED) break;
    let outermost: Node | null = null;
    for (let node: Node = todo; ;) {
      const parent = node.parentNode;
      if (!parent || parent === root || BLOCK.has(parent.nodeName) || parent.firstChild !== node) break;
      outermost = node = parent;
    }
    if (outermost?.parentNode) {
      outermost.parentNode.insertBefore(todo, outermost);
      moved++;
    }
  }
}

/** The nearest block around `node` (or the root). */
function blockAround(node: Node, root: Element): Node {
  let block = node;
  while (block !== root && !BLOCK.has(block.nodeName) && block.parentNode) block = block.parentNode;
  return block;
}

/**
 * Where the line a checkbox starts is: the block it is first in (past whitespace and the inline
 * elements it starts), or the block around the `<br>` it follows; null when text is before it.
 */
function lineOf(todo: Element, root: Element): { block: Node; first: boolean } | null {
  for (let node: Node = todo; ;) {
    const parent = node.parentNode;
    if (!parent) return null;
    const before = siblingPast(node, true);
    if (before) return before.nodeName === 'BR' ? { block: blockAround(parent, root), first: false } : null;
    if (parent === root || BLOCK.has(parent.nodeName)) return { block: parent, first: true };
    node = parent;
  }
}

/** The list item `block` starts (itself, or through `<div>`s and `<p>`s first in it), if any. */
function itemStarted(block: Node, root: Element): Element | null {
  for (let node: Node | null = block; node && node !== root; node = node.parentNode) {
    if (node.nodeName === 'LI') return node as Element;
    if ((node.nodeName !== 'DIV' && node.nodeName !== 'P') || siblingPast(node, true)) return null;
  }
  return null;
}

/**
 * An old-style checkbox (`<en-todo checked="true"/>`) that starts a line made a task-list item: its
 * list item given its state (written as the Evernote 10 checklists are), or its line marked to
 * start with `- [x] `, its block as a task line (written next to its neighbours, one list).
 * Elsewhere (after text, in a cell or a heading) it stays `[x] `.
 */
function placeCheckbox(todo: Element, root: Element): void {
  const line = lineOf(todo, root);
  if (!line) return;
  const item = line.first ? itemStarted(line.block, root) : null;
  if (item) {
    item.setAttribute(CHECKED, todo.getAttribute('checked') === 'true' ? 'true' : 'false');
    todo.setAttribute(IN_ITEM, '');
    return;
  }
  if (line.block !== root && !LINE_BLOCKS.has(line.block.nodeName)) return;
  todo.setAttribute(LINE_START, '');
  if (line.first && line.block !== root && line.block.nodeName !== 'BLOCKQUOTE')
    (line.block as Element).setAttribute(TASK_LINE, '');
}

/**
 * Evernote's own blocks, made into what turndown writes as they mean: each task group's placeholder
 * replaced by its tasks, the tasks of no group in the body at the end; code blocks as
 * `<pre><code>`; encrypted blocks as ENCRYPTED; old-style checkboxes as task-list items.
 */
function evernoteBlocks(root: Element, tasks: readonly EnmlTask[]): void {
  const groups = tasksByGroup(tasks);
  const placed = new Set<string>();
  const todos: Element[] = [];
  traverse(
    root,
    (node) => {
      if (node.nodeType !== ELEMENT_NODE) return false;
      const element = node as Element;
      if (element.hasAttribute(TASK_GROUP)) placeTasks(element, groups, placed);
      else if (element.hasAttribute(CODE_BLOCK)) writeCodeBlock(element);
      // Text, so that it is not blank (and dropped) before turndown writes it.
      else if (element.nodeName === 'EN-CRYPT') element.textContent = ENCRYPTED;
      else {
        if (element.nodeName === 'EN-TODO') todos.push(element);
        return true;
      }
      return false;
    },
    () => {},
  );
  moveOutOfFormatting(todos, root);
  for (const todo of todos) placeCheckbox(todo, root);
  const rest = [...groups.values()].flat();
  if (rest.length > 0) root.appendChild(taskList(root.ownerDocument, rest));
}

const VISIBLE = new Set(['EN-TODO']);

/**
 * ENML (Evernote's XHTML) as Markdown, with the note's Evernote 10 tasks where their placeholders
 * are, in time linear in its size however it nests (see `convertHtml`).
 */
export function enmlToMarkdown(enml: string, tasks: readonly EnmlTask[] = []): string {
  // `[^<>]` rather than `[^>]` (no `<` is in a tag of XML): a match tried at each `<en-todo` of
  // thousands without a `>` would otherwise read to the end each time.
  const html = enml
    .replace(/<\?xml[^<>]*\?>/g, '')
    .replace(/<!DOCTYPE[^<>]*>/gi, '')
    // ENML is XML: an HTML parser would read `<en-todo/>` as an opening tag wrapping what follows.
    .replace(/<(en-todo|en-media|en-crypt)\b([^<>]*?)\/>/gi, '<$1$2></$1>');
  return convertHtml(html, {
    turndown,
    styleMarks: evernoteMarks,
    prepare: (root) => evernoteBlocks(root, tasks),
    visible: VISIBLE,
  } satisfies HtmlDialect);
}

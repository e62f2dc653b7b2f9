/*
 * What the steps of the HTML conversion share: the DOM's node types, a walk of the tree without
 * recursion, turndown's block elements, and the data attributes the steps mark elements with.
 */

/** A set of the space-separated tag names in `names`. */
export const tagSet = (names: string) => new Set(names.split(' '));

/** The data attributes standing for what a `style` attribute says that the Markdown keeps. */
export type StyleMarks = (style: string) => string;

/** Marks the lists and quotes `boundIndentation` writes as plain blocks. */
export const FLAT = 'data-flat';
/** Marks a table that holds tables (see `structureBlocks`). */
export const LAYOUT_TABLE = 'data-layout-table';
/** Marks text a `style` strikes through (`text-decoration: line-through`). */
export const STRUCK = 'data-struck';

/** turndown's block elements (its `isBlock`): what breaks a line. */
export const BLOCK = tagSet(
  'ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE ' +
    'FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES ' +
    'NOSCRIPT OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL',
);

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

/**
 * Calls `enter` on every node below `root` in document order, and `leave` on each element entered
 * once its children are done, without recursion. `enter` says whether to go into the node; it may
 * change the node's children, not remove the node.
 */
export function traverse(
  root: Node,
  enter: (node: Node) => boolean,
  leave: (element: Element) => void,
): void {
  let node: Node | null = root.firstChild;
  while (node) {
    if (enter(node)) {
      if (node.firstChild) {
        node = node.firstChild;
        continue;
      }
      leave(node as Element);
    }
    while (!node.nextSibling) {
      node = node.parentNode;
      if (!node || node === root) return;
      leave(node as Element);
    }
    node = node.nextSibling;
  }
}

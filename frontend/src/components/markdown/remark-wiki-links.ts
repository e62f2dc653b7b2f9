/** The little of an mdast node this plugin reads and writes (text nodes never sit inside code). */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName?: string; hProperties?: Record<string, unknown> };
}

/** `[[Page]]`, `[[Page|alias]]`, `[[Page#Heading]]`, and embeds `![[image.png]]` (Obsidian, Logseq). */
const WIKI = /(!?)\[\[([^[\]\n]+)\]\]/g;

/** How a wiki link reads: its alias, else the page (without `.md`) and heading; block ids dropped. */
export function wikiLabel(inner: string, embed: boolean): string {
  const [target = '', alias] = inner.split('|');
  if (embed) return target.split('/').pop()!.trim();
  if (alias?.trim()) return alias.trim();
  const [page = '', ...rest] = target.split('#');
  const heading = rest.join('#').replace(/^\^.*/, '').trim();
  const name = page.replace(/\.md$/i, '').trim();
  return [name, heading].filter(Boolean).join(' › ') || inner.trim();
}

/** The class `Markdown` draws as an attachment (a paperclip and the file's name). */
export const EMBED_CLASS = 'md-embed';

function span(value: string, className: string): MdNode {
  return {
    type: 'wikiLink',
    data: { hName: 'span', hProperties: { className } },
    children: [{ type: 'text', value }],
  };
}

function split(value: string): MdNode[] {
  const parts: MdNode[] = [];
  let last = 0;
  for (const match of value.matchAll(WIKI)) {
    const embed = match[1] === '!';
    if (match.index > last) parts.push({ type: 'text', value: value.slice(last, match.index) });
    const label = wikiLabel(match[2]!, embed);
    parts.push(
      embed
        ? span(label, EMBED_CLASS)
        : span(
            label,
            'font-medium underline decoration-muted-foreground/60 decoration-dotted underline-offset-2',
          ),
    );
    last = match.index + match[0].length;
  }
  if (last === 0) return [{ type: 'text', value }];
  if (last < value.length) parts.push({ type: 'text', value: value.slice(last) });
  return parts;
}

function walk(node: MdNode) {
  if (!node.children) return;
  node.children = node.children.flatMap((child) => {
    if (child.type === 'text' && child.value?.includes('[[')) return split(child.value);
    walk(child);
    return [child];
  });
}

/**
 * A remark plugin showing wiki links and embeds of imported notes as readable text (their pages are
 * not in Haven, so they are not links). Only text nodes are rewritten: code keeps its brackets.
 */
export function remarkWikiLinks() {
  return (tree: MdNode) => walk(tree);
}

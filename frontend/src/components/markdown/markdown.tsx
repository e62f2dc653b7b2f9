import type { LinkScope } from '@haven/contracts/link-policy';
import { Check, Paperclip } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';

import { GuardedLink } from '@/components/markdown/guarded-link';
import { EMBED_CLASS, remarkWikiLinks } from '@/components/markdown/remark-wiki-links';
import { cn } from '@/lib/utils';

/**
 * Every variant keeps single line breaks (`remark-breaks`): a reply's drafted 'To:' and 'Subject:'
 * lines, and notes from apps that show a single newline as a new line (Obsidian, Logseq, Bear), must
 * not run together as CommonMark would join them.
 *
 * - `message`: an assistant reply (CommonMark only, as replies have always looked).
 * - `note`: an imported note read in full: GFM (tables, task lists, strikethrough) and wiki links.
 * - `preview`: a thought inside its card (typed or imported): GFM (so a bare address is a link), smaller
 *   headings; links are real links (the card's open button sits beside the text, not around it),
 *   checkboxes are drawn.
 */
export type MarkdownVariant = 'message' | 'note' | 'preview';

const base =
  'break-words [&_ol]:list-decimal [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5 [&_a]:underline [&_strong]:font-semibold [&_code]:rounded [&_code]:bg-muted [&_code]:px-1';

/** Notes from other apps: task lists without bullets, code blocks, quotes and tables. */
const note =
  '[&_.contains-task-list]:list-none [&_.contains-task-list]:pl-1 [&_li>.contains-task-list]:pl-5 [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-2 [&_pre]:text-[13px] [&_pre]:leading-snug [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground [&_a]:text-accent [&_a]:underline-offset-2 [&_hr]:border-border [&_th]:border [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_th]:font-semibold [&_td]:border [&_td]:px-2 [&_td]:py-1 [&_table]:text-sm [&_input]:mr-1.5 [&_input]:size-3.5 [&_input]:align-middle [&_input]:accent-accent';

const layout: Record<MarkdownVariant, string> = {
  message: 'flex flex-col gap-2',
  // Blocks keep their height in a scrolling box (a flex column would squash tables and code).
  note: cn(
    'flex flex-col gap-2 [&>*]:shrink-0',
    note,
    '[&_h1]:text-xl [&_h2]:text-lg [&_h3]:text-base [&_h1,&_h2,&_h3,&_h4,&_h5,&_h6]:font-semibold [&_h1,&_h2,&_h3,&_h4,&_h5,&_h6]:leading-snug [&_pre]:overflow-x-auto',
  ),
  // Block flow with margins (not flex) so the card can clamp it with line-clamp.
  preview: cn(
    'space-y-1.5',
    note,
    '[&_h1]:text-[17px] [&_h2]:text-base [&_h1,&_h2,&_h3,&_h4,&_h5,&_h6]:font-semibold [&_h1,&_h2,&_h3,&_h4,&_h5,&_h6]:leading-snug [&_pre]:whitespace-pre-wrap',
  ),
};

/** A file a note embeds that is not in Haven: a paperclip and its name. */
function Attachment({ name }: { name: ReactNode }) {
  return (
    <span className="text-muted-foreground">
      <Paperclip aria-hidden="true" className="mr-0.5 inline size-[0.9em] -translate-y-px" />
      <span className="sr-only">Attachment: </span>
      {name}
    </span>
  );
}

/** Images are named, never loaded: a note's own images are not in Haven, and remote ones track. */
const image: Components['img'] = ({ alt, src }) => (
  <Attachment
    name={alt || (typeof src === 'string' ? decodeURIComponent(src.split('/').pop() ?? '') : '') || 'image'}
  />
);

/** Spans come only from `remarkWikiLinks` (raw HTML is skipped); its embeds become attachments. */
const span: Components['span'] = ({ className, children }) =>
  className === EMBED_CLASS ? <Attachment name={children} /> : <span className={className}>{children}</span>;

const link: Components['a'] = ({ href, children }) => (
  <a href={href} target="_blank" rel="noopener noreferrer">
    {children}
  </a>
);

const table: Components['table'] = ({ children }) => (
  <div className="max-w-full overflow-x-auto">
    <table className="border-collapse">{children}</table>
  </div>
);

const components: Record<MarkdownVariant, Components> = {
  message: { a: link, img: image },
  note: { a: link, img: image, span, table },
  preview: {
    a: link,
    img: image,
    span,
    // A drawn box, not an input: ticking it here would not save anything.
    input: ({ checked }) => (
      <span
        aria-hidden="true"
        className={cn(
          'mr-1.5 inline-flex size-3.5 -translate-y-px items-center justify-center rounded-[3px] border align-middle',
          checked ? 'border-accent bg-accent text-accent-foreground' : 'border-muted-foreground/60',
        )}
      >
        {checked && <Check className="size-3" strokeWidth={3} />}
      </span>
    ),
    table: ({ children }) => <table className="w-full table-fixed border-collapse">{children}</table>,
  },
};

const plugins: Record<MarkdownVariant, Options['remarkPlugins']> = {
  message: [remarkBreaks],
  note: [remarkGfm, remarkWikiLinks, remarkBreaks],
  preview: [remarkGfm, remarkWikiLinks, remarkBreaks],
};

export interface MarkdownProps {
  text: string;
  variant?: MarkdownVariant;
  className?: string;
  /** An assistant reply's links are guarded against this scope (see `GuardedLink`). */
  links?: LinkScope;
}

/**
 * Markdown as safe React elements: raw HTML is dropped (`skipHtml`, no rehype-raw), react-markdown
 * refuses javascript: and other unsafe link targets, and links open in a new tab without an opener.
 */
export function Markdown({ text, variant = 'message', className, links }: MarkdownProps) {
  const guarded = useMemo<Components>(
    () =>
      links
        ? {
            ...components[variant],
            a: ({ href, children }) => (
              <GuardedLink href={href} scope={links}>
                {children}
              </GuardedLink>
            ),
          }
        : components[variant],
    [links, variant],
  );
  return (
    <div className={cn(base, layout[variant], className)}>
      <ReactMarkdown skipHtml remarkPlugins={plugins[variant]} components={guarded}>
        {text}
      </ReactMarkdown>
    </div>
  );
}

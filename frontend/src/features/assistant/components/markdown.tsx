import ReactMarkdown from 'react-markdown';

/**
 * An assistant message as safe Markdown: lists, emphasis, links (opening in a new tab); raw HTML is
 * dropped, and react-markdown refuses javascript: and other unsafe link targets.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="flex flex-col gap-2 break-words [&_ol]:list-decimal [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5 [&_a]:underline [&_strong]:font-semibold [&_code]:rounded [&_code]:bg-muted [&_code]:px-1">
      <ReactMarkdown
        skipHtml
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}

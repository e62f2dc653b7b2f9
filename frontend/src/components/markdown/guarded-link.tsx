import { judgeLink, type LinkScope } from '@haven/contracts/link-policy';
import { useState, type ReactNode } from 'react';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';

/**
 * A link in an assistant reply, which a model wrote after reading other people's text: it shows its
 * real host, loses a query or fragment that could carry the user's data (or the whole link when its
 * path could), and asks before opening a host the user's own data does not name.
 */
export function GuardedLink({
  href,
  scope,
  children,
}: {
  href?: string;
  scope: LinkScope;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  const verdict = href ? judgeLink(href, scope) : ({ kind: 'refused', host: null } as const);
  if (verdict.kind === 'refused') {
    return (
      <span>
        {children} <span className="text-xs text-muted-foreground">(link removed)</span>
      </span>
    );
  }
  return (
    <>
      <a
        href={verdict.href}
        target="_blank"
        rel="noopener noreferrer"
        onClick={(event) => {
          if (verdict.kind !== 'confirm') return;
          event.preventDefault();
          setAsking(true);
        }}
      >
        {children}
      </a>
      <span className="ml-1 whitespace-nowrap rounded bg-background/70 px-1 py-px text-xs text-muted-foreground">
        {verdict.host}
      </span>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`Open ${verdict.host}?`}
        description={`${verdict.host} does not appear in your conversation or your data. Only open it if you trust it.${verdict.stripped ? ' The part of the address that could carry your data was removed.' : ''}`}
        confirmLabel="Open"
        onConfirm={() => window.open(verdict.href, '_blank', 'noopener,noreferrer')}
      />
    </>
  );
}

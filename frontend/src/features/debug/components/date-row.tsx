import type { ReactNode } from 'react';

/** One labelled value in a date comparison list. */
export function DateRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 py-2 first:pt-0 last:pb-0">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="break-words font-mono text-xs leading-relaxed">{children}</dd>
    </div>
  );
}

import type { ImportProgress } from '@haven/contracts/portability';
import { CircleAlert, CircleCheck, FileDown } from 'lucide-react';

import { buttonVariants } from '@/components/ui/button';
import { importReportHref } from '@/features/portability/api/get-import-report';
import { importCountsSummary } from '@/features/portability/lib/import-summary';
import { cn } from '@/lib/utils';

const SHOWN_PROBLEMS = 20;

interface ImportResultProps {
  /** The import's id, once the upload was taken. */
  id: string | null;
  /** Its last status (null when it could not be read). */
  result: ImportProgress | null;
  /** Why it failed, or null when it is done. */
  error: string | null;
}

/** What an ended import did: why it failed, its counts, its first problems, and its report. */
export function ImportResult({ id, result, error }: ImportResultProps) {
  const summary = result && importCountsSummary(result);
  const problems = result?.errors ?? [];
  const more = Math.max(result?.failed ?? 0, problems.length) - Math.min(problems.length, SHOWN_PROBLEMS);
  // A failure before any file was read has nothing to report.
  const report = id !== null && result !== null && (!error || summary !== null || problems.length > 0);

  return (
    <div
      className={cn(
        'flex flex-col gap-3 rounded-lg border p-3 text-sm',
        error ? 'border-destructive/30 bg-destructive/5' : 'border-border',
      )}
      aria-live="polite"
    >
      {error ? (
        <p role="alert" className="flex gap-2 font-medium text-destructive dark:text-red-400">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            <span className="block">Import failed</span>
            <span className="block font-normal">{error}</span>
          </span>
        </p>
      ) : (
        <p className="flex items-center gap-2 font-medium">
          <CircleCheck aria-hidden="true" className="size-4 shrink-0 text-accent" />
          Import finished
        </p>
      )}
      {(summary || !error) && <p>{summary ?? 'Nothing new to import.'}</p>}
      {problems.length > 0 && (
        <div className="flex flex-col gap-1">
          <p className="text-xs font-medium text-muted-foreground">Problems</p>
          <ul className="flex list-disc flex-col gap-1 pl-4 text-xs break-words text-destructive dark:text-red-400">
            {problems.slice(0, SHOWN_PROBLEMS).map((e, i) => (
              <li key={`${i}:${e.file}:${e.line ?? ''}`}>
                {e.file}
                {e.line ? `, line ${e.line}` : ''}: {e.message}
              </li>
            ))}
          </ul>
          {more > 0 && (
            <p className="text-xs text-muted-foreground">
              and {more.toLocaleString('en-US')} more{report ? ' in the report' : ''}.
            </p>
          )}
        </div>
      )}
      {report && (
        <a
          href={importReportHref(id)}
          download
          className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'self-start')}
        >
          <FileDown aria-hidden="true" />
          Download report<span className="sr-only"> of the import (CSV)</span>
        </a>
      )}
    </div>
  );
}

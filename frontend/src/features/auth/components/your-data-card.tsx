import type { ImportProgress } from '@haven/contracts/portability';
import { Download, Upload } from 'lucide-react';
import { useRef, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import {
  downloadHref,
  exportStatus,
  importStatus,
  pollUntil,
  startExport,
  startImport,
} from '../api/portability';
import { DeleteAccount } from './delete-account';

function Progress({ value, label }: { value: number; label: string }) {
  return (
    <div className="flex flex-col gap-1" role="status" aria-label={label}>
      <div className="h-2 overflow-hidden rounded-full bg-muted">
        <div className="h-full bg-accent transition-[width]" style={{ width: `${value}%` }} />
      </div>
      <span className="text-xs text-muted-foreground">
        {label} {value}%
      </span>
    </div>
  );
}

/** Export: the server builds the zip (with progress), then the browser downloads it once. */
function DataExport() {
  const [progress, setProgress] = useState<number | null>(null);
  async function run() {
    setProgress(0);
    try {
      const { id } = await startExport();
      const last = await pollUntil(
        () => exportStatus(id),
        (s) => s.status !== 'queued' && s.status !== 'running',
        (s) => setProgress(s.progress),
      );
      if (last.status !== 'ready') throw new Error('The export could not be made. Please try again.');
      window.location.assign(downloadHref(id));
      toast({ title: 'Export ready', description: 'Your download has started.' });
    } catch (error) {
      toast({ title: 'Export failed', description: getErrorMessage(error), variant: 'destructive' });
    } finally {
      setProgress(null);
    }
  }
  return progress === null ? (
    <Button variant="outline" className="w-full" onClick={() => void run()}>
      <Download aria-hidden="true" />
      Export
    </Button>
  ) : (
    <Progress value={progress} label="Preparing your export" />
  );
}

/** Import: this product's export zip, or a zip of Markdown or text notes (one thought per file). */
function DataImport({ setOutcome }: { setOutcome: (outcome: ImportProgress | null) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  async function run(file: File) {
    setOutcome(null);
    setProgress(0);
    try {
      const { id } = await startImport(file);
      const last = await pollUntil(
        () => importStatus(id),
        (s) => s.status === 'done' || s.status === 'failed',
        (s) => setProgress(s.progress),
      );
      setOutcome(last);
      if (last.status === 'done')
        toast({
          title: 'Import finished',
          description: `${last.imported} imported, ${last.skipped} already there.`,
        });
      else toast({ title: 'Import failed', description: last.errors[0]?.message, variant: 'destructive' });
    } catch (error) {
      toast({ title: 'Import failed', description: getErrorMessage(error), variant: 'destructive' });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }
  return (
    <div className="flex flex-col gap-2">
      <input
        ref={input}
        type="file"
        accept=".zip,application/zip"
        className="sr-only"
        aria-label="Zip file to import"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void run(file);
        }}
      />
      {progress === null ? (
        <Button variant="outline" className="w-full" onClick={() => input.current?.click()}>
          <Upload aria-hidden="true" />
          Import
        </Button>
      ) : (
        <Progress value={progress} label="Importing" />
      )}
    </div>
  );
}

/** Settings → Privacy 'Your data': a copy to take away, notes to bring in, and deleting it all. */
export function YourDataCard() {
  const [outcome, setOutcome] = useState<ImportProgress | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>
          Export a copy of everything (thoughts with their audio, insights, conversations, settings) as a zip
          with JSON and readable Markdown. Import a Haven export, or a zip of Markdown or text notes from
          Memos, Obsidian or Day One.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="grid grid-cols-2 gap-2">
          <DataExport />
          <DataImport setOutcome={setOutcome} />
        </div>
        {outcome && (
          <div className="rounded-lg border border-border p-3 text-sm" aria-live="polite">
            <p>
              {outcome.imported} imported, {outcome.skipped} already there.
            </p>
            {outcome.errors.length > 0 && (
              <ul className="mt-1 list-disc pl-4 text-xs text-destructive dark:text-red-400">
                {outcome.errors.slice(0, 20).map((e) => (
                  <li key={`${e.file}:${e.line ?? ''}`}>
                    {e.file}
                    {e.line ? `, line ${e.line}` : ''}: {e.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}

        <DeleteAccount />
      </CardContent>
    </Card>
  );
}

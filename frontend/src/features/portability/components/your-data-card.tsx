import { IMPORT_FORMAT_NAMES, type ImportProgress } from '@haven/contracts/portability';
import { Download } from 'lucide-react';
import { useId, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useExport } from '@/features/portability/hooks/use-export';
import { useImport } from '@/features/portability/hooks/use-import';
import { importableSummary, importCountsSummary } from '@/features/portability/lib/import-summary';
import { toast } from '@/hooks/use-toast';
import { ImportButton } from './import-button';
import { ImportResult } from './import-result';
import { TransferProgress } from './transfer-progress';

const IMPORTABLE = importableSummary();

const exportReady = () => toast({ title: 'Export ready', description: 'Your download has started.' });
const exportFailed = (error: string) =>
  toast({ title: 'Export failed', description: error, variant: 'destructive' });
const importDone = (result: ImportProgress) =>
  toast({ title: 'Import finished', description: importCountsSummary(result) ?? 'Nothing new to import.' });
const importFailed = (error: string) =>
  toast({ title: 'Import failed', description: error, variant: 'destructive' });

/**
 * Settings → Privacy 'Your data': a copy to take away and notes to bring in. `children` go at the
 * end of the card (the settings page puts 'Delete account' there).
 */
export function YourDataCard({ children }: { children?: ReactNode }) {
  const importableId = useId();
  const exporting = useExport({ onReady: exportReady, onFailed: exportFailed });
  const importing = useImport({ onDone: importDone, onFailed: importFailed });
  const { run } = importing;
  const busy = run.phase === 'uploading' || run.phase === 'running';
  const format = run.phase === 'running' ? run.progress?.format : null;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>
          Export a copy of everything (thoughts with their audio, insights, conversations, settings) as a zip
          with JSON and readable Markdown, or import notes from another app.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="grid grid-cols-2 gap-2">
          <Button
            variant="outline"
            className="h-11 w-full sm:h-10"
            disabled={exporting.progress !== null}
            onClick={() => void exporting.start()}
          >
            <Download aria-hidden="true" />
            {exporting.progress === null ? 'Export' : 'Exporting…'}
          </Button>
          <ImportButton
            busy={busy}
            onFile={(file) => void importing.start(file)}
            describedBy={importableId}
          />
        </div>
        <p id={importableId} className="text-xs text-muted-foreground">
          {IMPORTABLE}
        </p>
        {exporting.progress !== null && (
          <TransferProgress label="Preparing your export" value={exporting.progress} />
        )}
        {run.phase === 'uploading' && <TransferProgress label="Uploading your zip" value={null} />}
        {run.phase === 'running' && (
          <TransferProgress
            label="Importing"
            value={run.progress?.progress ?? 0}
            detail={format ? `Found: ${IMPORT_FORMAT_NAMES[format]}` : undefined}
          />
        )}
        {run.phase === 'ended' && <ImportResult id={run.id} result={run.result} error={run.error} />}
        {children}
      </CardContent>
    </Card>
  );
}

import { Upload } from 'lucide-react';
import { useRef } from 'react';

import { Button } from '@/components/ui/button';

interface ImportButtonProps {
  busy: boolean;
  onFile: (file: File) => void;
  /** The id of the line saying what can be imported. */
  describedBy?: string;
}

/** 'Import': picks a zip or a Joplin JEX (the same file may be picked again later). */
export function ImportButton({ busy, onFile, describedBy }: ImportButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".zip,application/zip,.jex"
        className="sr-only"
        tabIndex={-1}
        aria-label="Zip file to import"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
      <Button
        variant="outline"
        className="h-11 w-full sm:h-10"
        disabled={busy}
        aria-describedby={describedBy}
        onClick={() => input.current?.click()}
      >
        <Upload aria-hidden="true" />
        {busy ? 'Importing…' : 'Import'}
      </Button>
    </>
  );
}

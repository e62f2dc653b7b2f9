import { useTimeFormat } from '@/hooks/use-time-format';
import { readTimeFormat, storeTimeFormat, type TimeFormat } from '@/lib/time-format';
import { formatClock } from '@/lib/format-date';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

const FORMATS: { value: TimeFormat; label: string }[] = [
  { value: 'auto', label: 'Automatic' },
  { value: '12', label: '12-hour' },
  { value: '24', label: '24-hour' },
];

/** 'Time format': Automatic (the browser's preference), 12-hour or 24-hour, kept on this device. */
export function TimeFormatSettings() {
  useTimeFormat();
  const format = readTimeFormat();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Time format</CardTitle>
        <CardDescription>
          Automatic follows your browser. Times now read like {formatClock('18:35')}. Kept on this device.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div role="group" aria-label="Time format" className="grid grid-cols-3 gap-2">
          {FORMATS.map(({ value, label }) => {
            const active = format === value;
            return (
              <button
                key={value}
                type="button"
                aria-pressed={active}
                onClick={() => storeTimeFormat(value)}
                className={cn(
                  'min-h-11 rounded-xl border px-2 py-3 text-xs font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  active
                    ? 'border-accent bg-accent-soft text-foreground'
                    : 'border-input bg-card text-muted-foreground hover:bg-muted hover:text-foreground',
                )}
              >
                {label}
              </button>
            );
          })}
        </div>
      </CardContent>
    </Card>
  );
}

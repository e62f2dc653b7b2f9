import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { DateRow } from '@/features/debug/components/date-row';
import { formatOffsetMinutes } from '@/lib/format-date';

/** What the browser thinks the date and time are. */
export function ClientDateCard({ now }: { now: Date }) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <Card className="min-w-0">
      <CardHeader className="p-4 pb-3">
        <CardTitle className="text-sm">Client</CardTitle>
      </CardHeader>
      <CardContent className="p-4 pt-0">
        <dl className="divide-y">
          <DateRow label="ISO">{now.toISOString()}</DateRow>
          <DateRow label="Local">{now.toString()}</DateRow>
          <DateRow label="UTC">{now.toUTCString()}</DateRow>
          <DateRow label="Offset">
            {formatOffsetMinutes(now.getTimezoneOffset())} ({now.getTimezoneOffset()} min)
          </DateRow>
          <DateRow label="Time zone">{timeZone}</DateRow>
        </dl>
      </CardContent>
    </Card>
  );
}

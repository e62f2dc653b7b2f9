import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { DateRow } from '@/features/debug/components/date-row';
import { formatLongDate, formatMonthDay, formatYmd } from '@/lib/format-date';
import { onFirstUse } from '@/lib/on-first-use';

const time = onFirstUse(() => new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }));

/** The formats the app shows dates in, computed in the browser. */
export function DateFormatsCard({ now }: { now: Date }) {
  return (
    <Card>
      <CardHeader className="p-4 pb-3">
        <CardTitle className="text-sm">Sample formats</CardTitle>
      </CardHeader>
      <CardContent className="p-4 pt-0">
        <dl className="divide-y">
          <DateRow label="yyyy-MM-dd">{formatYmd(now)}</DateRow>
          <DateRow label="Long date">{formatLongDate(now)}</DateRow>
          <DateRow label="Month day">{formatMonthDay(now)}</DateRow>
          <DateRow label="Time">{time().format(now)}</DateRow>
        </dl>
      </CardContent>
    </Card>
  );
}

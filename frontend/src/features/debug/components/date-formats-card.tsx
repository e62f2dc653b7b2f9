import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { DateRow } from '@/features/debug/components/date-row';
import { formatLongDate, formatMonthDay, formatTimeOfDay, formatYmd } from '@/lib/format-date';

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
          <DateRow label="Time">{formatTimeOfDay(now)}</DateRow>
        </dl>
      </CardContent>
    </Card>
  );
}

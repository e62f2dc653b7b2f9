import { RefreshCw } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useServerDateTime } from '@/features/debug/api/get-server-datetime';
import { DateRow } from '@/features/debug/components/date-row';
import { getErrorMessage } from '@/lib/api';
import { formatOffsetMinutes } from '@/lib/format-date';

/** What the server answers for "now", with a manual refresh. */
export function ServerDateCard() {
  const { data, error, isLoading, isFetching, refetch, dataUpdatedAt } = useServerDateTime();

  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row items-center justify-between p-4 pb-3">
        <CardTitle className="text-sm">Server</CardTitle>
        <Button
          variant="ghost"
          size="icon"
          className="-my-3 -mr-3 size-11"
          aria-label="Refresh server time"
          onClick={() => void refetch()}
          disabled={isFetching}
        >
          <RefreshCw className={isFetching ? 'animate-spin' : undefined} aria-hidden="true" />
        </Button>
      </CardHeader>
      <CardContent className="p-4 pt-0">
        {isLoading && <Spinner size="sm" />}
        {error && !data && (
          <p role="alert" className="break-words text-xs text-destructive">
            {getErrorMessage(error)}
          </p>
        )}
        {data && (
          <dl className="divide-y">
            <DateRow label="ISO">{data.isoString}</DateRow>
            <DateRow label="Local">{data.localString}</DateRow>
            <DateRow label="UTC">{data.utcString}</DateRow>
            <DateRow label="Offset">
              {formatOffsetMinutes(data.components.timezoneOffset)} ({data.components.timezoneOffset} min)
            </DateRow>
            <DateRow label="Time zone">{data.timezone}</DateRow>
            <DateRow label="Server − client">{Date.parse(data.isoString) - dataUpdatedAt} ms</DateRow>
            <DateRow label="Components">
              {Object.entries(data.components).map(([key, value]) => (
                <span key={key} className="block">
                  {key}: {value}
                </span>
              ))}
            </DateRow>
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

import type { InsightRange } from '@haven/contracts/insights';
import { ChevronLeft, ChevronRight } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { todayYmd } from '@/lib/local-day';
import { isLatestPeriod, LATEST_PERIOD_REASON, periodLabel, shiftPeriod } from '../lib/periods';

interface PeriodNavProps {
  range: InsightRange;
  date: string;
  onDateChange: (date: string) => void;
  /** The Daily label opens the Select Date dialog. */
  onPick: () => void;
  /** The id of the note saying why Next is disabled on the latest period. */
  latestReasonId: string;
}

/** Previous period, the period's label (on Daily, a button to select a date) and Next. */
export function PeriodNav({ range, date, onDateChange, onPick, latestReasonId }: PeriodNavProps) {
  const latest = isLatestPeriod(range, date, todayYmd());
  const label = periodLabel(range, date);
  return (
    <div className="flex items-center justify-between gap-2">
      <Button
        variant="ghost"
        size="icon"
        aria-label="Previous period"
        onClick={() => onDateChange(shiftPeriod(range, date, -1))}
      >
        <ChevronLeft aria-hidden />
      </Button>
      {range === 'day' ? (
        <button
          type="button"
          onClick={onPick}
          className="min-h-11 min-w-11 truncate px-2 text-sm font-medium hover:underline"
          aria-label={`${label}: select date`}
        >
          {label}
        </button>
      ) : (
        <span className="truncate text-sm font-medium">{label}</span>
      )}
      <Button
        variant="ghost"
        size="icon"
        aria-label="Next period"
        // Later periods have no thoughts yet: Next stops at the current day, week or month.
        disabled={latest}
        aria-describedby={latest ? latestReasonId : undefined}
        onClick={() => onDateChange(shiftPeriod(range, date, 1))}
      >
        <ChevronRight aria-hidden />
      </Button>
      {latest && (
        <span id={latestReasonId} className="sr-only">
          {LATEST_PERIOD_REASON[range]}
        </span>
      )}
    </div>
  );
}

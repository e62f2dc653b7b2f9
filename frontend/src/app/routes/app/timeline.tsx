import { useSearchParams } from 'react-router-dom';

import { ScreenTabBar } from '@/app/routes/app/screen-tab-bar';
import { SearchHost } from '@/app/routes/app/search-host';
import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';
import { usePreferences } from '@/features/settings/api/get-preferences';
import { QueuedThoughtsCount } from '@/features/thoughts/components/queued-thoughts';
import { Timeline } from '@/features/thoughts/components/timeline';
import { dayFromParam, todayYmd } from '@/lib/local-day';

/** /timeline?date=yyyy-MM-dd ('All Thoughts'): the selected day lives in the URL so a reload keeps it. */
export function TimelineRoute() {
  const [params, setParams] = useSearchParams();
  const today = todayYmd();
  const date = dayFromParam(params.get('date'));
  const preferences = usePreferences().data;

  return (
    <>
      <SimplePage
        backTo={paths.home.path}
        title={
          <span className="flex flex-wrap items-center justify-between gap-2">
            All Thoughts
            <QueuedThoughtsCount />
          </span>
        }
        className="pb-[calc(6rem+env(safe-area-inset-bottom))]"
      >
        <Timeline
          date={date}
          today={today}
          onDateChange={(next) => setParams({ date: next }, { replace: true })}
          confirm={{
            emails: preferences?.askBeforeEmails ?? true,
            events: preferences?.askBeforeCalendarEvents ?? true,
          }}
        />
      </SimplePage>
      {/* A thought written here is dated the day shown, and the view follows it to its day. */}
      <ScreenTabBar day={date} onSaved={(saved) => setParams({ date: saved.localDate }, { replace: true })} />
      <SearchHost />
    </>
  );
}

import { SimplePage } from '@/components/layouts/simple-page';
import { ClientDateCard } from '@/features/debug/components/client-date-card';
import { DateFormatsCard } from '@/features/debug/components/date-formats-card';
import { ServerDateCard } from '@/features/debug/components/server-date-card';
import { useNow } from '@/features/debug/hooks/use-now';

/** Client versus server date and time, for chasing time-zone bugs. */
export function DebugDateRoute() {
  const now = useNow();
  return (
    <SimplePage title="Date Debug" description="Client and server date and time, side by side.">
      <div className="grid grid-cols-2 gap-3">
        <ClientDateCard now={now} />
        <ServerDateCard />
      </div>
      <DateFormatsCard now={now} />
    </SimplePage>
  );
}

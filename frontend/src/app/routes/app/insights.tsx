import { CalendarDays } from 'lucide-react';
import { Link } from 'react-router-dom';

import { PageHeader } from '@/components/layouts/page-header';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/**
 * The insights tab, reached at both /home and /insights. The daily, weekly and monthly insights
 * arrive with their own issue; the way to every thought is here already.
 */
export function InsightsRoute() {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <PageHeader title="Insights" />
        <Link
          to={paths.timeline.getHref()}
          className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'gap-2')}
        >
          <CalendarDays aria-hidden className="size-4" />
          All Thoughts
        </Link>
      </div>
    </div>
  );
}

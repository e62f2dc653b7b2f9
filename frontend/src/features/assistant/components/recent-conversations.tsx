import { Link } from 'react-router-dom';

import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useConversations } from '../api/get-conversations';
import { relativeTime } from './relative-time';

/** 'Recent Conversations': up to six tiles in two columns, and 'View All'. */
export function RecentConversations() {
  const { data, isPending, isError } = useConversations();
  return (
    <Card className="flex min-h-0 flex-col gap-3 p-4">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">Recent Conversations</h2>
        <Link to={paths.conversations.getHref()} className="text-sm font-medium text-accent hover:underline">
          View All
        </Link>
      </div>
      {isPending ? (
        <div className="grid grid-cols-2 gap-2">
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
        </div>
      ) : isError ? (
        <p className="text-sm text-destructive dark:text-red-400">Failed to fetch conversations</p>
      ) : data.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No conversations yet. Ask the assistant anything below.
        </p>
      ) : (
        <ul className="grid min-h-0 grid-cols-2 gap-2 overflow-y-auto">
          {data.slice(0, 6).map((c) => (
            <li key={c.id}>
              <Link
                to={paths.conversation.getHref(c.id)}
                className="flex h-full flex-col gap-1 rounded-lg border bg-muted/30 p-2.5 hover:bg-muted"
              >
                <span className="line-clamp-2 text-sm font-medium">{c.title}</span>
                <span className="text-xs text-muted-foreground">{relativeTime(c.updatedAt)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

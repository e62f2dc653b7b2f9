import { Link } from 'react-router-dom';

import { Card } from '@/components/ui/card';
import { QueryError } from '@/components/ui/query-error';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useDeferredQuery } from '@/lib/deferred-query';
import { useConversations } from '../api/get-conversations';
import { relativeTime } from './relative-time';

/**
 * 'Recent Conversations': up to six tiles in two columns, and 'View All'. Tiles are all one height
 * and the list scrolls by whole rows (`scroll-rows`), so the card never ends on half a tile.
 */
export function RecentConversations() {
  const { data, isPending, isError, refetch, isFetching } = useDeferredQuery(useConversations());
  return (
    <Card className="flex min-h-0 flex-col gap-2 p-4 pb-0">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">Recent Conversations</h2>
        <Link
          to={paths.conversations.getHref()}
          className="-my-2.5 -mr-2 inline-flex min-h-11 items-center px-2 text-sm font-medium text-accent hover:underline"
        >
          View All
        </Link>
      </div>
      {isPending ? (
        <div className="grid grid-cols-2 gap-2">
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
        </div>
      ) : isError ? (
        <QueryError
          message="Failed to fetch conversations"
          onRetry={refetch}
          retrying={isFetching}
          className="mb-4"
        />
      ) : data.length === 0 ? (
        <p className="pb-4 text-sm text-muted-foreground">
          No conversations yet. Ask the assistant anything below.
        </p>
      ) : (
        <ul aria-label="Recent conversations" className="grid min-h-0 grid-cols-2 gap-2 scroll-rows">
          {data.slice(0, 6).map((c) => (
            <li key={c.id}>
              <Link
                to={paths.conversation.getHref(c.id)}
                className="flex h-13 flex-col justify-center gap-0.5 rounded-lg border bg-muted/30 px-2.5 hover:bg-muted"
              >
                <span className="truncate text-sm font-medium">{c.title}</span>
                <span className="text-xs text-muted-foreground">{relativeTime(c.updatedAt)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

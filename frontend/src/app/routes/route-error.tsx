import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';

import { Button, buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** Shown when a screen throws or fails to load (e.g. a stale chunk after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;

  return (
    <div role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-3 p-6 text-center">
      <h1 className="text-lg font-semibold">Something went wrong</h1>
      {detail && <p className="max-w-xs break-words text-sm text-muted-foreground">{detail}</p>}
      <div className="flex gap-2">
        <Button onClick={() => window.location.reload()}>Reload</Button>
        {/* A full load, not a client navigation: the router that failed may fail again. */}
        <Link reloadDocument to={paths.root.getHref()} className={buttonVariants({ variant: 'outline' })}>
          Go home
        </Link>
      </div>
    </div>
  );
}

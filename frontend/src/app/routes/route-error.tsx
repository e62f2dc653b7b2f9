import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

import { Button } from '@/components/ui/button';

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
      <Button onClick={() => window.location.reload()}>Reload</Button>
    </div>
  );
}

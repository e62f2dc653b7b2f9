import { CircleAlert } from 'lucide-react';

import { Card, CardContent } from '@/components/ui/card';

export function NotFoundRoute() {
  return (
    <main className="flex flex-1 items-center justify-center p-4">
      <Card className="w-full">
        <CardContent className="flex flex-col gap-3 p-6">
          <div className="flex items-center gap-2">
            <CircleAlert className="size-6 shrink-0 text-destructive" aria-hidden="true" />
            <h1 className="text-xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">Did you forget to add the page to the router?</p>
        </CardContent>
      </Card>
    </main>
  );
}

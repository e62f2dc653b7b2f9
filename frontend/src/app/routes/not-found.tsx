import { ArrowLeft, CircleAlert, House } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';

import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';

/**
 * An address the app does not know. 'Go home' opens `/`, which leads a visitor to the welcome screen
 * and a signed-in user to theirs; 'Go back' shows only when the app itself led here.
 */
export function NotFoundRoute() {
  const navigate = useNavigate();
  // The first entry of this tab's visit has the key 'default': there is no page of ours to go back to.
  const cameFromApp = useLocation().key !== 'default';

  return (
    <main className="flex flex-1 items-center justify-center p-4">
      <Card className="w-full">
        <CardContent className="flex flex-col gap-4 p-6">
          <div className="flex items-center gap-2">
            <CircleAlert className="size-6 shrink-0 text-destructive" aria-hidden="true" />
            <h1 className="text-xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">
            This page doesn&apos;t exist or has moved. Check the address, or head back to Haven.
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            {cameFromApp && (
              <Button variant="outline" className="h-11 sm:flex-1" onClick={() => void navigate(-1)}>
                <ArrowLeft aria-hidden="true" />
                Go back
              </Button>
            )}
            <Link to={paths.root.getHref()} className={buttonVariants({ className: 'h-11 sm:flex-1' })}>
              <House aria-hidden="true" />
              Go home
            </Link>
          </div>
        </CardContent>
      </Card>
    </main>
  );
}

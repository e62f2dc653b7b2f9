import { BellRing } from 'lucide-react';

import { Card, CardContent } from '@/components/ui/card';

/** Settings → Notifications: not built yet (spec 2). */
export function NotificationSettings() {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 p-8 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
          <BellRing className="size-6" aria-hidden="true" />
        </span>
        <h2 className="font-semibold">Notifications are coming soon</h2>
        <p className="text-sm text-muted-foreground">
          You&apos;ll be able to choose which reminders and digests Haven sends you.
        </p>
      </CardContent>
    </Card>
  );
}

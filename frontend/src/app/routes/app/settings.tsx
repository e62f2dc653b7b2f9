import { useState } from 'react';

import { PageHeader } from '@/components/layouts/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AccountCard } from '@/features/auth/components/account-card';
import { DeleteAccount } from '@/features/auth/components/delete-account';
import { YourDataCard } from '@/features/portability/components/your-data-card';
import { NotificationSettings } from '@/features/settings/components/notification-settings';
import { PrivacySettings } from '@/features/settings/components/privacy-settings';
import { ThemeSettings } from '@/features/settings/components/theme-settings';
import { TimeFormatSettings } from '@/features/settings/components/time-format-settings';
import { TroubleshootingCard } from '@/features/settings/components/troubleshooting-card';
import { WeeklyReviewSettings } from '@/features/settings/components/weekly-review-settings';

type SettingsTab = 'privacy' | 'notifications' | 'display';

/** Settings inside the home shell: Privacy (default), Notifications, Display. */
export function SettingsRoute() {
  const [tab, setTab] = useState<SettingsTab>('privacy');
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Settings" />
      <Tabs value={tab} onValueChange={(next) => setTab(next as SettingsTab)}>
        <TabsList aria-label="Settings sections">
          <TabsTrigger value="privacy">Privacy</TabsTrigger>
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="display">Display</TabsTrigger>
        </TabsList>
        <TabsContent value="privacy" className="flex flex-col gap-4">
          <PrivacySettings />
          {/* One card from two features: export and import (portability), then deleting it all (auth). */}
          <YourDataCard>
            <DeleteAccount />
          </YourDataCard>
        </TabsContent>
        <TabsContent value="notifications" className="flex flex-col gap-4">
          <WeeklyReviewSettings />
          <NotificationSettings />
        </TabsContent>
        <TabsContent value="display" className="flex flex-col gap-4">
          <ThemeSettings />
          <TimeFormatSettings />
          {/* Composed here so the settings feature does not import the auth feature. */}
          <AccountCard />
          <TroubleshootingCard />
        </TabsContent>
      </Tabs>
    </div>
  );
}

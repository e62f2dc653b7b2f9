import { Lightbulb, MessageCircle, Plug, Plus, Settings, type LucideIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';

import { getActiveTab, type TabId } from '@/components/layouts/active-tab';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

interface Tab {
  id: TabId;
  label: string;
  to: string;
  icon: LucideIcon;
}

const LEFT_TABS: Tab[] = [
  { id: 'assist', label: 'Assist', to: paths.assist.path, icon: MessageCircle },
  { id: 'insights', label: 'Insights', to: paths.home.path, icon: Lightbulb },
];

const RIGHT_TABS: Tab[] = [
  { id: 'integrations', label: 'Connect', to: paths.integrations.path, icon: Plug },
  { id: 'settings', label: 'Settings', to: paths.settings.path, icon: Settings },
];

/** The four tabs with the round add-thought button in the centre, fixed to the bottom of the column. */
export function BottomTabBar({ onAddThought }: { onAddThought: () => void }) {
  const active = getActiveTab(useLocation().pathname);

  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 mx-auto w-full max-w-md border-t bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur supports-[backdrop-filter]:bg-background/80"
    >
      <div className="grid h-16 grid-cols-5 items-center px-2">
        {LEFT_TABS.map((tab) => (
          <TabLink key={tab.id} tab={tab} active={tab.id === active} />
        ))}
        <div className="flex justify-center">
          <button
            type="button"
            aria-label="Add thought"
            onClick={onAddThought}
            className="-mt-7 flex size-14 items-center justify-center rounded-full bg-accent text-accent-foreground shadow-lg ring-4 ring-background transition-transform hover:scale-105 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring active:scale-95"
          >
            <Plus className="size-7" strokeWidth={2.5} aria-hidden="true" />
          </button>
        </div>
        {RIGHT_TABS.map((tab) => (
          <TabLink key={tab.id} tab={tab} active={tab.id === active} />
        ))}
      </div>
    </nav>
  );
}

function TabLink({ tab, active }: { tab: Tab; active: boolean }) {
  const Icon = tab.icon;
  return (
    <Link
      to={tab.to}
      data-tab={tab.id}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'flex h-full flex-col items-center justify-center gap-1 rounded-lg text-[11px] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring',
        active ? 'text-accent' : 'text-muted-foreground hover:text-foreground',
      )}
    >
      <Icon className="size-5" strokeWidth={active ? 2.4 : 2} aria-hidden="true" />
      {tab.label}
    </Link>
  );
}

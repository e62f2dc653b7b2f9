import {
  createContext,
  use,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useState,
  type ComponentProps,
  type KeyboardEvent,
} from 'react';

import { cn } from '@/lib/utils';

interface TabsContextValue {
  value: string;
  onValueChange: (value: string) => void;
  baseId: string;
  /** The values that have a `TabsContent`; a tab points at its panel (`aria-controls`) only then. */
  panels: ReadonlySet<string>;
  registerPanel: (value: string) => () => void;
}

const TabsContext = createContext<TabsContextValue | null>(null);

function useTabs(): TabsContextValue {
  const ctx = use(TabsContext);
  if (!ctx) throw new Error('Tabs parts must be used within <Tabs>');
  return ctx;
}

type TabsProps = Omit<ComponentProps<'div'>, 'onChange'> & {
  value: string;
  onValueChange: (value: string) => void;
};

/** Controlled tabs following the WAI-ARIA pattern (arrow keys, Home and End move and select). */
export function Tabs({ value, onValueChange, className, ...props }: TabsProps) {
  const baseId = useId();
  const [panels, setPanels] = useState<ReadonlySet<string>>(() => new Set());
  const registerPanel = useCallback((panel: string) => {
    setPanels((current) => new Set(current).add(panel));
    return () =>
      setPanels((current) => {
        const next = new Set(current);
        next.delete(panel);
        return next;
      });
  }, []);
  const context = useMemo(
    () => ({ value, onValueChange, baseId, panels, registerPanel }),
    [value, onValueChange, baseId, panels, registerPanel],
  );
  return (
    <TabsContext value={context}>
      <div className={cn('flex flex-col gap-4', className)} {...props} />
    </TabsContext>
  );
}

function onTabListKeyDown(event: KeyboardEvent<HTMLDivElement>) {
  const tabs = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]'));
  const index = tabs.indexOf(document.activeElement as HTMLButtonElement);
  if (index < 0) return;
  const moves: Record<string, number> = {
    ArrowRight: (index + 1) % tabs.length,
    ArrowLeft: (index - 1 + tabs.length) % tabs.length,
    Home: 0,
    End: tabs.length - 1,
  };
  const next = moves[event.key];
  if (next === undefined) return;
  event.preventDefault();
  tabs[next]?.focus();
  tabs[next]?.click();
}

export function TabsList({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      role="tablist"
      onKeyDown={onTabListKeyDown}
      className={cn('grid auto-cols-fr grid-flow-col gap-1 rounded-xl bg-muted p-1', className)}
      {...props}
    />
  );
}

export function TabsTrigger({ value, className, ...props }: ComponentProps<'button'> & { value: string }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  // Only the selected panel is in the page: pointing at any other would name a missing element.
  const controls = selected && tabs.panels.has(value) ? `${tabs.baseId}-panel-${value}` : undefined;
  return (
    <button
      type="button"
      role="tab"
      id={`${tabs.baseId}-tab-${value}`}
      aria-selected={selected}
      aria-controls={controls}
      tabIndex={selected ? 0 : -1}
      data-state={selected ? 'active' : 'inactive'}
      onClick={() => tabs.onValueChange(value)}
      className={cn(
        'inline-flex min-h-11 items-center justify-center gap-1.5 rounded-lg px-3 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4',
        selected
          ? 'bg-card text-foreground shadow-sm dark:bg-accent-soft'
          : 'text-muted-foreground hover:text-foreground',
        className,
      )}
      {...props}
    />
  );
}

/** The panel of one tab; only the selected panel is rendered. */
export function TabsContent({ value, className, ...props }: ComponentProps<'div'> & { value: string }) {
  const tabs = useTabs();
  const { registerPanel } = tabs;
  useEffect(() => registerPanel(value), [registerPanel, value]);
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={`${tabs.baseId}-panel-${value}`}
      aria-labelledby={`${tabs.baseId}-tab-${value}`}
      className={cn('outline-none', className)}
      {...props}
    />
  );
}

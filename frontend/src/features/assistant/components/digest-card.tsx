import { CalendarCheck, Mail, Puzzle } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

const PANELS = ['Email Digest', 'Calendar RSVPs', 'More Integrations'] as const;

function Panel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex w-full shrink-0 snap-center flex-col gap-3 p-4">
      <h2 className="flex items-center gap-2 font-semibold">
        {icon}
        {title}
      </h2>
      {children}
    </section>
  );
}

const connect = cn(buttonVariants({ size: 'sm' }), 'self-start');
const manage = cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'self-start');

/**
 * The swipeable top card of the Assist screen: the e-mail digest, calendar invitations and more
 * integrations. Until mail and calendar are connected, each panel offers to connect them.
 */
export function DigestCard() {
  const [panel, setPanel] = useState(0);
  const track = useRef<HTMLDivElement>(null);
  const go = (i: number) =>
    track.current?.scrollTo({ left: i * track.current.clientWidth, behavior: 'smooth' });
  return (
    <Card className="flex min-h-0 flex-col overflow-hidden p-0">
      <div
        ref={track}
        className="flex min-h-0 flex-1 snap-x snap-mandatory overflow-x-auto overscroll-x-contain [scrollbar-width:none]"
        onScroll={(e) => setPanel(Math.round(e.currentTarget.scrollLeft / e.currentTarget.clientWidth))}
      >
        <Panel icon={<Mail aria-hidden className="size-4" />} title={PANELS[0]}>
          <p className="text-sm text-muted-foreground">
            Connect your mail to see what is new since yesterday and what needs an answer.
          </p>
          <Link to={paths.integrations.getHref()} className={connect}>
            Connect Gmail
          </Link>
        </Panel>
        <Panel icon={<CalendarCheck aria-hidden className="size-4" />} title={PANELS[1]}>
          <p className="text-sm text-muted-foreground">
            Connect your calendar to answer invitations from here.
          </p>
          <Link to={paths.integrations.getHref()} className={connect}>
            Connect Calendar
          </Link>
        </Panel>
        <Panel icon={<Puzzle aria-hidden className="size-4" />} title={PANELS[2]}>
          <p className="text-sm text-muted-foreground">
            Slack mentions and Notion pages will show here once connected.
          </p>
          <Link to={paths.integrations.getHref()} className={manage}>
            Manage Integrations
          </Link>
        </Panel>
      </div>
      <div className="flex justify-center gap-1.5 pb-3" role="tablist" aria-label="Panels">
        {PANELS.map((name, i) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={panel === i}
            aria-label={name}
            onClick={() => go(i)}
            className={cn('size-2 rounded-full', panel === i ? 'bg-accent' : 'bg-muted-foreground/30')}
          />
        ))}
      </div>
    </Card>
  );
}

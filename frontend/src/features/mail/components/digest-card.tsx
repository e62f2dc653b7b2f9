import { CalendarCheck, Mail, Puzzle } from 'lucide-react';
import type { EmailItem } from '@haven/contracts/mail';
import { useRef, useState, type ReactNode } from 'react';

import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { CalendarPanel } from './calendar-panel';
import { EmailDialog } from './email-dialog';
import { EmailPanel } from './email-panel';
import { MorePanel } from './more-panel';

const PANELS = ['Email Digest', 'Calendar RSVPs', 'More Integrations'] as const;

function Panel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex min-h-0 w-full shrink-0 snap-center flex-col gap-3 p-4">
      <h2 className="flex items-center gap-2 font-semibold">
        {icon}
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The swipeable top card of the Assist screen: the e-mail digest, calendar invitations and more
 * integrations. Until mail and calendar are connected, each panel offers to connect them.
 */
export function DigestCard({ confirmEmails }: { confirmEmails: boolean }) {
  const [panel, setPanel] = useState(0);
  const [open, setOpen] = useState<EmailItem | null>(null);
  const track = useRef<HTMLDivElement>(null);
  const go = (i: number) =>
    track.current?.scrollTo({ left: i * track.current.clientWidth, behavior: 'smooth' });
  return (
    <Card className="flex min-h-0 flex-col overflow-hidden p-0">
      {open ? (
        <EmailDialog key={open.id} email={open} onClose={() => setOpen(null)} confirm={confirmEmails} />
      ) : null}
      <div
        ref={track}
        className="flex min-h-0 flex-1 snap-x snap-mandatory overflow-x-auto overscroll-x-contain [scrollbar-width:none]"
        onScroll={(e) => setPanel(Math.round(e.currentTarget.scrollLeft / e.currentTarget.clientWidth))}
      >
        <Panel icon={<Mail aria-hidden className="size-4" />} title={PANELS[0]}>
          <EmailPanel onOpen={setOpen} />
        </Panel>
        <Panel icon={<CalendarCheck aria-hidden className="size-4" />} title={PANELS[1]}>
          <CalendarPanel />
        </Panel>
        <Panel icon={<Puzzle aria-hidden className="size-4" />} title={PANELS[2]}>
          <MorePanel />
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

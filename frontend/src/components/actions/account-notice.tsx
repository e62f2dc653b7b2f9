import { HttpError } from '@haven/contracts/client';
import type { ErrorCode } from '@haven/contracts/errors';
import type { IntegrationType } from '@haven/contracts/integrations';
import { Link2Off } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { ConnectAccountButton } from './connect-account';

/** Why an action on the user's mail or calendar could not happen: connecting is the way out. */
export type AccountProblem = Extract<ErrorCode, 'not_connected' | 'reconnect_required'>;

/** The account problem a failed call reports (its 409's code), or null for any other failure. */
export function accountProblemOf(error: unknown): AccountProblem | null {
  const code = error instanceof HttpError ? error.body?.code : undefined;
  return code === 'not_connected' || code === 'reconnect_required' ? code : null;
}

const TEXTS: Record<'email' | 'calendar', Record<AccountProblem, { text: string; connect: string }>> = {
  email: {
    not_connected: {
      text: 'Gmail is not connected, so nothing was saved or sent. Connect it to save drafts and send email from here.',
      connect: 'Connect Gmail',
    },
    reconnect_required: {
      text: 'Your Gmail connection needs attention, so nothing was saved or sent. Connect it again to go on.',
      connect: 'Reconnect Gmail',
    },
  },
  calendar: {
    not_connected: {
      text: 'No calendar is connected, so this event was not added to any calendar. Connect Google Calendar, or download the event for any calendar app.',
      connect: 'Connect Google Calendar',
    },
    reconnect_required: {
      text: 'Your Google Calendar connection needs attention, so this event was not added. Connect it again, or download the event for any calendar app.',
      connect: 'Reconnect Google Calendar',
    },
  },
};

/**
 * Says plainly that an action did not happen because the account is not connected (or must be
 * connected again), with the button that starts connecting it and any other way out (`children`).
 */
export function AccountNotice({
  problem,
  type,
  children,
}: {
  problem: AccountProblem;
  type: Extract<IntegrationType, 'email' | 'calendar'>;
  children?: ReactNode;
}) {
  const { text, connect } = TEXTS[type][problem];
  const ref = useRef<HTMLDivElement>(null);
  // It appears after a button at the foot of a scrolling dialog was pressed: brought into view.
  useEffect(() => {
    // A block, not an arrow's value: newer browsers return a promise from scrollIntoView.
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, [problem]);
  return (
    <div
      ref={ref}
      role="alert"
      className="flex flex-col gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-950 dark:text-amber-100"
    >
      <p className="flex gap-2">
        <Link2Off aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>{text}</span>
      </p>
      <div className="flex flex-col gap-2">
        <ConnectAccountButton account={{ provider: 'google', type }} size="sm">
          {connect}
        </ConnectAccountButton>
        {children}
      </div>
    </div>
  );
}

/** Said when the event dialog opens with no usable calendar: before anything is typed into it. */
const FIRST: Record<AccountProblem, string> = {
  not_connected:
    'No calendar is connected, so this event cannot be added to a calendar yet. Connect Calendar first, or fill in the event and download it for any calendar app.',
  reconnect_required:
    'Your Google Calendar connection needs attention, so this event cannot be added yet. Connect it again first, or fill in the event and download it for any calendar app.',
};

/** The event dialog's opening notice when no calendar can take the event, leading to /integrations. */
export function CalendarFirstNotice({ problem }: { problem: AccountProblem }) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-950 dark:text-amber-100"
    >
      <p className="flex gap-2">
        <Link2Off aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>{FIRST[problem]}</span>
      </p>
      <Link to={paths.integrations.getHref()} className={cn(buttonVariants({ size: 'sm' }))}>
        Connect Calendar
      </Link>
    </div>
  );
}

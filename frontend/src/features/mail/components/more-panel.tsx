import type { MoreAnswer } from '@haven/contracts/workspace';
import { ExternalLink, FileText, MessageSquare } from 'lucide-react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { formatMonthDay } from '@/lib/format-date';
import { useDeferredQuery } from '@/lib/deferred-query';
import { useMore } from '../api/digest';
import { connectClass } from './email-panel';

function ConnectLink({ provider, type, name }: { provider: string; type: string; name: string }) {
  return (
    <Link to={paths.integration.getHref(provider, type)} className={connectClass}>
      Connect {name}
    </Link>
  );
}

function ManageIntegrationsLink() {
  return (
    <Link
      to={paths.integrations.getHref()}
      className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'self-start')}
    >
      Manage Integrations
    </Link>
  );
}

/** Neither Slack nor Notion is connected (or it is not known): what connecting them would show. */
function ConnectPrompt({ offerSlack, offerNotion }: { offerSlack: boolean; offerNotion: boolean }) {
  return (
    <>
      <p className="text-sm text-muted-foreground">
        {offerSlack && offerNotion
          ? 'Connect Slack to see mentions waiting for your reply, and Notion to see your recent pages.'
          : offerSlack
            ? 'Connect Slack to see mentions waiting for your reply.'
            : offerNotion
              ? 'Connect Notion to see your recent pages.'
              : 'Slack and Notion are not set up on this server.'}
      </p>
      {(offerSlack || offerNotion) && (
        <div className="flex flex-wrap gap-2">
          {offerSlack && <ConnectLink provider="slack" type="messages" name="Slack" />}
          {offerNotion && <ConnectLink provider="notion" type="documents" name="Notion" />}
        </div>
      )}
      <ManageIntegrationsLink />
    </>
  );
}

/** Slack mentions and direct messages waiting for a reply. */
function SlackSection({ slack, offer }: { slack: MoreAnswer['slack']; offer: boolean }) {
  return (
    <>
      <h3 className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
        <MessageSquare aria-hidden className="size-3.5" /> Slack
      </h3>
      {!slack.connected ? (
        offer ? (
          <ConnectLink provider="slack" type="messages" name="Slack" />
        ) : (
          <p className="text-sm text-muted-foreground">Not set up on this server</p>
        )
      ) : slack.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nothing waiting for your reply</p>
      ) : (
        <ul className="flex flex-col gap-1" aria-label="Slack messages waiting for a reply">
          {slack.items.map((item) => (
            <li key={item.id} className="min-w-0 text-sm">
              <span className="flex items-center gap-2">
                <span className="truncate font-medium">
                  {item.kind === 'dm' ? item.from : `${item.from} in ${item.channel}`}
                </span>
                <span className="ml-auto shrink-0 text-xs text-muted-foreground">
                  {formatMonthDay(new Date(item.at), 'short')}
                </span>
              </span>
              <span className="line-clamp-1 text-xs text-muted-foreground">{item.text}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The Notion pages shared with Haven, most recently edited first. */
function NotionSection({ notion, offer }: { notion: MoreAnswer['notion']; offer: boolean }) {
  return (
    <>
      <h3 className="mt-1 flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
        <FileText aria-hidden className="size-3.5" /> Notion
      </h3>
      {!notion.connected ? (
        offer ? (
          <ConnectLink provider="notion" type="documents" name="Notion" />
        ) : (
          <p className="text-sm text-muted-foreground">Not set up on this server</p>
        )
      ) : notion.pages.length === 0 ? (
        <p className="text-sm text-muted-foreground">No pages shared with Haven yet</p>
      ) : (
        <ul className="flex flex-col" aria-label="Recent Notion pages">
          {notion.pages.map((page) => (
            <li key={page.id}>
              <a
                href={page.url}
                target="_blank"
                rel="noopener noreferrer"
                className="flex items-center gap-2 rounded-md py-1 text-sm hover:underline"
              >
                <span className="truncate">{page.title}</span>
                <ExternalLink aria-hidden className="size-3 shrink-0 text-muted-foreground" />
                <span className="ml-auto shrink-0 text-xs text-muted-foreground">
                  {formatMonthDay(new Date(page.lastEdited), 'short')}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Panel 2: Slack messages waiting for a reply and recent Notion pages, or prompts to connect them. */
export function MorePanel() {
  const { data, isPending, isError } = useDeferredQuery(useMore());
  if (isPending)
    return (
      <div className="flex flex-col gap-2" aria-label="Loading integrations">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  // A provider this server has no client id for is not offered: connecting it cannot work.
  const offerSlack = isError || data.slack.configured;
  const offerNotion = isError || data.notion.configured;
  if (isError || (!data.slack.connected && !data.notion.connected))
    return <ConnectPrompt offerSlack={offerSlack} offerNotion={offerNotion} />;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto">
      <SlackSection slack={data.slack} offer={offerSlack} />
      <NotionSection notion={data.notion} offer={offerNotion} />
      <ManageIntegrationsLink />
    </div>
  );
}

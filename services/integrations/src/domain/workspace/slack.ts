import type { WebClient } from '@slack/web-api';
import type { SlackItem } from '@haven/contracts/workspace';

/** How many mentions and direct-message conversations a sync looks at. */
const MENTIONS = 20;
const DM_CHANNELS = 15;
/** Direct messages older than this are not waiting any more. */
const DM_WINDOW_MS = 14 * 86_400_000;

const atOf = (ts: string) => new Date(Number(ts) * 1000);

/**
 * Slack says the token lacks a scope a call needs (`missing_scope`: granted before Haven asked for
 * it, or by an older version of the app).
 */
export const slackScopeMissing = (err: unknown): boolean =>
  (err as { data?: { error?: string } }).data?.error === 'missing_scope';

/** Slack says the token no longer works (revoked, the user removed, or never valid). */
export function slackGrantLost(err: unknown): boolean {
  const code = (err as { data?: { error?: string } }).data?.error;
  return ['invalid_auth', 'token_revoked', 'account_inactive', 'not_authed', 'token_expired'].includes(
    code ?? '',
  );
}

/** Slack users' names (each asked once per sync), and Slack's markup made readable with them. */
function slackNames(slack: WebClient) {
  const names = new Map<string, string>();
  const nameOf = async (user: string | undefined) => {
    if (!user) return 'Someone';
    if (!names.has(user)) {
      const info = await slack.users.info({ user }).catch(() => null);
      names.set(user, info?.user?.profile?.display_name || info?.user?.real_name || info?.user?.name || user);
    }
    return names.get(user)!;
  };

  /** Slack's `<@U123>` mentions as `@name`, `<url|label>` links as their label. */
  const readable = async (text: string) => {
    let out = text;
    for (const [token, id] of text.matchAll(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g))
      out = out.replace(token, `@${await nameOf(id)}`);
    return out.replace(/<(?:https?:[^|>]+)\|([^>]+)>/g, '$1').replace(/<(https?:[^>]+)>/g, '$1');
  };

  return { nameOf, readable };
}
type SlackNames = ReturnType<typeof slackNames>;

/** Whether the user wrote after the message `ts` (of the thread `threadTs`), in its thread or in the channel. */
async function answeredAfter(
  slack: WebClient,
  me: string,
  channel: string,
  ts: string,
  threadTs: string,
): Promise<boolean> {
  const [thread, later] = await Promise.all([
    slack.conversations.replies({ channel, ts: threadTs, oldest: ts, limit: 100 }),
    slack.conversations.history({ channel, oldest: ts, limit: 100 }),
  ]);
  return [...(thread.messages ?? []), ...(later.messages ?? [])].some(
    (m) => m.user === me && Number(m.ts) > Number(ts),
  );
}

/** The recent messages that mention the user (not their own), answered or not. */
async function mentions(
  slack: WebClient,
  me: string,
  { nameOf, readable }: SlackNames,
): Promise<SlackItem[]> {
  const items: SlackItem[] = [];
  const found = await slack.search.messages({
    query: `<@${me}>`,
    sort: 'timestamp',
    sort_dir: 'desc',
    count: MENTIONS,
  });
  for (const match of found.messages?.matches ?? []) {
    if (!match.ts || !match.channel?.id || match.user === me) continue;
    const channel = match.channel.id;
    // The user answered if they wrote after the mention, in its thread or in the channel.
    const threadTs = (match as { thread_ts?: string }).thread_ts ?? match.ts;
    const answered = await answeredAfter(slack, me, channel, match.ts, threadTs);
    items.push({
      id: `${channel}:${match.ts}`,
      kind: 'mention',
      channel: match.channel.name ? `#${match.channel.name}` : channel,
      from: match.username || (await nameOf(match.user)),
      text: await readable(match.text ?? ''),
      at: atOf(match.ts).toISOString(),
      permalink: match.permalink,
      needsReply: !answered,
    });
  }
  return items;
}

/** The direct-message conversations with a message to the user in the window; waiting when theirs is not the last. */
async function directMessages(
  slack: WebClient,
  me: string,
  { nameOf, readable }: SlackNames,
): Promise<SlackItem[]> {
  const items: SlackItem[] = [];
  const ims = await slack.conversations.list({ types: 'im', limit: 100 });
  for (const im of (ims.channels ?? []).slice(0, DM_CHANNELS)) {
    if (!im.id) continue;
    const history = await slack.conversations.history({ channel: im.id, limit: 10 });
    const messages = (history.messages ?? []).filter((m) => m.ts && !m.subtype);
    const last = messages[0];
    const lastIncoming = messages.find((m) => m.user !== me);
    if (!lastIncoming?.ts || Date.now() - atOf(lastIncoming.ts).getTime() > DM_WINDOW_MS) continue;
    const from = await nameOf(lastIncoming.user ?? im.user);
    items.push({
      id: `${im.id}:${lastIncoming.ts}`,
      kind: 'dm',
      channel: from,
      from,
      text: await readable(lastIncoming.text ?? ''),
      at: atOf(lastIncoming.ts).toISOString(),
      needsReply: last?.user !== me,
    });
  }
  return items;
}

/**
 * Reads what waits for the user in Slack: recent messages that mention them (answered when the user
 * wrote in that thread or channel after the mention), and direct messages whose last word is not
 * theirs. Answers the items and the user's Slack id.
 */
export async function readSlack(slack: WebClient): Promise<{ me: string; items: SlackItem[] }> {
  const auth = await slack.auth.test();
  const me = auth.user_id!;
  const names = slackNames(slack);
  const items = [...(await mentions(slack, me, names)), ...(await directMessages(slack, me, names))];
  return { me, items };
}

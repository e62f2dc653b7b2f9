/**
 * Push for mail accounts by their servers: each worker process holds an IMAP connection in IDLE on
 * the inbox of up to `max` accounts, and a new message there asks for the account's sync at once.
 * Polling (the due round) stays the safety net: for the accounts past the bound, and for a
 * connection that dropped until the next round opens it again.
 *
 * Across replicas, an account is watched by one process: a Redis key per account names the holder,
 * taken with NX and renewed each round; a process that stops renewing (gone) loses it a few rounds
 * later and another takes the account.
 */
import { randomUUID } from 'node:crypto';
import type { ImapFlow } from 'imapflow';
import type { Watcher } from '@haven/kit/service';
import type { Logger } from '@haven/kit/logger';
import type { Redis } from '@haven/kit/redis';
import type { IntegrationRow } from '../../db/integrations.repository';

/** The Redis key naming the process that watches account `id`. */
export const imapWatchKey = (prefix: string, id: number) => `${prefix}imap-watch:${id}`;

/** New mail seldom comes alone: changes within this are one sync. */
const SETTLE_MS = 1_500;

export interface ImapWatchDeps {
  /** The accounts to watch, in the order they are taken (oldest first). */
  accounts(): Promise<IntegrationRow[]>;
  /** A connection signed in to the account's server, its inbox selected (it then waits in IDLE). */
  open(row: IntegrationRow): Promise<ImapFlow>;
  /** Asks for the account's sync now. */
  changed(row: IntegrationRow): Promise<void>;
  redis: Redis;
  /** Where the holders' keys live (REDIS_PREFIX). */
  prefix: string;
  /** At most this many connections in this process. */
  max: number;
  /** How often the watched set is brought up to date (and the keys renewed). */
  everyMs: number;
  log: Logger;
}

interface Held {
  client: ImapFlow;
  settle?: NodeJS.Timeout;
}

export function createImapWatch(deps: ImapWatchDeps): Watcher & {
  /** Brings the watched set up to date once (each round does). */
  round(): Promise<void>;
  /** The accounts this process watches now. */
  watched(): number[];
} {
  const { redis, log, max } = deps;
  const me = randomUUID();
  const held = new Map<number, Held>();
  const keyOf = (id: number) => imapWatchKey(deps.prefix, id);
  const ttl = () => deps.everyMs * 3;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function release(id: number): Promise<void> {
    const watch = held.get(id);
    held.delete(id);
    clearTimeout(watch?.settle);
    await watch?.client.logout().catch(() => watch.client.close());
    // Only our own key: another process may hold it by now.
    if ((await redis.get(keyOf(id))) === me) await redis.del(keyOf(id));
  }

  async function watch(row: IntegrationRow): Promise<void> {
    const client = await deps.open(row);
    const entry: Held = { client };
    held.set(row.id, entry);
    client.on('exists', () => {
      clearTimeout(entry.settle);
      entry.settle = setTimeout(() => {
        deps
          .changed(row)
          .catch((err: unknown) => log.warn({ err, integrationId: row.id }, 'push sync not asked'));
      }, SETTLE_MS);
    });
    // Dropped (the server restarted, the network): the next round opens it again.
    client.on('close', () => {
      if (held.get(row.id) === entry) void release(row.id);
    });
  }

  /** Renews what this process holds; lets go of what it no longer should watch. One read, one write. */
  async function keep(wanted: Set<number>): Promise<void> {
    const ids = [...held.keys()];
    if (ids.length === 0) return;
    const holders = await redis.mget(ids.map(keyOf));
    const kept = ids.filter((id, i) => holders[i] === me && wanted.has(id) && held.get(id)?.client.usable);
    await Promise.all(ids.filter((id) => !kept.includes(id)).map(release));
    const renew = redis.pipeline();
    for (const id of kept) renew.pexpire(keyOf(id), ttl());
    await renew.exec();
  }

  /** Takes accounts nobody watches, up to the bound: as many claims at once as places are free. */
  async function take(rows: IntegrationRow[]): Promise<void> {
    const candidates = rows.filter((row) => !held.has(row.id));
    while (held.size < max && candidates.length > 0 && !stopped) {
      const batch = candidates.splice(0, max - held.size);
      const claim = redis.pipeline();
      for (const row of batch) claim.set(keyOf(row.id), me, 'PX', ttl(), 'NX');
      const answers = (await claim.exec()) ?? [];
      for (const [i, row] of batch.entries()) {
        if (answers[i]?.[1] !== 'OK') continue;
        try {
          await watch(row);
        } catch (err) {
          // A server that does not answer now is polled; the next round tries again.
          log.info({ err, integrationId: row.id }, 'IMAP IDLE not opened; the account is polled');
          await release(row.id);
        }
      }
    }
  }

  async function round(): Promise<void> {
    const rows = await deps.accounts();
    await keep(new Set(rows.map((r) => r.id)));
    await take(rows);
  }

  const tick = () => {
    running = round()
      .catch((err: unknown) => log.warn({ err }, 'IMAP watch round failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, deps.everyMs);
      });
  };

  return {
    name: 'imap-watch',
    round,
    watched: () => [...held.keys()],
    start() {
      if (max > 0) tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await Promise.all([...held.keys()].map(release));
    },
  };
}

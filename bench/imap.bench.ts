import { eq } from 'drizzle-orm';
import { ImapFlow } from 'imapflow';
import { authService } from '@haven/auth/service';
import { startTestGateway } from '@haven/gateway/testing';
import { integrations, mailMessages } from '@haven/integrations/db/schema';
import { integrationsService } from '@haven/integrations/service';
import { sessionCookie, startTestServices, until } from '@haven/kit/testing';
import { startSmtpSubmission } from '../test/doubles/smtp-catcher';
import { hasDovecot, startDovecot } from '../test/support/dovecot';

const ADDRESS = 'bench@example.com';
const PASSWORD = 'app-password-bench';
const PEOPLE = ['Ann Lee', 'Bob Stone', 'Carol King', 'Dave Wu', 'Erin Park', 'Fay Diaz'];

/** A raw message as a mail server keeps it: HTML of a few kilobytes, like the Gmail bench's. */
function raw(o: { from: string; to: string; subject: string; id: string; refs?: string; html: string }) {
  return Buffer.from(
    [
      `From: ${o.from}`,
      `To: ${o.to}`,
      `Subject: ${o.subject}`,
      `Message-ID: <${o.id}>`,
      ...(o.refs ? [`In-Reply-To: <${o.refs}>`, `References: <${o.refs}>`] : []),
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      o.html,
      '',
    ].join('\r\n'),
  );
}

/** The same month of a busy inbox as the Gmail bench: 500 messages, 50 second messages, 20 sent questions. */
function month(): { inbox: Buffer[]; sent: Buffer[] } {
  const paragraph =
    '<p>Here is the update on the project, with the figures from last week and the plan for the next ' +
    'one. <a href="https://example.com/doc">The document</a> has the details.</p>';
  const inbox: Buffer[] = [];
  for (let i = 0; i < 500; i++) {
    const person = PEOPLE[i % PEOPLE.length]!;
    const kind = i % 5;
    const from =
      kind === 3
        ? 'News <news@letters.example>'
        : kind === 4
          ? 'Service <no-reply@service.example>'
          : `${person} <${person.split(' ')[0]!.toLowerCase()}@example.com>`;
    const subject = `Message ${i}: ${kind === 3 ? 'this week' : 'a question about the plan'}`;
    const html = `<div>${paragraph.repeat(8)}<img src="https://tracker.example/${i}.gif"></div>`;
    inbox.push(raw({ from, to: ADDRESS, subject, id: `m${i}@bench.example`, html }));
    if (i % 10 === 0)
      inbox.push(
        raw({
          from,
          to: ADDRESS,
          subject: `Re: ${subject}`,
          id: `r${i}@bench.example`,
          refs: `m${i}@bench.example`,
          html: '<p>One more thing.</p>',
        }),
      );
  }
  const sent = Array.from({ length: 20 }, (_, i) =>
    raw({
      from: ADDRESS,
      to: `${PEOPLE[i % PEOPLE.length]!.split(' ')[0]!.toLowerCase()}@example.com`,
      subject: `Question ${i}`,
      id: `q${i}@bench.example`,
      html: '<p>Could you send me the numbers by Friday?</p>',
    }),
  );
  return { inbox, sent };
}

/** The auth and integrations services, as in production, behind a gateway; servers on loopback allowed. */
async function integrationsBehindGateway(env: Record<string, string> = {}) {
  const stack = await startTestServices([authService, integrationsService], {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    MAIL_SERVERS_ALLOW_PRIVATE: '1',
    ...env,
  });
  const service = stack.get('integrations');
  const gateway = await startTestGateway(
    stack.config,
    { auth: stack.get('auth').url, integrations: service.url },
    stack.get('auth').url,
  );
  return { stack, service, gateway };
}

/**
 * `accounts.sync` over IMAP against Debian's Dovecot (beside the Gmail figures of integrations.bench.ts):
 * the first sync of a month of mail and an incremental sync of 5 new messages, through the gateway.
 */
export async function benchImap(): Promise<void> {
  console.log('\nIntegrations: accounts.sync over IMAP against Dovecot');
  if (!hasDovecot()) {
    console.log('  skipped: no Dovecot on this machine (apt-get install dovecot-imapd)');
    return;
  }
  const dovecot = await startDovecot({ [ADDRESS]: PASSWORD });
  const smtp = await startSmtpSubmission(PASSWORD);
  const { stack, service, gateway } = await integrationsBehindGateway();
  const mailApp = new ImapFlow({
    host: dovecot.host,
    port: dovecot.port,
    secure: false,
    doSTARTTLS: false,
    auth: { user: ADDRESS, pass: PASSWORD },
    logger: false,
  });
  try {
    await mailApp.connect();
    const { inbox, sent } = month();
    for (const m of inbox) await mailApp.append('INBOX', m);
    for (const m of sent) await mailApp.append('Sent', m, ['\\Seen']);
    const headers = { cookie: await sessionCookie(stack.config, 1), 'content-type': 'application/json' };

    const t0 = performance.now();
    const connected = await fetch(`${gateway.url}/api/integrations/mail-server`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        address: ADDRESS,
        password: PASSWORD,
        imap: { host: dovecot.host, port: dovecot.port, security: 'none' },
        smtp: { host: '127.0.0.1', port: smtp.port, security: 'none' },
      }),
    });
    const { id } = (await connected.json()) as { id: number };
    const rowOf = async () =>
      (await service.deps.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;
    await until(async () => (await rowOf()).lastSyncedAt !== null, 180_000, 'first sync');
    const first = performance.now() - t0;

    for (let i = 0; i < 5; i++)
      await mailApp.append(
        'INBOX',
        raw({
          from: 'Gus <gus@example.com>',
          to: ADDRESS,
          subject: `New ${i}`,
          id: `n${i}@bench.example`,
          html: '<p>Can we talk?</p>',
        }),
      );
    const before = (await rowOf()).lastSyncedAt!;
    const t1 = performance.now();
    await service.deps.db
      .update(integrations)
      .set({ nextSyncAt: new Date(0) })
      .where(eq(integrations.id, id));
    await service.reconcilers!.runOnce();
    await until(async () => (await rowOf()).lastSyncedAt! > before, 60_000, 'incremental sync');
    const incremental = performance.now() - t1;
    const cached = await service.deps.db.$count(mailMessages, eq(mailMessages.integrationId, id));
    console.log(
      `  first accounts.sync of 550 messages in 500 threads, 20 sent (with the sign-in check): ${first.toFixed(0)} ms, ${cached - 5} cached`,
    );
    console.log(`  incremental accounts.sync with 5 new messages: ${incremental.toFixed(0)} ms`);
  } finally {
    await mailApp.logout().catch(() => undefined);
    await gateway.close();
    await stack.stop();
    await smtp.stop();
    await dovecot.stop();
  }
}

/**
 * Push over IMAP IDLE: how many accounts one integrations worker process watches, and what each
 * costs it (memory, one connection), and how soon a delivered message is synced, with polling an
 * hour apart so that only the push can sync it.
 */
export async function benchImapPush(accounts = 100): Promise<void> {
  console.log(`\nIntegrations: push over IMAP IDLE, ${accounts} accounts watched by one worker process`);
  if (!hasDovecot()) {
    console.log('  skipped: no Dovecot on this machine (apt-get install dovecot-imapd)');
    return;
  }
  const users = Array.from({ length: accounts }, (_, i) => `watch${i}@example.com`);
  const dovecot = await startDovecot(Object.fromEntries(users.map((u) => [u, PASSWORD])));
  const smtp = await startSmtpSubmission(PASSWORD);
  const { stack, service, gateway } = await integrationsBehindGateway({
    SYNC_INTERVAL_MS: '3600000',
    IMAP_IDLE_MAX: String(accounts),
    IMAP_WATCH_ROUND_MS: '500',
  });
  const { redis, config } = service.deps;
  const watched = async () => (await redis.keys(`${config.REDIS_PREFIX}imap-watch:*`)).length;
  try {
    global.gc?.();
    const before = process.memoryUsage();
    const ids: number[] = [];
    for (const [i, user] of users.entries()) {
      const answer = await fetch(`${gateway.url}/api/integrations/mail-server`, {
        method: 'POST',
        headers: { cookie: await sessionCookie(stack.config, 1000 + i), 'content-type': 'application/json' },
        body: JSON.stringify({
          address: user,
          password: PASSWORD,
          imap: { host: dovecot.host, port: dovecot.port, security: 'none' },
          smtp: { host: '127.0.0.1', port: smtp.port, security: 'none' },
        }),
      });
      ids.push(((await answer.json()) as { id: number }).id);
    }
    const t0 = performance.now();
    await until(async () => (await watched()) === accounts, 120_000, 'every account watched');
    const allWatched = performance.now() - t0;
    global.gc?.();
    const after = process.memoryUsage();
    const perAccountKb = (after.rss - before.rss) / 1024 / accounts;

    const latencies: number[] = [];
    for (let n = 0; n < 10; n++) {
      const i = (n * 7) % accounts;
      const count = () => service.deps.db.$count(mailMessages, eq(mailMessages.integrationId, ids[i]!));
      const had = await count();
      const app = new ImapFlow({
        host: dovecot.host,
        port: dovecot.port,
        secure: false,
        doSTARTTLS: false,
        auth: { user: users[i]!, pass: PASSWORD },
        logger: false,
      });
      await app.connect();
      const t = performance.now();
      await app.append(
        'INBOX',
        raw({
          from: 'Gus <gus@example.com>',
          to: users[i]!,
          subject: `Push ${n}`,
          id: `p${n}@bench.example`,
          html: '<p>Can we talk?</p>',
        }),
      );
      await until(async () => (await count()) > had, 30_000, 'the pushed sync');
      latencies.push(performance.now() - t);
      await app.logout();
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `  ${accounts} accounts connected and watched in ${allWatched.toFixed(0)} ms after the last connect; ` +
        `RSS +${((after.rss - before.rss) / 1048576).toFixed(1)} MB (${perAccountKb.toFixed(0)} KB an account, its sync state included), one socket each`,
    );
    console.log(
      `  a delivered message synced (polling an hour apart): median ${latencies[5]!.toFixed(0)} ms, ` +
        `slowest ${latencies.at(-1)!.toFixed(0)} ms of 10 (the push waits ${1.5} s for more mail to settle)`,
    );
  } finally {
    await gateway.close();
    await stack.stop();
    await smtp.stop();
    await dovecot.stop();
  }
}

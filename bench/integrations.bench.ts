import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { authService } from '@haven/auth/service';
import { startTestGateway } from '@haven/gateway/testing';
import { integrations, mailMessages } from '@haven/integrations/db/schema';
import { integrationsService } from '@haven/integrations/service';
import { sessionCookie, startTestServices, until } from '@haven/kit/testing';
import { startGoogleDouble } from '../test/doubles/google-server';
import {
  ACCOUNT,
  CLASSES,
  CORPUS,
  deliver,
  figures,
  labelledMail,
  share,
  type Figures,
  type LabelledMail,
  type MailClass,
} from '../services/integrations/test/mail-corpus/corpus';
import { load, printTable } from './lib';

const PEOPLE = ['Ann Lee', 'Bob Stone', 'Carol King', 'Dave Wu', 'Erin Park', 'Fay Diaz'];

/** A month of a busy inbox: people, newsletters and notices, with HTML bodies of a few kilobytes. */
function fillInbox(account: ReturnType<Awaited<ReturnType<typeof startGoogleDouble>>['account']>, n: number) {
  const paragraph =
    '<p>Here is the update on the project, with the figures from last week and the plan for the next ' +
    'one. <a href="https://example.com/doc">The document</a> has the details.</p>';
  for (let i = 0; i < n; i++) {
    const person = PEOPLE[i % PEOPLE.length]!;
    const kind = i % 5;
    account.addMessage({
      from:
        kind === 3
          ? 'News <news@letters.example>'
          : kind === 4
            ? 'Service <no-reply@service.example>'
            : `${person} <${person.split(' ')[0]!.toLowerCase()}@example.com>`,
      to: account.email,
      subject: `Message ${i}: ${kind === 3 ? 'this week' : 'a question about the plan'}`,
      html: `<div>${paragraph.repeat(8)}<img src="https://tracker.example/${i}.gif"></div>`,
      headers: kind === 3 ? { 'List-Unsubscribe': '<mailto:u@letters.example>' } : {},
      date: new Date(Date.now() - i * 80 * 60_000),
    });
  }
}

/** Connects Gmail for the signed-in user through the gateway (the double consents at once). */
async function connectMail(gatewayUrl: string, headers: Record<string, string>): Promise<{ id: number }> {
  const started = (await (
    await fetch(`${gatewayUrl}/api/integrations/google/auth`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'email' }),
    })
  ).json()) as { authUrl: string };
  const back = new URL((await fetch(started.authUrl, { redirect: 'manual' })).headers.get('location')!);
  return (await (
    await fetch(`${gatewayUrl}/api/integrations/google/auth-complete`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        type: 'email',
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
      }),
    })
  ).json()) as { id: number };
}

type Db = ReturnType<Awaited<ReturnType<typeof startTestServices>>['get']>['deps']['db'];

/**
 * "Needs reply" on the labelled real mail (services/integrations/test/mail-corpus): delivered raw
 * into a Gmail account of the double (inbox label only, no categories), synced by the product with
 * no model, and counted per class on the tuning and the held-out half.
 */
async function benchTriage(
  gatewayUrl: string,
  cookie: string,
  google: Awaited<ReturnType<typeof startGoogleDouble>>,
  db: Db,
): Promise<void> {
  if (!existsSync(CORPUS)) {
    console.log(`\nReply triage on real mail: skipped (no corpus at ${CORPUS})`);
    return;
  }
  const mail = labelledMail();
  const account = google.account(ACCOUNT);
  google.state.consentAs = ACCOUNT;
  const byId = deliver(account, mail);
  const t0 = performance.now();
  const done = await connectMail(gatewayUrl, { cookie, 'content-type': 'application/json' });
  const rowOf = async () => (await db.select().from(integrations).where(eq(integrations.id, done.id)))[0]!;
  await until(async () => (await rowOf()).lastSyncedAt !== null, 120_000, 'corpus sync');
  const took = performance.now() - t0;
  const cached = await db
    .select({ messageId: mailMessages.messageId, needsReply: mailMessages.needsReply })
    .from(mailMessages)
    .where(eq(mailMessages.integrationId, done.id));
  const results = cached.map((c) => ({ mail: byId.get(c.messageId)!, needsReply: c.needsReply }));
  const corpus = figures(results.filter((r) => !r.mail.file.startsWith('own/')));
  const own = figures(results.filter((r) => r.mail.file.startsWith('own/')));
  const error = (await rowOf()).settings.error;

  const cell = ({ total, needsReply }: { total: number; needsReply: number }) =>
    (total ? `${needsReply}/${total} = ${((100 * needsReply) / total).toFixed(0)}%` : '-').padStart(16);
  console.log(
    `\nReply triage on labelled real mail (no model, no Gmail categories): ${mail.length} messages synced in ` +
      `${took.toFixed(0)} ms, ${mail.length - cached.length} not cached, sync error: ${error ? String(error) : 'none'}`,
  );
  console.log(
    `  ${'marked "needs reply"'.padEnd(24)}${'tuning'.padStart(16)}${'held-out'.padStart(16)}${'own cases'.padStart(16)}`,
  );
  /** One row: the classes' counts on each half of the corpus, and on the cases written here. */
  const row = (name: string, classes: MailClass[]) => {
    const sum = (f: Figures, half: LabelledMail['half']) => {
      const { marked, total } = share(f, classes, half);
      return { needsReply: marked, total };
    };
    const mine = [sum(own, 'tuning'), sum(own, 'held-out')];
    console.log(
      `  ${name.padEnd(24)}${cell(sum(corpus, 'tuning'))}${cell(sum(corpus, 'held-out'))}` +
        cell({
          total: mine[0]!.total + mine[1]!.total,
          needsReply: mine[0]!.needsReply + mine[1]!.needsReply,
        }),
    );
  };
  for (const c of CLASSES) row(c, [c]);
  row('machines (list + auto)', ['list-newsletter', 'automated']);
}

/** The Gmail API calls since `from`, counted by what they read (calendar calls aside). */
function gmailCalls(calls: string[], from: number): string {
  const mail = calls.slice(from).filter((c) => c.includes('/gmail/'));
  const count = (re: RegExp) => mail.filter((c) => re.test(c)).length;
  const messages = count(/\/messages\/[^/]+$/);
  const threads = count(/\/threads\/[^/]+$/);
  const lists = count(/\/(messages|threads|history)$/);
  return `${mail.length} Gmail calls (${lists} lists, ${messages} messages, ${threads} threads read)`;
}

export async function benchIntegrations(): Promise<void> {
  console.log('\nIntegrations: accounts.sync against the Google double, and the cached digest');
  const google = await startGoogleDouble();
  const stack = await startTestServices([authService, integrationsService], {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...google.env,
  });
  const service = stack.get('integrations');
  const gateway = await startTestGateway(
    stack.config,
    { auth: stack.get('auth').url, integrations: service.url },
    stack.get('auth').url,
  );
  try {
    const headers = { cookie: await sessionCookie(stack.config, 1), 'content-type': 'application/json' };
    const account = google.account('bench@example.com');
    google.state.consentAs = account.email;
    fillInbox(account, 500);

    // A second message in every tenth thread, and the user's own questions waiting for an answer.
    const firsts = [...account.messages.values()];
    for (let i = 0; i < 50; i++) {
      const m = firsts[i * 10]!;
      const header = (name: string) => m.headers.find((h) => h.name === name)!.value;
      account.addMessage({
        from: header('From'),
        to: account.email,
        subject: `Re: ${header('Subject')}`,
        text: 'One more thing.',
        threadId: m.threadId,
      });
    }
    for (let i = 0; i < 20; i++)
      account.addMessage({
        from: account.email,
        to: `${PEOPLE[i % PEOPLE.length]!.split(' ')[0]!.toLowerCase()}@example.com`,
        subject: `Question ${i}`,
        text: 'Could you send me the numbers by Friday?',
        labelIds: ['SENT'],
        date: new Date(Date.now() - (3 + i) * 86_400_000),
      });

    const calls0 = google.state.calls.length;
    const t0 = performance.now();
    const done = await connectMail(gateway.url, headers);
    const rowOf = async () =>
      (await service.deps.db.select().from(integrations).where(eq(integrations.id, done.id)))[0]!;
    await until(async () => (await rowOf()).lastSyncedAt !== null, 120_000, 'first sync');
    const first = performance.now() - t0;

    for (let i = 0; i < 5; i++)
      account.addMessage({ from: 'Gus <gus@example.com>', subject: `New ${i}`, text: 'Can we talk?' });
    const before = (await rowOf()).lastSyncedAt!;
    const firstCalls = gmailCalls(google.state.calls, calls0);
    const calls1 = google.state.calls.length;
    const t1 = performance.now();
    await service.deps.db
      .update(integrations)
      .set({ nextSyncAt: new Date(0) })
      .where(eq(integrations.id, done.id));
    await service.reconcilers!.runOnce();
    await until(async () => (await rowOf()).lastSyncedAt! > before, 60_000, 'incremental sync');
    const incremental = performance.now() - t1;
    console.log(
      `  first accounts.sync of 550 messages in 500 threads, 20 sent: ${first.toFixed(0)} ms, ${firstCalls}`,
    );
    console.log(
      `  incremental accounts.sync with 5 new messages: ${incremental.toFixed(0)} ms, ${gmailCalls(google.state.calls, calls1)}`,
    );

    const url = `${gateway.url}/api/assist/emails?timezoneOffset=0`;
    await load('warm-up', url, { headers, connections: 4, seconds: 2 });
    printTable('GET /api/assist/emails, 505 cached messages, through the gateway', [
      await load('1 connection', url, { headers, connections: 1, seconds: 6 }),
      await load('16 connections', url, { headers, connections: 16, seconds: 6 }),
    ]);

    await benchTriage(gateway.url, await sessionCookie(stack.config, 2), google, service.deps.db);
  } finally {
    await gateway.close();
    await stack.stop();
    await google.stop();
  }
}

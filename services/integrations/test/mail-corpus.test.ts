import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, mailMessages } from '../src/db/schema';
import { startIntegrations, type Harness } from './harness';
import { ACCOUNT, CORPUS, deliver, figures, labelledMail, share, triage } from './mail-corpus/corpus';
import { corpusPresent } from '@haven/kit/corpus';

/*
 * "Needs reply" on real mail, with no model and no Gmail category labels: the public messages of
 * ../shared/corpora/mail and the cases written in mail-corpus/own, each labelled by reading it
 * (mail-corpus/labels.json). The rules were tuned on one half (by a hash of the file name); the
 * figures that count are the other half's.
 */

let h: Harness;
beforeAll(async () => {
  h = await startIntegrations();
});
afterAll(async () => {
  await h?.stop();
});

const mail = labelledMail();
const own = mail.filter((m) => m.file.startsWith('own/'));

describe('reply triage on labelled mail', () => {
  it.each(own.map((m) => [m.file, m.label, m] as const))(
    'the written case %s (%s) is triaged as labelled',
    (_file, label, m) => {
      const { parsed, needsReply } = triage(m);
      expect({ needsReply, machine: parsed.machine.length > 0 }).toEqual({
        needsReply: label === 'personal-asks',
        machine: label === 'automated' || label === 'list-newsletter',
      });
    },
  );

  it.runIf(corpusPresent(CORPUS))(
    'synced through the Google stand-in as Gmail holds it: on the held-out half, machines’ mail ≤5%, asks ≥95%, asks-nothing ≤20%, no sync error',
    async () => {
      h.google.state.consentAs = ACCOUNT;
      const account = h.google.account(ACCOUNT);
      const byId = deliver(account, mail);
      const me = h.as();
      const integration = await h.connected(me, 'email');

      const [row] = await h.svc.deps.db
        .select()
        .from(integrations)
        .where(eq(integrations.id, integration.id));
      expect(row!.settings.error).toBeUndefined();
      expect(row!.syncBackoffs).toBe(0);
      const cached = await h.svc.deps.db
        .select({ messageId: mailMessages.messageId, needsReply: mailMessages.needsReply })
        .from(mailMessages)
        .where(eq(mailMessages.integrationId, integration.id));
      // Every message was read and kept: none failed to parse or store.
      expect(cached).toHaveLength(mail.length);

      const results = cached.map((c) => ({ mail: byId.get(c.messageId)!, needsReply: c.needsReply }));
      // The sync decides as the rules do on each message alone (each is its own thread).
      for (const r of results)
        expect([r.mail.file, r.needsReply]).toEqual([r.mail.file, triage(r.mail).needsReply]);

      const f = figures(results.filter((r) => !r.mail.file.startsWith('own/')));
      const machines = share(f, ['list-newsletter', 'automated'], 'held-out');
      const asks = share(f, ['personal-asks'], 'held-out');
      const nothing = share(f, ['personal-asks-nothing'], 'held-out');
      expect(machines.total).toBeGreaterThan(40);
      expect(asks.total).toBeGreaterThan(10);
      expect(nothing.total).toBeGreaterThan(20);
      expect(machines.ratio).toBeLessThanOrEqual(0.05);
      expect(asks.ratio).toBeGreaterThanOrEqual(0.95);
      expect(nothing.ratio).toBeLessThanOrEqual(0.2);
    },
    120_000,
  );
});

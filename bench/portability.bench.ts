import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantService } from '@haven/assistant/service';
import { users } from '@haven/auth/db/schema';
import type { ExportProgress, ImportProgress } from '@haven/contracts/portability';
import { insightsService } from '@haven/insights/service';
import { integrationsService } from '@haven/integrations/service';
import { freePort } from '@haven/kit/net';
import { repoPath } from '@haven/kit/paths';
import { internalHeaders, startTestServices } from '@haven/kit/testing';
import { dayOneZip, evernoteZip, vaultZip, zipEntries } from '../services/portability/test/support/probe-zips';
import { thoughtsService } from '@haven/thoughts/service';

const THOUGHTS = 10_000;
const NOTES = 10_000;
const JOURNAL_ENTRIES = 100_000;
const EVERNOTE_NOTES = 10_000;
/** A real 827 KB Evernote web clip (../shared/corpora/import-real, read in place when it is there). */
const WEB_CLIP = repoPath('../shared/corpora/import-real/enex/yarle/huge-html.enex');
const CONVERSATIONS = 20;
const MESSAGES_EACH = 50;

/** Resident and peak resident memory of a process, in MB, from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** The peak resident memory (MB) of any import sandbox (a child process of `pid`) seen while sampling. */
function sandboxPeaks(pid: number): { stop: () => number } {
  let peak = 0;
  const sample = () => {
    let children: string[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean);
    } catch {
      return;
    }
    for (const child of children) {
      try {
        peak = Math.max(peak, memoryOf(Number(child)).peak);
      } catch {
        // Gone between the listing and the read.
      }
    }
  };
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/**
 * Export and import, with the portability and auth services each in a process of its own (as they
 * run in the distributed stack), so their memory is their own: the peak of the portability process
 * during each transfer, and whether auth's moves at all. The other services run in this process.
 */
export async function benchPortability(): Promise<void> {
  console.log(
    `\nData export and import (${THOUGHTS} thoughts, ${CONVERSATIONS * MESSAGES_EACH} messages; a ${NOTES}-note vault)`,
  );
  if (!process.env.DATABASE_URL) {
    console.log('  skipped: needs DATABASE_URL (the portability and auth processes share the database)');
    return;
  }
  execFileSync(process.execPath, [repoPath('scripts', 'build.mjs')], { stdio: 'ignore' });
  const stack = await startTestServices(
    [thoughtsService, insightsService, assistantService, integrationsService],
    { LOG_LEVEL: 'warn', NODE_ENV: 'production' },
  );
  const children: ChildProcess[] = [];
  async function spawnService(name: 'auth' | 'portability'): Promise<{ url: string; pid: number }> {
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(repoPath('services', name, 'dist'), 'main.js')], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: stack.databaseUrl!,
        REDIS_URL: stack.config.REDIS_URL,
        REDIS_PREFIX: stack.config.REDIS_PREFIX,
        INTERNAL_SECRET: stack.config.INTERNAL_SECRET,
        DATA_ENCRYPTION_KEY: stack.config.DATA_ENCRYPTION_KEY,
        JWT_SECRET: 'j'.repeat(48),
        THOUGHTS_URL: stack.urls().thoughts,
        INSIGHTS_URL: stack.urls().insights,
        ASSISTANT_URL: stack.urls().assistant,
        INTEGRATIONS_URL: stack.urls().integrations,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 300; i++) {
      if (
        await fetch(`${url}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return { url, pid: child.pid! };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${name} never became ready`);
  }
  try {
    const [auth, portability] = [await spawnService('auth'), await spawnService('portability')];
    const newUser = async (name: string) =>
      (
        await stack
          .get('thoughts')
          .deps.db.insert(users)
          .values({ username: name, email: `${name}@example.com`, passwordHash: 'x' })
          .returning()
      )[0]!.id;
    const me = await newUser('bench-export');
    const internal = (service: 'thoughts' | 'assistant', p: string, body: unknown) =>
      fetch(stack.get(service).url + p, {
        method: 'POST',
        headers: {
          ...internalHeaders(stack.config, me, service, 'portability'),
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const day0 = Date.UTC(2024, 0, 1);
    for (let i = 0; i < THOUGHTS; i += 500) {
      const items = Array.from({ length: Math.min(500, THOUGHTS - i) }, (_, k) => {
        const n = i + k;
        const date = new Date(day0 + n * 93 * 60_000);
        return {
          key: `seed-${n}-bench`,
          content: `Thought ${n}: a few lines about the day, plans for tomorrow and something I noticed on the walk home.`,
          date: date.toISOString(),
          localDate: date.toISOString().slice(0, 10),
          category: ['personal', 'professional', 'creative'][n % 3],
          tags: n % 4 === 0 ? ['work', 'planning'] : ['garden'],
          isVoice: false,
        };
      });
      const res = await internal('thoughts', '/internal/import/thoughts', { items });
      if (!res.ok) throw new Error(`seeding thoughts failed: ${res.status}`);
    }
    await internal('assistant', '/internal/import/conversations', {
      items: Array.from({ length: CONVERSATIONS }, (_, c) => ({
        key: `seed-conversation-${c}`,
        title: `Conversation ${c}`,
        createdAt: new Date(day0 + c * 86_400_000).toISOString(),
        messages: Array.from({ length: MESSAGES_EACH }, (_, m) => ({
          type: m % 2 ? 'assistant' : 'user',
          content: `Message ${m} of conversation ${c}: a question about the plan and an answer with a few suggestions.`,
          createdAt: new Date(day0 + c * 86_400_000 + m * 60_000).toISOString(),
        })),
      })),
    });

    const call = (userId: number, p: string, init: RequestInit = {}) =>
      fetch(portability.url + p, {
        ...init,
        headers: {
          ...internalHeaders(stack.config, userId, 'portability', 'gateway'),
          ...(init.headers as Record<string, string>),
        },
      });
    const poll = async <T extends { status: string }>(userId: number, p: string, done: string[]) => {
      for (;;) {
        const state = (await (await call(userId, p)).json()) as T;
        if (done.includes(state.status)) return state;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const timed = async <T>(work: () => Promise<T>) => {
      const before = memoryOf(portability.pid);
      const authBefore = memoryOf(auth.pid).rss;
      const sandboxes = sandboxPeaks(portability.pid);
      const started = performance.now();
      const value = await work();
      const after = memoryOf(portability.pid);
      const sandbox = sandboxes.stop();
      return {
        value,
        s: ((performance.now() - started) / 1000).toFixed(1),
        peak: `${after.peak.toFixed(0)} MB peak (${before.rss.toFixed(0)} MB before)${sandbox ? `, its sandbox ${sandbox.toFixed(0)} MB peak` : ''}`,
        auth: `auth ${authBefore.toFixed(0)} → ${memoryOf(auth.pid).rss.toFixed(0)} MB`,
      };
    };
    const importZip = (userId: number, zip: Buffer) =>
      timed(async () => {
        const started = await call(userId, '/api/account/import', {
          method: 'POST',
          headers: { 'content-type': 'application/zip' },
          body: new Uint8Array(zip),
        });
        const { id } = (await started.json()) as { id: string };
        return poll<ImportProgress>(userId, `/api/account/import/${id}`, ['done', 'failed']);
      });

    const exported = await timed(async () => {
      const { id } = (await (await call(me, '/api/account/export', { method: 'POST' })).json()) as {
        id: string;
      };
      await poll<ExportProgress>(me, `/api/account/export/${id}`, ['ready', 'failed']);
      return Buffer.from(await (await call(me, `/api/account/export/${id}/download`)).arrayBuffer());
    });
    console.log(
      `  export: ${exported.s} s, zip ${(exported.value.length / 2 ** 20).toFixed(1)} MB; portability process ${exported.peak}`,
    );
    const own = await importZip(await newUser('bench-import'), exported.value);
    console.log(
      `  import of that export: ${own.s} s (${own.value.imported} thoughts, ${own.value.conversations} conversations, ${own.value.failed} failed); portability ${own.peak}; ${own.auth}`,
    );
    const notes = await vaultZip(NOTES);
    const fromVault = await importZip(await newUser('bench-vault'), notes);
    console.log(
      `  import of a ${NOTES}-note vault (${(notes.length / 2 ** 20).toFixed(1)} MB zip): ${fromVault.s} s (${fromVault.value.imported} imported, ${fromVault.value.skipped} skipped, format ${fromVault.value.format}); portability ${fromVault.peak}; ${fromVault.auth}`,
    );
    const journal = await dayOneZip(JOURNAL_ENTRIES);
    const fromDayOne = await importZip(await newUser('bench-dayone'), journal);
    console.log(
      `  import of a ${JOURNAL_ENTRIES}-entry Day One journal (${(journal.length / 2 ** 20).toFixed(1)} MB zip): ${fromDayOne.s} s (${fromDayOne.value.imported} imported, ${fromDayOne.value.failed} failed); portability ${fromDayOne.peak}; ${fromDayOne.auth}`,
    );
    const enex = await evernoteZip(EVERNOTE_NOTES);
    const fromEvernote = await importZip(await newUser('bench-evernote'), enex);
    console.log(
      `  import of a ${EVERNOTE_NOTES}-note Evernote file (${(enex.length / 2 ** 20).toFixed(1)} MB zip): ${fromEvernote.s} s (${fromEvernote.value.imported} imported, ${fromEvernote.value.failed} failed); portability ${fromEvernote.peak}`,
    );
    if (existsSync(WEB_CLIP)) {
      const clip = await zipEntries([{ name: 'Web clip.enex', data: readFileSync(WEB_CLIP) }]);
      const fromClip = await importZip(await newUser('bench-webclip'), clip);
      console.log(
        `  import of a real 827 KB Evernote web clip (yarle huge-html.enex): ${fromClip.s} s (${fromClip.value.imported} imported, ${fromClip.value.failed} failed); portability ${fromClip.peak}`,
      );
    } else console.log(`  web clip: skipped (${WEB_CLIP} is not here)`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await stack.stop();
  }
}

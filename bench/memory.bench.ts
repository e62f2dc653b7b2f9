import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { users } from '@haven/auth/db/schema';
import { hashPassword } from '@haven/auth/domain/secrets';
import type { ImportProgress } from '@haven/contracts/portability';
import type { Thought } from '@haven/contracts/thoughts';
import { CITE } from '@haven/assistant/domain/find-entries';
import { repoPath } from '@haven/kit/paths';
import { startEveryService } from '../test/support/stack';
import { askAll, summarise, table, thoughtSources } from '../test/memory/eval';
import type { Question } from '../test/memory/labels';
import { pepysZip, readPepys } from '../test/memory/pepys';

/*
 * The assistant on a real diary: Samuel Pepys' (../shared/corpora/journal), imported as a user
 * would, a zip of daily Markdown notes through the import route; then the labelled questions
 * (test/memory/pepys-questions.json) asked of the no-model assistant. Prints the import's time and
 * recall and precision of the cited entries per kind and half, and on the dev half only, the same
 * for other citation cut-offs (how CITE was chosen).
 */
export async function benchMemory(): Promise<void> {
  const diary = repoPath('..', 'shared', 'corpora', 'journal', 'pepys', 'text');
  if (!existsSync(diary)) {
    console.log(`\nMemory (Pepys): skipped, the diary is not at ${diary}`);
    return;
  }
  const labels = JSON.parse(readFileSync(repoPath('test', 'memory', 'pepys-questions.json'), 'utf8')) as {
    today: string;
    questions: Question[];
  };
  const everything = await startEveryService();
  const { stack } = everything;
  try {
    const [user] = await stack
      .get('auth')
      .deps.db.insert(users)
      .values({ username: 'pepys', email: 'pepys@example.com', passwordHash: await hashPassword('x-pass-x') })
      .returning();
    const userId = user!.id;
    const entries = readPepys(diary);
    const zip = await pepysZip(entries);
    const started = Date.now();
    const port = stack.get('portability').url;
    // Internal tokens are short-lived: each call signs its own.
    const headers = () => stack.headers('portability', userId);
    const res = await fetch(`${port}/api/account/import`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/zip' },
      body: new Uint8Array(zip),
    });
    const { id } = (await res.json()) as { id: string };
    let progress: ImportProgress;
    for (;;) {
      progress = (await (
        await fetch(`${port}/api/account/import/${id}`, { headers: headers() })
      ).json()) as ImportProgress;
      if (progress.status === 'done' || progress.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const importMs = Date.now() - started;
    const all = (await stack.call('thoughts', userId, 'GET', '/api/thoughts/all')).body as Thought[];
    const dayOf = new Map(all.map((t) => [t.id, t.localDate]));
    console.log(
      `\nMemory (Pepys, ${entries.length} entries, ${(zip.length / 1e6).toFixed(1)} MB zip): import ${progress.status} in ${(importMs / 1000).toFixed(1)} s, ${all.length} thoughts on ${new Set(dayOf.values()).size} days`,
    );
    const sources = thoughtSources(stack, userId);
    const t0 = Date.now();
    const scored = await askAll(sources, userId, labels.questions, labels.today, dayOf);
    console.log(
      `${labels.questions.length} questions in ${((Date.now() - t0) / 1000).toFixed(1)} s, no model:\n${table(summarise(scored))}`,
    );
    // How the cut-off was chosen: the dev half only.
    const dev = labels.questions.filter((q) => q.half === 'dev' && q.kind === 'word');
    const chosen = { ...CITE };
    for (const cutOff of [0.3, 0.4, 0.5, 0.55, 0.6, 0.7, 0.8])
      for (const words of [20, 30]) {
        Object.assign(CITE, { cutOff, words });
        const rows = summarise(await askAll(sources, userId, dev, labels.today, dayOf));
        const r = rows[0]!;
        console.log(
          `dev word questions, cut-off ${cutOff}, at most ${words}: recall ${(r.recall * 100).toFixed(1)}%, precision ${(r.precision * 100).toFixed(1)}%`,
        );
      }
    Object.assign(CITE, chosen);
  } finally {
    await everything.stop();
  }
}

if (process.argv[1] && join(process.argv[1]) === join(import.meta.filename)) await benchMemory();

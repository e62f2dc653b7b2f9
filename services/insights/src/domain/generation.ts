import type { InsightRange } from '@haven/contracts/insights';
import type { JobPayload } from '@haven/contracts/jobs';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import { beginGeneration, overduePending, storeOutcome } from '../db/insights.repository';
import { contentContext } from './contexts';
import { aiInsight } from './engine/ai';
import { localInsight } from './engine/local';
import type { InsightContent, PeriodInput } from './engine/types';
import { periodOf } from './periods';
import type { InsightSources } from './sources';

/** The reconciler queues again what has been pending for longer than this, under the same job id. */
const RECONCILE_AFTER_SECONDS = 2 * 60;

/** The worker's side of insights: a queued generation written, failed, or found overdue. */
export function createGeneration(deps: {
  db: Db;
  cipher: FieldCipher;
  sources: InsightSources;
  llm: Llm | null;
  log: Logger;
}) {
  const { db, cipher, sources, llm, log } = deps;

  /**
   * The insight of a period, written by the model when one is configured and the user allows it,
   * by the local engine otherwise or when the model fails.
   */
  async function write(userId: number, input: PeriodInput) {
    let engine: 'ai' | 'basic' = 'basic';
    let content: InsightContent | undefined;
    if (llm && (await sources.includeThoughtContent(userId))) {
      try {
        content = await aiInsight(llm, input);
        engine = 'ai';
      } catch (err) {
        log.warn(
          { err, range: input.range },
          'the model could not write the insight; using the local engine',
        );
      }
    }
    content ??= localInsight(input);
    return { engine, content };
  }

  return {
    /**
     * The worker's part: reads the period's thoughts through the thoughts service, writes the insight
     * with the model when one is configured and the user allows it (falling back to the local engine
     * when the model fails), and stores it encrypted. Idempotent: a superseded or finished request
     * does nothing.
     */
    async generate(job: JobPayload<'insights.generate'>): Promise<void> {
      const period = periodOf(job.range, job.periodStart);
      const key = { userId: job.userId, range: period.range, start: period.start };
      if (!(await beginGeneration(db, key, job.request))) return;
      // The fingerprint is read before the thoughts: a change in between shows as a mismatch later.
      const stats = await sources.stats(job.userId, period);
      const thoughts = await sources.thoughts(job.userId, period);
      if (thoughts.length === 0) {
        await storeOutcome(db, key, job.request, {
          status: 'empty',
          engine: null,
          contentEnc: null,
          sourceCount: 0,
          sourceChangedAt: null,
        });
        return;
      }
      const input = { range: period.range, start: period.start, end: period.end, thoughts };
      const { engine, content } = await write(job.userId, input);
      await storeOutcome(db, key, job.request, {
        status: 'ready',
        engine,
        contentEnc: cipher.encrypt(JSON.stringify(content), contentContext(job.userId)),
        sourceCount: stats.count,
        sourceChangedAt: stats.lastChangedAt ? new Date(stats.lastChangedAt) : null,
      });
    },

    /** Every attempt failed: the insight is stored as failed, so the SPA offers a retry, not a spinner. */
    async failed(job: JobPayload<'insights.generate'>): Promise<void> {
      const period = periodOf(job.range, job.periodStart);
      await storeOutcome(db, { userId: job.userId, range: period.range, start: period.start }, job.request, {
        status: 'failed',
        engine: null,
        contentEnc: cipher.encrypt(
          JSON.stringify({ summary: '', summaryReferences: [], themes: [], suggestions: [] }),
          contentContext(job.userId),
        ),
        sourceCount: null,
        sourceChangedAt: null,
      });
    },

    /** Generations pending for too long: queued again under the same job id (the reconciler's query). */
    async overdue(): Promise<Array<JobPayload<'insights.generate'>>> {
      const rows = await overduePending(db, RECONCILE_AFTER_SECONDS);
      return rows.map((r) => ({
        userId: r.userId,
        range: r.range as InsightRange,
        periodStart: r.periodStart,
        request: r.request,
      }));
    },
  };
}

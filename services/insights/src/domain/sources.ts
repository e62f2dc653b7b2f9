import type { PeriodStats } from '@haven/contracts/internal';
import type { Thought } from '@haven/contracts/thoughts';
import type { Period } from './periods';

/** What the insights domain reads from other services, for one user at a time. */
export interface InsightSources {
  /** Count and latest change of the period's thoughts (the thoughts service). */
  stats(userId: number, period: Period): Promise<PeriodStats>;
  /** The period's thoughts, oldest first (the thoughts service). */
  thoughts(userId: number, period: Period): Promise<Thought[]>;
  /** Whether the user lets thought text reach a model (the auth service's preferences). */
  includeThoughtContent(userId: number): Promise<boolean>;
}

import type { InsightRange, MoodPoint, Suggestion, Theme } from '@haven/contracts/insights';
import type { Thought } from '@haven/contracts/thoughts';

/** The thoughts of one period, oldest first, as the thoughts service answers them. */
export type SourceThought = Pick<Thought, 'id' | 'content' | 'date' | 'localDate' | 'tags' | 'category'>;

/** What an engine writes for a period; every reference is a thought id of that period. */
export interface InsightContent {
  summary: string;
  summaryReferences: number[];
  themes: Theme[];
  suggestions: Suggestion[];
  mood?: MoodPoint[];
}

/** A period as the engines see it. */
export interface PeriodInput {
  range: InsightRange;
  start: string;
  end: string;
  thoughts: SourceThought[];
}

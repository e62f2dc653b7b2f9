import { classifyEntry } from './classify';
import { createThoughtReads } from './thought-reads';
import type { ThoughtsDeps } from './thoughts-deps';
import { createThoughtWrites } from './thought-writes';
import { createTranscription } from './transcription';

/**
 * The thoughts domain: every flow takes the acting user first and touches only that user's rows,
 * so another user's id is simply not found. Writes and their `thought.changed` events go through
 * one unit of work.
 */
export function createThoughts(deps: ThoughtsDeps) {
  const { llm, log } = deps;
  return {
    ...createThoughtReads(deps),
    ...createThoughtWrites(deps),

    /** 'chat' or 'thought': the model when configured, the spec's keyword rule without it or on failure. */
    classify: (text: string) => classifyEntry(text, llm, log),

    /**
     * Fills in the text of a voice thought that arrived as audio only. Idempotent: a thought that is
     * gone, has no audio, or already has text is left alone; so is every thought when no model is
     * configured (the entry keeps its audio, and its empty text says so).
     */
    transcribe: createTranscription(deps),
  };
}
export type Thoughts = ReturnType<typeof createThoughts>;

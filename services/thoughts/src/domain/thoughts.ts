import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import type { DuplicateKeys } from '@haven/kit/portability';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import { classifyEntry } from './classify';
import type { SearchWriter } from './search/writer';
import type { TagSealer } from './tags';
import { createThoughtReads } from './thought-reads';
import { createThoughtWrites } from './thought-writes';
import { createTranscription } from './transcription';

/** What the thoughts domain is built from, once, by the composition root. */
export interface ThoughtsDeps {
  db: Db;
  uow: UnitOfWork;
  cipher: FieldCipher;
  /** Encrypts tags and keeps their blind index (built from the same data key as `cipher`). */
  tags: TagSealer;
  /** Duplicate keys, kept on every save so an import finds what the user has without decrypting. */
  keys: DuplicateKeys;
  /** Keeps each thought's search index (and the user's totals) with every write. */
  search: SearchWriter;
  /** The configured model, or null: voice entries sent as audio only then keep their audio alone. */
  llm: Llm | null;
  log: Logger;
}

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

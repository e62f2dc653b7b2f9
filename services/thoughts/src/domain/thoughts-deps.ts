import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import type { DuplicateKeys } from '@haven/kit/portability';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import type { SearchWriter } from './search/writer';
import type { TagSealer } from './tags';

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

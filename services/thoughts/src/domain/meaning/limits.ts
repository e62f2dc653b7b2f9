/** How much search by meaning embeds, reads and keeps at a time, and how long it waits. */

/** The longest text embedded (a thought's content and tags), in characters: about 2,000 tokens. */
export const MAX_EMBEDDED_CHARS = 8000;

/**
 * The lowest cosine similarity a hit may have. With OpenAI's text-embedding-3 models texts on
 * unrelated subjects score about 0.0–0.2 and paraphrases 0.4 and above; with the stand-in model
 * unrelated texts score 0. Below 0.25 a "hit" is noise that would only push word matches down in
 * the fused ranking. (Models whose unrelated texts score higher, such as nomic-embed-text at
 * 0.3–0.5, let a few more through; the fusion ranks them after the close ones.)
 */
export const MIN_SCORE = 0.25;

/** Candidates taken from the codes before their exact vectors are compared. */
export const CANDIDATES = 200;

/** How often (at most) a search compares the stored version of the user's vectors with its codes. */
export const VERSION_CHECK_MS = 1000;

/** How far back a refresh re-reads vectors, so one committed late with an earlier clock is not missed. */
export const REFRESH_OVERLAP_MS = 5000;

/** Rows read per query when building a user's codes or looking for thoughts to embed. */
export const PAGE = 2000;

/** Model calls the backfill keeps in flight at once. */
export const BACKFILL_CONCURRENCY = 2;

/** How long a worker's model call may take (a batch of 64 texts on a slow local model). */
export const WORKER_TIMEOUT_MS = 60_000;

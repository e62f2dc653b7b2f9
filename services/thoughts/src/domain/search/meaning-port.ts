/**
 * Search by meaning, as the search domain uses it (the embeddings side implements it). Null in the
 * search domain's dependencies when no embeddings model is configured.
 */
export interface MeaningSearch {
  /** ids of the user's thoughts most alike `text`, best first; throws when the model does not answer */
  search(userId: number, text: string, limit: number): Promise<Array<{ id: number; score: number }>>;
  /** thoughts most like a stored thought, or null when it has no vector (yet) */
  related(
    userId: number,
    thoughtId: number,
    limit: number,
  ): Promise<Array<{ id: number; score: number }> | null>;
}

import type { FindingsSource, SuggestionPrefill, ThoughtFinding } from '@haven/contracts/insights';
import type { z } from 'zod';
import { intentionOf } from './intentions';
import { readThought } from './text';

/**
 * What each thought means to do, as the local engine reads it (the same intentions the basic
 * insights suggest): the first event (a date and time it names) and the first e-mail (a person to
 * write to) of each thought. Thoughts with neither are left out.
 */
export function findingsOf(thoughts: Array<z.infer<typeof FindingsSource>>): ThoughtFinding[] {
  const findings: ThoughtFinding[] = [];
  for (const thought of thoughts) {
    // The engine reads a thought as insights hold it; only its id, text and day matter here.
    const source = {
      ...thought,
      date: `${thought.localDate}T12:00:00.000Z`,
      tags: [],
      category: 'personal' as const,
    };
    const prefill: SuggestionPrefill = {};
    let title: string | undefined;
    for (const sentence of readThought(thought.content).sentences) {
      const found = intentionOf(source, sentence)?.suggestion;
      if (!found?.prefill) continue;
      prefill.calendar ??= found.prefill.calendar;
      prefill.email ??= found.prefill.email;
      title ??= found.title;
      if (prefill.calendar && prefill.email) break;
    }
    if (title) findings.push({ thoughtId: thought.id, title, prefill });
  }
  return findings;
}

import type { Suggestion, Theme } from '@haven/contracts/insights';
import { intentionOf } from './intentions';
import { moodOf } from './mood';
import { clip, readThought, titleCase, type ReadThought, type Sentence } from './text';
import type { InsightContent, PeriodInput, SourceThought } from './types';

/**
 * The local engine: insights without a model, from what the thoughts themselves say. The summary is
 * made of the period's most representative sentences, themes of its recurring tags, names and
 * nouns, suggestions of what the writer said they mean to do. Every item cites its thoughts.
 */

const LIMITS = { day: { summary: 2, themes: 3, suggestions: 3 }, week: { summary: 3, themes: 4, suggestions: 4 }, month: { summary: 3, themes: 5, suggestions: 5 } } as const; // prettier-ignore

interface Read {
  thought: SourceThought;
  read: ReadThought;
}

const WEEKDAY = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });
const weekday = (localDate: string) => WEEKDAY.format(new Date(`${localDate}T12:00:00Z`));

/** How much each content word stands for the period: thoughts it appears in, rarer words not favoured. */
function termWeights(reads: Read[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const { read } of reads) {
    const seen = new Set(read.sentences.flatMap((s) => s.terms));
    for (const term of seen) weights.set(term, (weights.get(term) ?? 0) + 1);
  }
  return weights;
}

/** The two or three sentences that best stand for the period, at most one per thought, in time order. */
function summarise(reads: Read[], limit: number): { summary: string; references: number[] } {
  const weights = termWeights(reads);
  const tags = new Set(reads.flatMap((r) => r.thought.tags.map((t) => t.toLowerCase())));
  const scored = reads.flatMap(({ thought, read }, order) =>
    read.sentences.map((sentence: Sentence) => {
      const unique = new Set(sentence.terms);
      let score = 0;
      for (const term of unique) score += weights.get(term) ?? 0;
      for (const term of unique) if (tags.has(term)) score += 1;
      const words = sentence.words.length;
      // Very short sentences say little; very long ones are diluted.
      const length = words < 4 ? 0.4 : 1 / Math.log2(2 + words / 8);
      return { thought, sentence, order, score: score * length };
    }),
  );
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  const chosen: typeof scored = [];
  for (const candidate of scored) {
    if (chosen.length >= limit) break;
    if (chosen.some((c) => c.thought.id === candidate.thought.id)) continue;
    chosen.push(candidate);
  }
  chosen.sort((a, b) => a.order - b.order);
  return {
    summary: chosen.map((c) => clip(c.sentence.text)).join(' '),
    references: chosen.map((c) => c.thought.id),
  };
}

type Kind = 'personal' | 'professional' | 'creative';
/** Words too general to be a theme of their own (they are what the kinds are called). */
const GENERIC = new Set([
  'work',
  'job',
  'life',
  'personal',
  'creative',
  'idea',
  'ideas',
  'thought',
  'thoughts',
  'today',
  'people',
  'person',
]);
const KIND_TITLE: Record<Kind, string> = {
  personal: 'Personal life',
  professional: 'Work',
  creative: 'Creative ideas',
};

function kindOf(thoughts: SourceThought[]): Kind {
  const counts: Record<Kind, number> = { personal: 0, professional: 0, creative: 0 };
  for (const t of thoughts) {
    if (t.category === 'professional' || t.category === 'habits') counts.professional++;
    else if (t.category === 'creative' || t.category === 'mental_health') counts.creative++;
    else counts.personal++;
  }
  return (Object.entries(counts) as Array<[Kind, number]>).sort((a, b) => b[1] - a[1])[0]![0];
}

/** Recurring tags, names and nouns, each titled so the SPA groups it by kind, each citing its thoughts. */
function themesOf(reads: Read[], limit: number): Theme[] {
  const candidates = new Map<string, { label: string; weight: number; ids: Set<number> }>();
  const add = (key: string, label: string, weight: number, id: number) => {
    const entry = candidates.get(key) ?? { label, weight, ids: new Set<number>() };
    entry.weight = Math.max(entry.weight, weight);
    entry.ids.add(id);
    candidates.set(key, entry);
  };
  for (const { thought, read } of reads) {
    for (const tag of thought.tags) add(tag.toLowerCase(), tag, 1.5, thought.id);
    for (const name of read.names) add(name.toLowerCase(), name, 1.3, thought.id);
    for (const noun of read.nouns) add(noun, noun, 1, thought.id);
  }
  const few = reads.length <= 2;
  const byId = new Map(reads.map((r) => [r.thought.id, r]));
  const order = new Map(reads.map((r, i) => [r.thought.id, i]));
  const ranked = [...candidates.entries()]
    .filter(([key, c]) => !GENERIC.has(key) && (few || c.ids.size >= 2))
    .sort(([, a], [, b]) => b.ids.size * b.weight - a.ids.size * a.weight || a.label.localeCompare(b.label));
  const chosen: Array<{ label: string; weight: number; ids: Set<number> }> = [];
  for (const [, c] of ranked) {
    if (chosen.length >= limit) break;
    // A plain noun found only where a chosen theme already is adds nothing ("plan" of "launch plan").
    const covered = chosen.some((t) => [...c.ids].every((id) => t.ids.has(id)));
    if (c.weight === 1 && covered) continue;
    chosen.push(c);
  }
  return chosen.map((c) => {
    const ids = [...c.ids].sort((a, b) => order.get(a)! - order.get(b)!);
    const thoughts = ids.map((id) => byId.get(id)!.thought);
    const kind = kindOf(thoughts);
    const days = [...new Set(thoughts.map((t) => `${weekday(t.localDate)} ${Number(t.localDate.slice(8))}`))];
    const example = byId
      .get(ids[0]!)!
      .read.sentences.find((s) => s.text.toLowerCase().includes(c.label.toLowerCase()))?.text;
    const count = ids.length === 1 ? 'one thought' : `${ids.length} thoughts`;
    return {
      title: `${KIND_TITLE[kind]}: ${/^\p{Lu}/u.test(c.label) ? c.label : titleCase(c.label)}`,
      description: `Came up in ${count} (${days.join(', ')}).${example ? ` “${clip(example, 140)}”` : ''}`,
      references: ids,
    };
  });
}

/** What the writer said they mean to do: the most recent distinct intentions, in time order. */
function suggestionsOf(
  reads: Read[],
  themes: Theme[],
  limit: number,
  range: PeriodInput['range'],
): Suggestion[] {
  const picked: Suggestion[] = [];
  const titles = new Set<string>();
  // Newest first, stopping once enough are found: recent intentions matter most.
  for (let i = reads.length - 1; i >= 0 && picked.length < limit; i--) {
    const { thought, read } = reads[i]!;
    for (let j = read.sentences.length - 1; j >= 0 && picked.length < limit; j--) {
      const intention = intentionOf(thought, read.sentences[j]!);
      if (!intention) continue;
      const key = intention.suggestion.title.toLowerCase();
      if (titles.has(key)) continue;
      titles.add(key);
      picked.push(intention.suggestion);
    }
  }
  picked.reverse();
  if (picked.length === 0 && range !== 'day') {
    const recurring = themes.find((t) => t.references.length >= 2);
    if (recurring) {
      const subject = recurring.title.replace(/^[^:]+:\s*/, '');
      picked.push({
        title: `Plan for ${subject}`,
        description: `It came up in ${recurring.references.length} thoughts this ${range}; set aside time for it.`,
        references: recurring.references,
      });
    }
  }
  return picked;
}

/** Generates the insight of a period from its thoughts (oldest first), without a model. */
export function localInsight(period: PeriodInput): InsightContent {
  const limits = LIMITS[period.range];
  const reads = period.thoughts.map((thought) => ({ thought, read: readThought(thought.content) }));
  const { summary, references } = summarise(reads, limits.summary);
  const themes = themesOf(reads, limits.themes);
  return {
    summary,
    summaryReferences: references,
    themes,
    suggestions: suggestionsOf(reads, themes, limits.suggestions, period.range),
    ...(period.range === 'day' ? {} : { mood: moodOf(period) }),
  };
}

import { z } from 'zod';
import { SuggestionPrefill, type Suggestion, type Theme } from '@haven/contracts/insights';
import type { Llm } from '@haven/kit/llm';
import { moodOf } from './mood';
import type { InsightContent, PeriodInput } from './types';

/** Thoughts are cited by labels the prompt gives them (#1, #2…), never by database ids. */
const Label = z.string().regex(/^#?\d{1,9}$/);
const Item = z.object({
  title: z.string().min(1).max(200),
  description: z.string().max(1000),
  references: z.array(Label).max(50),
});
/** The structured answer the model must give. */
export const ModelInsight = z.object({
  summary: z.string().min(1).max(2000),
  summaryReferences: z.array(Label).max(50),
  themes: z.array(Item).max(8),
  suggestions: z.array(Item.extend({ prefill: SuggestionPrefill.optional() })).max(8),
});
export type ModelInsight = z.infer<typeof ModelInsight>;

const SYSTEM = `You write short, warm, practical insights for a private journaling app, from the user's own thoughts of one period.
Cite the thoughts each statement comes from by their labels (#1, #2…) only; never invent a label.
- summary: two or three sentences about the period, with summaryReferences.
- themes: up to five recurring themes. Start each title with one of "Personal:", "Work:", "Creative:" or "Other:" followed by a few words, and give a one-sentence description.
- suggestions: up to four concrete next steps drawn from what the user wrote. Say "Schedule" or "Meet" in a title for something to put in a calendar and "Email" for something to write to someone. Where a thought names a date and time, you may add prefill.calendar {title, start {date yyyy-MM-dd, time HH:mm}, end}; for an e-mail prefill.email {to, subject, body}.
Write in the second person. Do not give medical or legal advice.`;

const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });

/** The prompt's view of the period: each thought under its label, with its day, category and tags. */
export function promptOf(period: PeriodInput): string {
  const lines = period.thoughts.map((t, i) => {
    const day = `${weekday.format(new Date(`${t.localDate}T12:00:00Z`))} ${t.localDate}`;
    const tags = t.tags.length ? `; tags: ${t.tags.join(', ')}` : '';
    return `#${i + 1} (${day}, ${t.category}${tags}): ${t.content}`;
  });
  return `Period: ${period.range} from ${period.start} to ${period.end}.\nThoughts:\n${lines.join('\n')}`;
}

/**
 * Maps the model's labels back to thought ids. A label the prompt did not give is dropped (the model
 * cannot reach any other thought, of this user or another); an item left citing nothing is dropped,
 * except the summary.
 */
export function resolveLabels(answer: ModelInsight, period: PeriodInput): InsightContent {
  const ids = (labels: string[]) => {
    const out: number[] = [];
    for (const label of labels) {
      const id = period.thoughts[Number(label.replace('#', '')) - 1]?.id;
      if (id !== undefined && !out.includes(id)) out.push(id);
    }
    return out;
  };
  const themes: Theme[] = answer.themes
    .map((t) => ({ title: t.title, description: t.description, references: ids(t.references) }))
    .filter((t) => t.references.length > 0);
  const suggestions: Suggestion[] = answer.suggestions
    .map((s) => ({
      title: s.title,
      description: s.description,
      references: ids(s.references),
      ...(s.prefill ? { prefill: withAddressOnly(s.prefill) } : {}),
    }))
    .filter((s) => s.references.length > 0);
  return {
    summary: answer.summary,
    summaryReferences: ids(answer.summaryReferences),
    themes,
    suggestions,
    ...(period.range === 'day' ? {} : { mood: moodOf(period) }),
  };
}

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A model may put a first name in To: only an address stays there, a name becomes the greeting's `name`. */
function withAddressOnly(prefill: SuggestionPrefill): SuggestionPrefill {
  const email = prefill.email;
  if (!email?.to || EMAIL_ADDRESS.test(email.to.trim())) return prefill;
  const { to, ...rest } = email;
  return { ...prefill, email: { ...rest, name: rest.name ?? to.trim() } };
}

/** The insight of a period written by the model (rejects when the server fails or answers badly twice). */
export async function aiInsight(llm: Llm, period: PeriodInput): Promise<InsightContent> {
  const answer = await llm.json({
    name: 'insight',
    system: SYSTEM,
    user: promptOf(period),
    schema: ModelInsight,
    timeoutMs: 60_000,
  });
  return resolveLabels(answer, period);
}

import { z } from 'zod';
import { contentWords, findEntries, type FoundEntry } from './find-entries';
import { tool, type Offer, type ToolContext } from './tool-kit';

/* The tools that read the user's own thoughts (offered only when the user shares them). */

const SearchArgs = z.object({
  query: z.string().min(1).max(200),
  limit: z.number().int().min(1).max(30).optional(),
  start: z.iso.date().optional(),
  end: z.iso.date().optional(),
});
const DayArgs = z.object({ start: z.iso.date(), end: z.iso.date().optional() });

const sharesThoughts = (o: Offer) => o.thoughts;

/** Found entries as a tool gives them: id, citation, day, and a short excerpt as `content`. */
const entryItems = (entries: FoundEntry[], numbers: number[]) =>
  entries.map((e, i) => ({
    id: e.thought.id,
    cite: `#${numbers[i]}`,
    date: e.thought.localDate,
    category: e.thought.category,
    tags: e.thought.tags,
    content: e.excerpt,
  }));

async function searchThoughts(a: z.infer<typeof SearchArgs>, ctx: ToolContext): Promise<string> {
  const range = a.start ? { start: a.start, end: a.end ?? a.start } : null;
  const words = contentWords(a.query);
  const found = await findEntries(
    ctx.sources.search,
    ctx.input.userId,
    words.length ? words : a.query.split(/\s+/).slice(0, 6),
    range,
    { max: a.limit ?? 20 },
  );
  const numbers = ctx.cite(found);
  return ctx.read(entryItems(found, numbers), (t) => ({
    text: found.find((e) => e.thought.id === t.id)!.thought.content,
  }));
}

async function thoughtsOn(a: z.infer<typeof DayArgs>, ctx: ToolContext): Promise<string> {
  const found = await ctx.sources.range(ctx.input.userId, a.start, a.end ?? a.start);
  const entries = found.map((thought) => ({ thought, excerpt: thought.content, score: 1 }));
  const numbers = ctx.cite(entries);
  return ctx.read(entryItems(entries, numbers), (t) => ({ text: t.content }));
}

export const SEARCH_THOUGHTS = tool({
  description:
    "Searches the user's journal thoughts by words (content or tags), optionally within a period of the user's days (start, end: yyyy-MM-dd). Answers the best-ranked entries, each with its day, a short excerpt and a citation (#n) to write in the answer.",
  source: 'thoughts',
  offered: sharesThoughts,
  parameters: SearchArgs,
  run: searchThoughts,
});

export const THOUGHTS_ON = tool({
  description:
    "The user's thoughts of one day, or of a range of days (yyyy-MM-dd, the user's days), oldest first, each with a citation (#n) to write in the answer.",
  source: 'thoughts',
  offered: sharesThoughts,
  parameters: DayArgs,
  run: thoughtsOn,
});

import type { Insight } from '@haven/contracts/insights';

const RANGE_TITLE = { day: 'Daily', week: 'Weekly', month: 'Monthly' } as const;

/** An insight as a Notion page: its period in the title, then the summary, themes and suggestions. */
export function insightPage(insight: Insight): { title: string; content: string } {
  const period =
    insight.periodStart === insight.periodEnd
      ? insight.periodStart
      : `${insight.periodStart} to ${insight.periodEnd}`;
  const list = (heading: string, items: Insight['themes']) =>
    items.length ? [heading, ...items.map((i) => `• ${i.title}: ${i.description}`)].join('\n') : '';
  return {
    title: `${RANGE_TITLE[insight.range]} insight, ${period}`,
    content: [insight.summary, list('Themes', insight.themes), list('Suggestions', insight.suggestions)]
      .filter(Boolean)
      .join('\n\n'),
  };
}

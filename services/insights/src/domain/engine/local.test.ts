import { describe, expect, it } from 'vitest';
import { localInsight } from './local';
import type { SourceThought } from './types';

const t = (
  id: number,
  day: string,
  content: string,
  category: SourceThought['category'] = 'personal',
  tags: string[] = [],
): SourceThought => ({
  id,
  content,
  date: `${day}T18:00:00.000Z`,
  localDate: day,
  tags,
  category,
});

/** A realistic week of a journal, Monday 3 to Sunday 9 March 2025. */
const WEEK = [
  t(
    11,
    '2025-03-03',
    'Long day at work. The launch plan is slipping and I feel anxious about the budget review with Anna.',
    'professional',
    ['work', 'launch'],
  ),
  t(
    12,
    '2025-03-04',
    'Went for a run by the river before breakfast. Felt calm and clear afterwards.',
    'personal',
    ['health'],
  ),
  t(13, '2025-03-05', 'I need to email Sarah the summary of the launch plan tomorrow.', 'professional', [
    'launch',
  ]),
  t(14, '2025-03-06', 'Meet Tom on Tuesday at 3pm to talk about the garden design.', 'personal'),
  t(
    15,
    '2025-03-07',
    'Idea: a short story about a lighthouse keeper who collects letters. Could be the start of something.',
    'creative',
    ['writing'],
  ),
  t(
    16,
    '2025-03-08',
    'Budget review with Anna went better than expected. The launch is back on track and the team is relieved.',
    'professional',
    ['work', 'launch'],
  ),
  t(
    17,
    '2025-03-09',
    'Quiet Sunday. Called mum, she sounded happy. I should book the dentist appointment for next Friday morning.',
    'personal',
    ['family'],
  ),
];
const week = () => localInsight({ range: 'week', start: '2025-03-03', end: '2025-03-09', thoughts: WEEK });
const ids = new Set(WEEK.map((w) => w.id));

describe('the local engine', () => {
  it('cites only thoughts of the period, in every part', () => {
    const insight = week();
    const cited = [
      ...insight.summaryReferences,
      ...insight.themes.flatMap((x) => x.references),
      ...insight.suggestions.flatMap((x) => x.references),
    ];
    expect(cited.length).toBeGreaterThan(5);
    for (const id of cited) expect(ids.has(id as number)).toBe(true);
    for (const item of [...insight.themes, ...insight.suggestions])
      expect(item.references.length).toBeGreaterThan(0);
  });

  it('summarises with sentences taken from the thoughts, each cited, scored rather than first', () => {
    const insight = week();
    const sentences = insight.summary.split(/(?<=[.!?])\s+/);
    expect(sentences.length).toBeGreaterThanOrEqual(2);
    expect(sentences.length).toBeLessThanOrEqual(3);
    for (const sentence of sentences) {
      const source = WEEK.find((w) => w.content.includes(sentence.replace(/…$/, '')));
      expect(source, sentence).toBeDefined();
      expect(insight.summaryReferences).toContain(source!.id);
    }
    // The recurring launch/budget story stands for the week, not Monday's first words.
    expect(insight.summary).not.toContain('Long day at work.');
    expect(insight.summary).toMatch(/launch|budget/i);
  });

  it('finds recurring themes, titled so the spec’s grouping places them', () => {
    const insight = week();
    const launch = insight.themes.find((x) => /launch/i.test(x.title));
    expect(launch).toMatchObject({ title: 'Work: Launch', references: [11, 13, 16] });
    expect(insight.themes.find((x) => /Anna/.test(x.title))?.references).toEqual([11, 16]);
    for (const theme of insight.themes) expect(theme.title).toMatch(/^(Work|Personal life|Creative ideas): /);
  });

  it('turns intentions into suggestions with the right button words and prefilled dialogs', () => {
    const { suggestions } = week();
    const email = suggestions.find((s) => s.references[0] === 13)!;
    expect(email.title).toBe('Email Sarah the summary of the launch plan');
    expect(email.prefill?.email).toEqual({
      name: 'Sarah',
      subject: 'The summary of the launch plan',
      body: "Hi Sarah,\n\nI'm following up about the summary of the launch plan.\n\nBest regards,",
    });
    expect(email.prefill?.email?.body).toMatch(/^Hi Sarah,/);
    expect(email.prefill?.calendar).toBeUndefined();

    const meeting = suggestions.find((s) => s.references[0] === 14)!;
    expect(meeting.title).toMatch(/^Meet Tom/);
    expect(meeting.prefill?.calendar).toEqual({
      title: 'Meet Tom to talk about the garden design',
      start: { date: '2025-03-11', time: '15:00' },
      end: { date: '2025-03-11', time: '16:00' },
    });

    const dentist = suggestions.find((s) => s.references[0] === 17)!;
    expect(dentist.title).toBe('Book the dentist appointment');
    // "next Friday morning": that Friday, at the usual hour of a morning, not the evening default.
    expect(dentist.prefill?.calendar?.start).toEqual({ date: '2025-03-14', time: '09:00' });
    expect(dentist.prefill?.calendar?.end).toEqual({ date: '2025-03-14', time: '10:00' });
    // Nothing suggested from a thought that intends nothing.
    expect(suggestions.some((s) => s.references.includes(12))).toBe(false);
  });

  it('draws the week’s mood day by day, null where nothing was written', () => {
    const { mood } = week();
    expect(mood?.map((m) => m.date)).toEqual([
      '2025-03-03',
      '2025-03-04',
      '2025-03-05',
      '2025-03-06',
      '2025-03-07',
      '2025-03-08',
      '2025-03-09',
    ]);
    expect(mood?.find((m) => m.date === '2025-03-04')!.score).toBeGreaterThan(0);
    const month = localInsight({
      range: 'month',
      start: '2025-03-01',
      end: '2025-03-31',
      thoughts: WEEK,
    }).mood!;
    expect(month).toHaveLength(31);
    expect(month[0]).toEqual({ date: '2025-03-01', score: null, count: 0 });
  });

  it('gives one or two thoughts an honest, short insight', () => {
    const one = localInsight({ range: 'day', start: '2025-03-04', end: '2025-03-04', thoughts: [WEEK[1]!] });
    expect(one.summary).toContain('Went for a run by the river before breakfast.');
    expect(one.summaryReferences).toEqual([12]);
    expect(one.mood).toBeUndefined();
    expect(one.themes.every((x) => x.references.every((r) => r === 12))).toBe(true);
  });
});

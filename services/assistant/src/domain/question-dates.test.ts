import { describe, expect, it } from 'vitest';
import { questionDates } from './question-dates';

// Friday 27 November 2026, the user's today.
const TODAY = '2026-11-27';

const CASES: Array<[question: string, start: string | null, end?: string, rest?: string]> = [
  ['What did I write about Tom this week?', '2026-11-23', '2026-11-29', 'What did I write about Tom ?'],
  ['What did I write last week?', '2026-11-16', '2026-11-22'],
  ['What happened next week?', '2026-11-30', '2026-12-06'],
  ['What did I do last month?', '2026-10-01', '2026-10-31'],
  ['Anything this month?', '2026-11-01', '2026-11-30'],
  ['What did I write in March?', '2026-03-01', '2026-03-31', 'What did I write ?'],
  ['What did I write in December?', '2025-12-01', '2025-12-31'],
  ['What did I write in November?', '2026-11-01', '2026-11-30'],
  ['How was last March?', '2026-03-01', '2026-03-31'],
  ['What did I write in March 1661?', '1661-03-01', '1661-03-31'],
  ['What did I write in February 1664?', '1664-02-01', '1664-02-29'],
  ['What did I write in February 1665?', '1665-02-01', '1665-02-28'],
  ['Where did I go in 1665?', '1665-01-01', '1665-12-31', 'Where did I go ?'],
  ['What did I write yesterday?', '2026-11-26', '2026-11-26'],
  ['What did I write today?', '2026-11-27', '2026-11-27'],
  ['What did I do on 2 September 1666?', '1666-09-02', '1666-09-02', 'What did I do on ?'],
  ['What did I do on the 2nd of September 1666?', '1666-09-02', '1666-09-02'],
  ['What did I do on September 2, 1666?', '1666-09-02', '1666-09-02'],
  ['What happened on 1666-09-02?', '1666-09-02', '1666-09-02'],
  ['What happened in the week after 25 December 1662?', '1662-12-26', '1663-01-01', 'What happened ?'],
  ['What did I do the week after 2 September 1666?', '1666-09-03', '1666-09-09'],
  ['And the week before 1 January 1661?', '1660-12-25', '1660-12-31'],
  ['The day after 5 May 1665', '1665-05-06', '1665-05-06'],
  ['What did I write last Tuesday?', '2026-11-24', '2026-11-24'],
  ['What did I write three days ago?', '2026-11-24', '2026-11-24'],
  ['What did I write in the last 3 days?', '2026-11-25', '2026-11-27'],
  ['What did I do last year?', '2025-01-01', '2025-12-31'],
  ['Tell me about the plague', null, undefined, 'Tell me about the plague'],
  ['May I see what I wrote about the fire?', null],
  ['When did I see Hamlet?', null],
  ['What did I do in Spring Garden?', null],
  ['What did I write between 1 and 5 March 1666?', '1666-03-01', '1666-03-05'],
  ['What did I write on 4 July?', '2026-07-04', '2026-07-04'],
  ['What did I write on 28 December?', '2025-12-28', '2025-12-28'],
  ['What did I write on my birthday last year?', null],
  ['What did I write on Monday?', '2026-11-23', '2026-11-23'],
  ['What is on next Monday?', '2026-11-30', '2026-11-30'],
  ['What did I do in September last year?', '2025-09-01', '2025-09-30', 'What did I do ?'],
  ['What did I do last weekend?', '2026-11-21', '2026-11-22'],
  ['What did I do this weekend?', '2026-11-28', '2026-11-29'],
  ['What did I do in the summer of 1665?', '1665-06-01', '1665-08-31', 'What did I do ?'],
  ['What did I do last summer?', '2026-06-01', '2026-08-31'],
  ['What did I do in the winter of 1665?', '1665-12-01', '1666-02-28'],
  ['What did I write at Christmas 1662?', '1662-12-25', '1662-12-25'],
  ['What did I write on Christmas Day, 25 December 1665?', '1665-12-25', '1665-12-25'],
  ['What did I write on New Year’s Day?', '2026-01-01', '2026-01-01'],
  ['What happened in the first week of March 1666?', '1666-03-01', '1666-03-07', 'What happened ?'],
  ['What happened in the last week of February 1664?', '1664-02-23', '1664-02-29'],
  ['What did I do the day before yesterday?', '2026-11-25', '2026-11-25'],
  ['What did I write about the fire last September?', '2026-09-01', '2026-09-30'],
  ['What did I write from 2 September to 9 September 1666?', '1666-09-02', '1666-09-09'],
];

describe('questionDates', () => {
  it.each(CASES)('%s', (question, start, end, rest) => {
    const found = questionDates(question, TODAY);
    if (start === null) expect(found.range).toBeNull();
    else expect(found.range).toEqual({ start, end });
    if (rest !== undefined) expect(found.rest).toBe(rest);
  });

  it('says a birthday is unknown when it is, and reads it when known', () => {
    expect(questionDates('What did I write on my birthday last year?', TODAY)).toMatchObject({
      range: null,
      unknown: 'birthday',
    });
    expect(
      questionDates('What did I write on my birthday last year?', TODAY, { birthday: '03-14' }).range,
    ).toEqual({ start: '2025-03-14', end: '2025-03-14' });
    expect(questionDates('What did I do on my birthday?', TODAY, { birthday: '12-01' }).range).toEqual({
      start: '2025-12-01',
      end: '2025-12-01',
    });
  });

  it('reads curly apostrophes as straight ones', () => {
    expect(questionDates('What’s in last week?', TODAY).rest).toBe("What's ?");
  });
});

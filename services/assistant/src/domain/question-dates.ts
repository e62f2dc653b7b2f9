import { findPeriod, type KnownDates } from './question-periods';
import type { DayRange } from './question-days';

/*
 * The period a question is about, as a range of the user's days: "this week" is Monday to Sunday
 * (the insights views' week), "in March" the whole of the latest March, "the week after 2 September
 * 1666" the seven days after that day, not after today. Pure: the user's today comes in. The periods
 * it knows are the table in question-periods.ts; the calendar arithmetic is in question-days.ts.
 */

export type { DayRange, KnownDates };

export interface QuestionDates {
  /** The period the question names, or null when it names none. */
  range: DayRange | null;
  /** The question with the words naming the period taken out (what is left to search for). */
  rest: string;
  /** A period the question names that cannot be known, such as the user's birthday. */
  unknown?: 'birthday';
}

/**
 * The period `question` names, in the user's days (`today` is the user's today, yyyy-MM-dd), and
 * the question without it.
 */
export function questionDates(question: string, today: string, known: KnownDates = {}): QuestionDates {
  const text = question.replace(/[\u2018\u2019]/g, "'");
  const found = findPeriod(text, today, known);
  if (found === 'birthday')
    return {
      range: null,
      rest: text.replace(/\b(?:on\s+|for\s+)?my\s+birthday\b/i, ' '),
      unknown: 'birthday',
    };
  if (!found) return { range: null, rest: text };
  return {
    range: found.range,
    rest: `${text.slice(0, found.index)} ${text.slice(found.index + found.length)}`
      .replace(/\s+/g, ' ')
      .trim(),
  };
}

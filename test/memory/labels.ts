import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPepys, type DiaryEntry } from './pepys';

/*
 * The Pepys questions and how their expected entries are derived from the diary's text (run with
 * `npx tsx test/memory/labels.ts && npx prettier --write test/memory/pepys-questions.json`; the derived dates are committed,
 * the corpus is not). A question by word expects every entry holding the word as a whole word (its
 * plural and possessive too, straight and curly apostrophes alike); a question by date, every entry
 * of its period (with a word, those of them holding it); a question by meaning, every entry holding
 * one of the words that say what it means, though the question says none of them.
 * Odd-numbered questions are the dev half, even-numbered ones are held out.
 */

/** "Today" for relative questions: the day after the diary's last entry (1669-05-31). */
export const TODAY = '1669-06-01';

export type Kind = 'word' | 'date' | 'meaning';

interface Spec {
  q: string;
  kind: Kind;
  /** Whole words (regex alternatives) an expected entry holds. */
  words?: string;
  /** The period an expected entry is in. */
  start?: string;
  end?: string;
}

export interface Question {
  n: number;
  q: string;
  kind: Kind;
  half: 'dev' | 'held-out';
  expected: string[];
}

const word = (q: string, words: string): Spec => ({ q, kind: 'word', words });
const date = (q: string, start: string, end = start, words?: string): Spec => ({
  q,
  kind: 'date',
  start,
  end,
  words,
});
const meaning = (q: string, words: string): Spec => ({ q, kind: 'meaning', words });

const WORDS: Spec[] = [
  word('When did I see Hamlet?', 'hamlet'),
  word('What did I write about Macbeth?', 'macbeth'),
  word('When did I see The Tempest?', 'tempest'),
  word('When did I mention Othello?', 'othello'),
  word('When did I drink chocolate?', 'chocolate'),
  word('What did I write about the comet?', 'comet'),
  word('When did I look through a microscope?', 'microscope'),
  word('When was I at Tunbridge?', 'tunbridge'),
  word('When did I go to Epsom?', 'epsom'),
  word('What did I write about Chaucer?', 'chaucer'),
  word('When did I mention Shakespeare?', 'shakespeare'),
  word('When did I eat lobster?', 'lobster'),
  word('What did I write about Mr. Hooke?', 'hooke'),
  word('When did I write about the coronation?', 'coronation'),
  word('When was I at Impington?', 'impington'),
  word('What did I write about Dunkirk?', 'dunkirk'),
  word('When did I play the theorbo?', 'theorbo'),
  word('What did I write about the shoemaker?', 'shoemaker'),
  word('When did I go to Moorfields?', 'moorfields'),
  word('What did I write about my spectacles?', 'spectacles'),
  word('What did I write about Barbary?', 'barbary'),
  word('When did I mention Mr. Boyle?', 'boyle'),
  word('What did I write about Cromwell?', 'cromwell'),
  word('What did I write about Lisbon?', 'lisbon'),
  word('When did I go to Bedlam?', 'bedlam'),
  word('What did I write about Jamaica?', 'jamaica'),
  word('When did I play billiards?', 'billiards?'),
  word('What did I write about the lottery?', 'lottery'),
  word('When did I read Hudibras?', 'hudibras'),
  word('What did I write about the smallpox?', 'smallpox'),
];

const DATES: Spec[] = [
  date('What did I do on 2 September 1666?', '1666-09-02'),
  date('What happened in the week after 25 December 1662?', '1662-12-26', '1663-01-01'),
  date('What did I write in March 1661?', '1661-03-01', '1661-03-31'),
  date('What did I write on 1 January 1660?', '1660-01-01'),
  date('What did I write yesterday?', '1669-05-31'),
  date('What did I write last week?', '1669-05-20', '1669-05-26'),
  date('What did I write last month?', '1669-05-01', '1669-05-31'),
  date('What did I write this week?', '1669-05-27', '1669-06-02'),
  date('What did I write in February 1664?', '1664-02-01', '1664-02-29'),
  date('What did I do on 23 April 1661?', '1661-04-23'),
  date('What happened in the week before 1 June 1665?', '1665-05-25', '1665-05-31'),
  date('What did I write on 29 May 1660?', '1660-05-29'),
  date('What did I write between 1 and 10 July 1667?', '1667-07-01', '1667-07-10'),
  date('What did I write in the week after 2 September 1666?', '1666-09-03', '1666-09-09'),
  date('What did I write in June 1665?', '1665-06-01', '1665-06-30'),
  date('What did I do on 14 October 1660?', '1660-10-14'),
  date('What happened on 13 June 1667?', '1667-06-13'),
  date('What did I write in the last 10 days?', '1669-05-23', '1669-06-01'),
  date('What did I write on Christmas Day, 25 December 1665?', '1665-12-25'),
  date('What did I write in April?', '1669-04-01', '1669-04-30'),
  date('What did I write about the fire in September 1666?', '1666-09-01', '1666-09-30', 'fire'),
  date('What did I write about Deb in November 1668?', '1668-11-01', '1668-11-30', 'deb'),
  date('What did I write about the plague in August 1665?', '1665-08-01', '1665-08-31', 'plague'),
  date('What did I write in December 1662?', '1662-12-01', '1662-12-31'),
  date('What did I write on 5 March 1669?', '1669-03-05'),
  date('What did I write in the fortnight after 1 May 1663?', '1663-05-02', '1663-05-15'),
  date('What did I write about Tangier in January 1663?', '1663-01-01', '1663-01-31', 'tangier'),
  date('What did I write on 31 May 1669?', '1669-05-31'),
  date('What did I write about the Dutch in June 1667?', '1667-06-01', '1667-06-30', 'dutch'),
  date('What did I do on 10 October 1664?', '1664-10-10'),
];

const MEANINGS: Spec[] = [
  meaning('When was there a thunderstorm?', 'thunder|lightning'),
  meaning('When did I go to the dentist?', 'tooth|teeth'),
  meaning('When did I reckon up how rich I had become?', 'find myself worth'),
  meaning('When was I ill on a boat?', 'sea-?sick|sick at sea'),
  meaning('When did I have nightmares?', 'dream|dreamed|dreamt'),
  meaning('When did I have a sore head?', 'headache|head ach(?:e|ing)|my head akes?'),
];

/** Whether `text` holds one of `words` as a whole word (plural and possessive too). */
export const holds = (text: string, words: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${words})(?:s|es|'s)?(?![\\p{L}\\p{N}])`, 'iu').test(
    text.replace(/[\u2018\u2019]/g, "'"),
  );

/** The questions in their numbered order: word, word, date, date, … so each half has each kind. */
function ordered(): Spec[] {
  const out: Spec[] = [];
  const lists = [WORDS, DATES, MEANINGS];
  for (let i = 0; lists.some((l) => l.length > i); i += 2)
    for (const list of lists) out.push(...list.slice(i, i + 2));
  return out;
}

export function deriveQuestions(entries: DiaryEntry[]): Question[] {
  return ordered().map((spec, i) => {
    const expected = entries
      .filter(
        (e) =>
          (!spec.start || (e.date >= spec.start && e.date <= spec.end!)) &&
          (!spec.words || holds(e.text, spec.words)),
      )
      .map((e) => e.date);
    return { n: i + 1, q: spec.q, kind: spec.kind, half: i % 2 === 0 ? 'dev' : 'held-out', expected };
  });
}

if (process.argv[1]?.endsWith('labels.ts')) {
  const entries = readPepys(join(import.meta.dirname, '../../../shared/corpora/journal/pepys/text'));
  const questions = deriveQuestions(entries);
  for (const q of questions) if (q.expected.length === 0) throw new Error(`nothing expected for ${q.q}`);
  writeFileSync(
    join(import.meta.dirname, 'pepys-questions.json'),
    `${JSON.stringify({ today: TODAY, entries: entries.length, questions }, null, 1)}\n`,
  );
  console.log(questions.map((q) => `${q.n} ${q.kind} ${q.half} ${q.expected.length} ${q.q}`).join('\n'));
}

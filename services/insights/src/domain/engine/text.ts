import winkNLP, { type ItemSentence } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { eng as stopwords } from 'stopword';
import { quoteLine } from '@haven/kit/markdown-line';

/**
 * The NLP the local engine stands on: wink-nlp with its English model (tokens, sentences, parts of
 * speech, lemmas, date and time entities), loaded once per process. It reads a month of thoughts in
 * well under a tenth of a second.
 */
const nlp = winkNLP(model);
const its = nlp.its;

const STOP = new Set([
  ...stopwords,
  'today',
  'tomorrow',
  'yesterday',
  'tonight',
  'thing',
  'things',
  'lot',
  'bit',
  'way',
  'day',
  'time',
  'week',
  'feel',
  'feeling',
  'really',
  'just',
  'like',
]);
const CALENDAR_WORDS = new Set([
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]);

/** One sentence of a thought, with what the engine scores it by. */
export interface Sentence {
  text: string;
  /** Lemmas of its content words (nouns, verbs, adjectives, names), lower-case, no stop words. */
  terms: string[];
  /** Lower-case tokens, in order. */
  words: string[];
  /** Parts of speech of its tokens, in order. */
  pos: string[];
}

/** A thought read once: its sentences, names and salient nouns. */
export interface ReadThought {
  sentences: Sentence[];
  /** Names of people, places and organisations (runs of proper nouns), as written. */
  names: string[];
  /** Lemmas of its common nouns worth a theme (no stop words, three letters or more). */
  nouns: string[];
}

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ']);
const WORD = /^[\p{L}][\p{L}\p{N}'’-]*$/u;

/** Reads one thought's text. */
export function readThought(text: string): ReadThought {
  const doc = nlp.readDoc(text);
  const sentences: Sentence[] = [];
  const names: string[] = [];
  const nouns: string[] = [];
  doc.sentences().each((s: ItemSentence) => {
    const words = (s.tokens().out(its.normal as unknown as typeof its.pos) as string[]).map((w) =>
      w.toLowerCase(),
    );
    const pos = s.tokens().out(its.pos) as string[];
    const lemmas = s.tokens().out(its.lemma as unknown as typeof its.pos) as string[];
    const original = s.tokens().out() as string[];
    const terms: string[] = [];
    let run: string[] = [];
    const endRun = () => {
      if (run.length > 0) names.push(run.join(' '));
      run = [];
    };
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      const lemma = (lemmas[i] ?? word).toLowerCase();
      const tag = pos[i]!;
      if (CONTENT_POS.has(tag) && WORD.test(word) && !STOP.has(lemma) && lemma.length >= 3) terms.push(lemma);
      if (tag === 'NOUN' && WORD.test(word) && !STOP.has(lemma) && lemma.length >= 3) nouns.push(lemma);
      // A name is a run of capitalised proper nouns, not the sentence's first word (often a
      // capitalised verb the tagger mistakes) and not a weekday or month.
      const token = original[i]!;
      const isName =
        tag === 'PROPN' &&
        i > 0 &&
        /^\p{Lu}/u.test(token) &&
        !CALENDAR_WORDS.has(word) &&
        !STOP.has(word) &&
        WORD.test(word);
      if (isName) run.push(token);
      else endRun();
    }
    endRun();
    sentences.push({ text: s.out().trim(), terms, words, pos });
  });
  if (sentences.length === 0 && text.trim()) {
    sentences.push({ text: text.trim(), terms: [], words: [], pos: [] });
  }
  return { sentences: sentences.filter((s) => s.text.length > 0), names, nouns };
}

/**
 * Shortens `text` to about `max` characters at a word boundary, on one line without Markdown block
 * markers: insights are rendered as Markdown, where a quoted '# Reading notes' mid-line shows as is.
 */
export function clip(quoted: string, max = 220): string {
  const text = quoteLine(quoted);
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** "Sarah" for "sarah", "Blue Cafe" for "blue cafe". */
export function titleCase(text: string): string {
  return text.replace(
    /(^|\s)(\p{Ll})/gu,
    (_m, space: string, letter: string) => space + letter.toUpperCase(),
  );
}

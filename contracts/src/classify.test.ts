import { describe, expect, it } from 'vitest';
import { classifyByKeywords, classifyByRules, isJournalQuestion, isNoteToSelf } from './classify';

describe('the keyword classifier', () => {
  it.each([
    ['Hey Haven, what is on today?', 'chat'],
    ['please HELP ME plan', 'chat'],
    ['can you remind me', 'chat'],
    ['  ? weather', 'chat'],
    ['I walked to the sea', 'thought'],
    ['Is it going to rain?', 'thought'],
    ['', 'thought'],
    // Notes to self and to-dos are thoughts, even when a spec phrase hides inside them.
    ['Schedule a meeting with Tom on Thursday at 3pm', 'thought'],
    ['Call mum tomorrow', 'thought'],
    ['Remind me to buy milk', 'thought'],
    ['Ask Sam: can you lend me the drill', 'thought'],
    // Questions about what the user wrote go to the assistant.
    ['What did I write about Tom last week?', 'chat'],
    ['When did I last mention the garden?', 'chat'],
  ])('%j is a %s', (text, type) => {
    expect(classifyByKeywords(text)).toBe(type);
  });
});

describe('the rules that decide without a model', () => {
  it.each([
    'Schedule a meeting with Tom on Thursday at 3pm',
    'Call mum tomorrow',
    'Remind me to buy milk',
    "Don't forget to water the plants",
    'remember to renew the passport',
    'Email Tom about the lease on Friday',
    'I need to book the dentist',
    'Buy milk',
    'Pick up the parcel at 5',
    'TODO: fix the bike',
  ])('%j is a note to self, so a thought', (text) => {
    expect(isNoteToSelf(text)).toBe(true);
    expect(classifyByRules(text)).toBe('thought');
  });

  it.each([
    ['What did I write about Tom last week?', 'chat'],
    ['Hey Haven, schedule a meeting with Tom', 'chat'],
    ['? what is on today', 'chat'],
    // Questions and requests for the assistant are not notes; the model decides those.
    ['Call mum tomorrow?', undefined],
    ['Write an e-mail to Tom for me', undefined],
    ['Schedule a meeting with Tom and tell me when I am free', undefined],
    ['Is it going to rain?', undefined],
    ['Did I leave the oven on?', undefined],
    ['I walked to the sea', undefined],
    ['Calling mum made my day', undefined],
  ])('%j: %s', (text, type) => {
    expect(classifyByRules(text)).toBe(type);
  });

  it('tells a question about the journal from other questions', () => {
    expect(isJournalQuestion('How often did I feel tired this month?')).toBe(true);
    expect(isJournalQuestion('What did I write about Tom last week')).toBe(false);
    expect(isJournalQuestion('What time is it?')).toBe(false);
  });
});

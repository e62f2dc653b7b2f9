import { describe, expect, it } from 'vitest';
import { emailPrefill } from './intentions';

describe('the e-mail a thought prefills', () => {
  it('leaves To empty for a first name and reads well (the issue’s own example)', () => {
    expect(emailPrefill('email Sarah with the revised timeline')).toEqual({
      name: 'Sarah',
      subject: 'The revised timeline',
      body: "Hi Sarah,\n\nI'm following up about the revised timeline.\n\nBest regards,",
    });
  });

  it('fills To only with a real address', () => {
    expect(emailPrefill('email ana.lima@example.com about the lease').to).toBe('ana.lima@example.com');
    expect(emailPrefill('email Ana about the lease').to).toBeUndefined();
  });

  it.each([
    [
      'email Sarah the summary of the launch plan',
      'Hi Sarah',
      "I'm following up about the summary of the launch plan.",
    ],
    ['reply to Mark about the budget', 'Hi Mark', "I'm following up about the budget."],
    ['email Tom to confirm the booking', 'Hi Tom', "I'm writing to confirm the booking."],
    ['email Sarah that the meeting moved', 'Hi Sarah', "I'm writing to let you know that the meeting moved."],
    ['email Lea and ask about the invoice', 'Hi Lea', "I'm writing to ask about the invoice."],
    ['send the report to Anna', 'Hi Anna', "I'm following up about the report."],
    ['contact the landlord about the leak', 'Hi there', "I'm following up about the leak."],
    ['reach out to Maria regarding the party', 'Hi Maria', "I'm following up about the party."],
    ['email Sarah', 'Hi Sarah', "I'm following up."],
    ['write to Priya about', 'Hi Priya', "I'm following up."],
  ])('%s', (action, greeting, sentence) => {
    const { body, subject } = emailPrefill(action);
    expect(body).toBe(`${greeting},\n\n${sentence}\n\nBest regards,`);
    expect(subject).toMatch(/^\p{Lu}/u);
  });

  it('never leaves a dangling word before the full stop or a preposition after "about"', () => {
    const actions = [
      'email Sarah with',
      'message Jo about with the plan',
      'email Ben regarding',
      'text Kim back about the keys',
      'send an email to Omar on the contract',
      'mail Noor re: the visa',
      'write an email to the school',
      'email the team',
    ];
    for (const action of actions) {
      const sentence = emailPrefill(action).body.split('\n\n')[1]!;
      expect(sentence, action).toMatch(/^I'm (?:following up|writing to)(?: .*[^\s,])?\.$/);
      expect(sentence, action).not.toMatch(/\babout (?:with|about|to|on|re|regarding)\b/);
      expect(sentence, action).not.toMatch(/\b(?:with|about|to|on|for|regarding)\.$/);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { addressOf, firstNameOf, replySubject, templateReply } from './reply';

describe('a reply, addressed the same on both sides', () => {
  it('takes the address from a header, lower-cased, and nothing from a bare name', () => {
    expect(addressOf('Bob Stone <Bob.Stone@Example.com>')).toBe('bob.stone@example.com');
    expect(addressOf('  cara@example.org ')).toBe('cara@example.org');
    expect(addressOf('"Stone, Bob" <bob@example.com>')).toBe('bob@example.com');
    expect(addressOf('Bob Stone')).toBe('');
  });

  it("answers with one 'Re: '", () => {
    expect(replySubject('Lunch on Friday?')).toBe('Re: Lunch on Friday?');
    expect(replySubject('  RE: Lunch ')).toBe('RE: Lunch');
    expect(replySubject('')).toBe('Re:');
  });

  it('greets by the first name of a display name or an address', () => {
    expect(firstNameOf('bob stone')).toBe('Bob');
    expect(firstNameOf('"Cara" Diaz')).toBe('Cara');
    expect(firstNameOf('jane.doe@example.com')).toBe('Jane');
    expect(firstNameOf('   ')).toBe('there');
  });

  it('writes the template the dialog and the server share', () => {
    expect(templateReply('Bob Stone', 'Lunch on Friday?')).toBe(
      'Hi Bob,\n\nThank you for your email about "Lunch on Friday?". I have read it and will get back to you shortly.\n\nBest regards,',
    );
    expect(templateReply('', ' ')).toMatch(/^Hi there,\n\nThank you for your email\. /);
  });
});

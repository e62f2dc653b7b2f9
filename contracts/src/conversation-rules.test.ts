import { describe, expect, it } from 'vitest';
import { emailDraftIn, mentionsEmail, titleFromText } from './conversation-rules';

describe('conversation titles', () => {
  it('takes the first 30 characters, with an ellipsis only when longer', () => {
    expect(titleFromText('Plan my week')).toBe('Plan my week');
    expect(titleFromText('123456789012345678901234567890')).toBe('123456789012345678901234567890');
    expect(titleFromText('1234567890123456789012345678901')).toBe('123456789012345678901234567890...');
    expect(titleFromText('  spaced\n  out  ')).toBe('spaced out');
    expect(titleFromText('   ')).toBe('New Conversation');
  });
});

describe('badges', () => {
  it('finds the spec’s e-mail words in any case, and no calendar words', () => {
    expect(mentionsEmail(['Check my INBOX'])).toBe(true);
    expect(mentionsEmail(['Set a reminder', 'ok'])).toBe(false);
    expect(mentionsEmail(['Add bcc to the meeting invite'])).toBe(true);
    expect(mentionsEmail(['What did I write yesterday?'])).toBe(false);
  });
});

describe('e-mail drafts in assistant messages', () => {
  const draft =
    'To: sarah@example.com\nSubject: Launch summary\n\nHi Sarah,\n\nHere is the summary of the launch plan we discussed on Monday.\n\nBest,\nAlex';

  it('finds subject, recipient and body in a message that has all three signs', () => {
    expect(emailDraftIn(draft)).toEqual({
      to: 'sarah@example.com',
      subject: 'Launch summary',
      body: 'Hi Sarah,\n\nHere is the summary of the launch plan we discussed on Monday.\n\nBest,\nAlex',
    });
    expect(emailDraftIn(draft.replace('Subject:', 'SUBJECT:'))?.subject).toBe('Launch summary');
  });

  it('ignores messages missing a subject line, a greeting, or length', () => {
    expect(emailDraftIn(draft.replace('Subject: Launch summary\n', ''))).toBeNull();
    expect(emailDraftIn(draft.replace('Hi Sarah', 'Sarah'))).toBeNull();
    expect(emailDraftIn('Subject: x\nHi there, short.')).toBeNull();
    expect(emailDraftIn('Your subject: the weather. Hi! '.repeat(2))).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { CalendarEventDraft } from './calendar';
import { IntegrationSettings, SettingsPatchBody } from './integrations';
import { OutgoingEmail, OutgoingEmailDraft, SendQuery } from './mail';

const messages = (r: { error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

describe('OutgoingEmail', () => {
  it('requires a recipient and a subject with the spec messages', () => {
    expect(messages(OutgoingEmail.safeParse({ to: ' ', subject: '', body: 'Hi' }))).toEqual([
      'Please enter at least one recipient email address',
      'Please enter a subject for your email',
    ]);
    expect(OutgoingEmail.parse({ to: 'a@x.io', subject: 'S', body: 'B' }).priority).toBe('normal');
  });

  it('lets a draft go without recipient', () => {
    expect(OutgoingEmailDraft.safeParse({ to: '', subject: 'S', body: 'B' }).success).toBe(true);
  });
});

describe('SendQuery', () => {
  it('turns draft into a boolean', () => {
    expect(SendQuery.parse({ draft: 'true' })).toEqual({ draft: true });
    expect(SendQuery.parse({})).toEqual({ draft: false });
    expect(SendQuery.safeParse({ draft: 'yes' }).success).toBe(false);
  });
});

describe('CalendarEventDraft', () => {
  const event = {
    title: 'Review',
    start: { date: '2025-01-05', time: '18:00' },
    end: { date: '2025-01-05', time: '19:00' },
  };

  it('defaults the reminder to 30 minutes', () => {
    expect(CalendarEventDraft.parse(event).reminder).toBe(30);
  });

  it('checks title, reminder choices and order', () => {
    expect(messages(CalendarEventDraft.safeParse({ ...event, title: ' ' }))).toEqual([
      'Please enter a title for your event',
    ]);
    expect(CalendarEventDraft.safeParse({ ...event, reminder: 15 }).success).toBe(false);
    expect(
      CalendarEventDraft.safeParse({ ...event, end: { date: '2025-01-05', time: '17:45' } }).success,
    ).toBe(false);
    expect(
      CalendarEventDraft.safeParse({ ...event, start: { date: '2025-01-05', time: '24:00' } }).success,
    ).toBe(false);
  });
});

describe('settings', () => {
  it('fills defaults and never lets a client set the error field', () => {
    expect(IntegrationSettings.parse({})).toEqual({
      autoSync: true,
      notifyOnChanges: true,
      includeFullContent: false,
    });
    const patch = SettingsPatchBody.parse({ settings: { autoSync: false, error: 'x' } });
    expect(patch).toEqual({ settings: { autoSync: false } });
    expect(SettingsPatchBody.safeParse({}).success).toBe(false);
    expect(SettingsPatchBody.safeParse({ contextualRules: 'r'.repeat(20_001) }).success).toBe(false);
  });
});

/**
 * `npm run screenshots [-- name ...]`: starts the whole product (PGlite, local SMTP catcher), signs a
 * user up through the real flow, and saves every screen at 390×844 in light and dark to
 * test-results/screens/, for a person to look at. Not a test.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { startGoogleDouble } from '../test/doubles/google-server';
import { startNotionDouble } from '../test/doubles/notion-server';
import { startSlackDouble } from '../test/doubles/slack-server';
import { codeFrom, linkFrom, startSmtpCatcher } from '../test/doubles/smtp-catcher';
import { FAKE_MICROPHONE_ARGS, launchBrowser, phonePage, startProduct } from '../test/e2e/harness';

const out = path.join(import.meta.dirname, '..', 'test-results', 'screens');
mkdirSync(out, { recursive: true });

const smtp = await startSmtpCatcher();
const google = await startGoogleDouble();
const slack = await startSlackDouble();
const notion = await startNotionDouble();
const product = await startProduct({ SMTP_URL: smtp.url, ...google.env, ...slack.env, ...notion.env });
const browser = await launchBrowser(FAKE_MICROPHONE_ARGS);
const who = { username: 'maya', name: 'Maya', email: 'maya@example.com', password: 'secret-pass' };

// One account, made through the API the way the SPA makes it.
const api = (p: string, body: unknown, cookie = '') =>
  fetch(product.url + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
await api('/api/request-verification', { ...who, isEmailVerified: false });
const verified = await api('/api/verify-email', {
  email: who.email,
  code: codeFrom(await smtp.waitFor(who.email)),
});
const cookie = verified.headers.getSetCookie()[0]!.split(';')[0]!;
await api('/api/forgot-password', { email: who.email });
const resetLink = linkFrom(await smtp.waitFor(who.email, { subject: /Reset/ }), '/reset-password?token=');

// A few thoughts over the last days, so the timeline and search have something to show.
const now = Date.now();
const seed: Array<[number, string, string, string[], boolean?]> = [
  [0, 'Planted tomatoes with Sam. The soil finally feels warm enough.', 'personal', ['garden', 'family']],
  [
    0,
    'Ship the onboarding review before Thursday; ask Lee about the copy.',
    'professional',
    ['work', 'planning'],
  ],
  [0, 'Idea: a short story told entirely through voicemails.', 'creative', ['ideas', 'writing'], true],
  [0, 'I need to book a dentist appointment for Friday morning.', 'personal', ['health']],
  [0, 'I should email Lee the launch notes tomorrow.', 'professional', ['work']],
  [1, 'Slept badly again. Less coffee after 2pm.', 'personal', ['sleep', 'health']],
  [2, 'Great call with the design team. Feeling energised about the roadmap.', 'professional', ['work']],
  [3, 'Long walk by the river; worries felt smaller afterwards.', 'personal', ['health', 'gratitude']],
];
for (const [daysAgo, content, category, tags, isVoice] of seed) {
  const res = await api(
    '/api/thoughts',
    {
      content,
      category,
      tags,
      isVoice: !!isVoice,
      clientDate: new Date(now - daysAgo * 86_400_000).toISOString(),
      timezoneOffset: new Date().getTimezoneOffset(),
    },
    cookie,
  );
  if (!res.ok) throw new Error(`seeding failed: ${res.status}`);
}
// Google mail and calendar connected to the double: a small inbox and two invitations.
const mailbox = google.account(who.email);
google.state.consentAs = who.email;
const HOUR = 3_600_000;
mailbox.addMessage({
  from: 'Lee Park <lee@example.com>',
  subject: 'Launch notes for Thursday',
  html: '<p>Hi Maya,</p><p>Could you send me the launch notes before Thursday? I would like to review the copy with the team.</p><p>Thanks,<br>Lee</p><img src="https://tracker.example/p.gif" alt="">',
  date: new Date(now - 2 * HOUR),
});
mailbox.addMessage({
  from: 'Sam Rivera <sam@example.com>',
  subject: 'Seedlings',
  text: 'The tomato seedlings are ready. Do you want to pick them up on Saturday?',
  date: new Date(now - 5 * HOUR),
});
mailbox.addMessage({
  from: 'Garden Weekly <news@garden.example>',
  subject: 'Ten things to plant in spring',
  text: 'This week: beans, peas and a few herbs that love the sun.',
  headers: { 'List-Unsubscribe': '<mailto:u@garden.example>' },
  date: new Date(now - 9 * HOUR),
});
mailbox.addMessage({
  from: 'Dentist <no-reply@smiles.example>',
  subject: 'Your appointment reminder',
  text: 'See you on Friday at 9:00.',
  date: new Date(now - 30 * HOUR),
});
mailbox.addInvitation({
  summary: 'Onboarding review',
  start: new Date(now + 26 * HOUR),
  location: 'Room 4',
  organizer: 'lee@example.com',
});
mailbox.addInvitation({ summary: 'Garden club meeting', start: new Date(now + 74 * HOUR), minutes: 60 });
for (const type of ['email', 'calendar']) {
  const started = (await (await api(`/api/integrations/google/auth`, { type }, cookie)).json()) as {
    authUrl: string;
  };
  const back = new URL((await fetch(started.authUrl, { redirect: 'manual' })).headers.get('location')!);
  const done = await api(
    '/api/integrations/google/auth-complete',
    { type, code: back.searchParams.get('code'), state: back.searchParams.get('state') },
    cookie,
  );
  if (!done.ok) throw new Error(`connecting ${type} failed: ${done.status}`);
}
// Slack and Notion through their doubles: a mention waiting, a DM, and two pages.
slack.person('U0MAYA', 'maya');
slack.person('U0LEE', 'lee');
slack.channel('C0LAUNCH', 'launch');
slack.state.consentAs = 'U0MAYA';
slack.post('C0LAUNCH', 'U0LEE', '<@U0MAYA> can you look at the onboarding copy before Thursday?');
slack.post(slack.im('U0MAYA', 'U0LEE'), 'U0LEE', 'Coffee after the review?');
notion.state.consentAs = 'ws-maya';
notion.addPage('ws-maya', 'Garden plan', ['Tomatoes along the south fence.']);
notion.addPage('ws-maya', 'Launch notes', ['Ship the onboarding review before Thursday.']);
for (const [provider, type] of [
  ['slack', 'messages'],
  ['notion', 'documents'],
]) {
  const started = (await (await api(`/api/integrations/${provider}/auth`, { type }, cookie)).json()) as {
    authUrl: string;
  };
  const back = (await fetch(started.authUrl, { redirect: 'manual' })).headers.get('location')!;
  await fetch(back, { redirect: 'manual', headers: { cookie } });
}
for (let i = 0; i < 100; i++) {
  const digest = await fetch(`${product.url}/api/assist/emails`, { headers: { cookie } });
  if (((await digest.json()) as { emails: unknown[] }).emails.length === 4) break;
  await new Promise((r) => setTimeout(r, 100));
}

const QUIET_RECOGNITION = `window.SpeechRecognition = window.webkitSpeechRecognition = class extends EventTarget { start() {} stop() {} abort() {} };`;

type Shot = {
  name: string;
  path: string;
  signedIn?: boolean;
  init?: string;
  then?: (page: Page) => Promise<void>;
};
/** Waits for the insight of the day, then opens one of its suggestions' dialogs. */
async function openSuggestion(page: Page, action: 'Add to Calendar' | 'Draft Email') {
  await page.getByText('Generating insights…').waitFor({ state: 'detached', timeout: 20_000 });
  const direct = page.getByRole('button', { name: action }).first();
  if (!(await direct.isVisible())) await page.getByRole('button', { name: 'Take Action' }).first().click();
  await page.getByRole('button', { name: action }).first().click();
  await page.getByRole('dialog').waitFor();
}

const shots: Shot[] = [
  { name: 'welcome', path: '/welcome' },
  { name: 'auth-login', path: '/auth' },
  {
    name: 'auth-login-errors',
    path: '/auth',
    then: (p) => p.getByRole('button', { name: 'Log in', exact: true }).last().click(),
  },
  {
    name: 'auth-register',
    path: '/auth',
    then: (p) => p.getByRole('tab', { name: 'Create account' }).click(),
  },
  { name: 'verify-code', path: `/verify-code?email=${encodeURIComponent('new@example.com')}` },
  { name: 'verify-code-no-email', path: '/verify-code' },
  { name: 'verify-email-success', path: '/verify-email?success=true' },
  { name: 'verify-email-expired', path: '/verify-email?error=true&reason=expired_token' },
  { name: 'verify-email-no-token', path: '/verify-email' },
  { name: 'reset-request', path: '/reset-password' },
  { name: 'reset-new-password', path: new URL(resetLink).pathname + new URL(resetLink).search },
  { name: 'privacy-policy', path: '/privacy-policy' },
  { name: 'debug-date', path: '/debug/date' },
  { name: 'not-found', path: '/no/such/page' },
  { name: 'home', path: '/home', signedIn: true },
  { name: 'settings-privacy', path: '/settings', signedIn: true },
  {
    name: 'settings-notifications',
    path: '/settings',
    signedIn: true,
    then: (p) => p.getByRole('tab', { name: 'Notifications' }).click(),
  },
  {
    name: 'settings-display',
    path: '/settings',
    signedIn: true,
    then: (p) => p.getByRole('tab', { name: 'Display' }).click(),
  },
  { name: 'timeline', path: '/timeline', signedIn: true },
  {
    name: 'timeline-calendar',
    path: '/timeline',
    signedIn: true,
    then: (p) => p.locator('button[aria-expanded="false"]').filter({ hasText: ',' }).first().click(),
  },
  { name: 'timeline-empty-day', path: '/timeline?date=2025-01-05', signedIn: true },
  {
    name: 'edit-thought',
    path: '/timeline',
    signedIn: true,
    then: (p) => p.getByRole('button', { name: /Planted tomatoes/ }).click(),
  },
  {
    name: 'delete-confirm',
    path: '/timeline',
    signedIn: true,
    then: async (p) => {
      await p.getByRole('button', { name: /Planted tomatoes/ }).click();
      await p.getByRole('dialog', { name: 'Edit Thought' }).getByRole('button', { name: 'Delete' }).click();
    },
  },
  {
    name: 'capture-voice',
    path: '/home',
    signedIn: true,
    init: QUIET_RECOGNITION,
    then: (p) => p.getByRole('button', { name: 'Add thought' }).click(),
  },
  {
    name: 'capture-keyboard',
    path: '/home',
    signedIn: true,
    init: QUIET_RECOGNITION,
    then: async (p) => {
      await p.getByRole('button', { name: 'Add thought' }).click();
      await p.getByRole('button', { name: 'Keyboard' }).click();
      await p.getByLabel('Your thought').fill('Can you help me plan the garden for spring?');
      await p.getByRole('button', { name: 'Start Chat' }).waitFor();
    },
  },
  {
    name: 'search',
    path: '/home',
    signedIn: true,
    then: (p) => p.getByRole('button', { name: 'Search' }).click(),
  },
  {
    name: 'insights',
    path: '/home',
    signedIn: true,
    then: (p) => p.getByText('Generating insights…').waitFor({ state: 'detached', timeout: 20_000 }),
  },
  {
    name: 'insights-event-dialog',
    path: '/home',
    signedIn: true,
    then: (p) => openSuggestion(p, 'Add to Calendar'),
  },
  {
    name: 'insights-email-dialog',
    path: '/home',
    signedIn: true,
    then: (p) => openSuggestion(p, 'Draft Email'),
  },
  { name: 'assist', path: '/assist', signedIn: true },
  {
    name: 'assist-email',
    path: '/assist',
    signedIn: true,
    then: async (p) => {
      await p.getByRole('button', { name: /Launch notes for Thursday/ }).click();
      await p.getByRole('dialog').getByTitle('Email body').waitFor();
      await p.getByRole('button', { name: 'Template' }).click();
    },
  },
  {
    name: 'assist-calendar',
    path: '/assist',
    signedIn: true,
    then: async (p) => {
      await p.getByRole('tab', { name: 'Calendar RSVPs' }).click();
      await p.getByText('Onboarding review').waitFor();
      await p.waitForTimeout(700);
    },
  },
  {
    name: 'assist-more',
    path: '/assist',
    signedIn: true,
    then: async (p) => {
      await p.getByRole('tab', { name: 'More Integrations' }).click();
      await p.waitForTimeout(700);
    },
  },
  { name: 'integrations', path: '/integrations', signedIn: true },
  { name: 'integration-detail', path: '/integrations/google/email', signedIn: true },
  {
    name: 'integration-notion-settings',
    path: '/integrations/notion/documents',
    signedIn: true,
    then: (p) => p.getByRole('tab', { name: 'Settings' }).click(),
  },
  {
    name: 'settings-your-data',
    path: '/settings',
    signedIn: true,
    then: (p) => p.getByRole('button', { name: 'Export' }).scrollIntoViewIfNeeded(),
  },
  { name: 'conversations', path: '/conversations', signedIn: true },
  {
    name: 'search-no-match',
    path: '/home',
    signedIn: true,
    then: async (p) => {
      await p.getByRole('button', { name: 'Search' }).click();
      await p.getByRole('searchbox', { name: 'Search thoughts' }).fill('zebra');
    },
  },
];
const only = process.argv.slice(2);

for (const scheme of ['light', 'dark'] as const) {
  for (const shot of shots.filter((s) => only.length === 0 || only.includes(s.name))) {
    const { context, page } = await phonePage(browser, product.url, scheme, { microphone: true });
    if (shot.init) await page.addInitScript(shot.init);
    if (shot.signedIn) {
      const [name, value] = cookie.split('=');
      await context.addCookies([{ name: name!, value: value!, url: product.url }]);
    }
    await page.goto(shot.path);
    await page.waitForLoadState('networkidle');
    try {
      await shot.then?.(page);
    } catch (err) {
      console.warn(`${shot.name}: ${(err as Error).message.split('\n')[0]}`);
    }
    await page.waitForTimeout(300);
    const file = path.join(out, `${shot.name}-${scheme}.png`);
    await page.screenshot({ path: file });
    console.log(file);
    await context.close();
  }
}
// The side panel of the auth screen shows from 768 px.
const wide = await browser.newContext({ baseURL: product.url, viewport: { width: 1024, height: 768 } });
const widePage = await wide.newPage();
await widePage.goto('/auth');
await widePage.waitForLoadState('networkidle');
await widePage.screenshot({ path: path.join(out, 'auth-wide-light.png') });

await browser.close();
await product.stop();
await smtp.stop();
await google.stop();
await slack.stop();
await notion.stop();

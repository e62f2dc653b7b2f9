// The compose stack's restore drill, the API side (scripts/ci-compose.sh runs the rest):
//   node scripts/compose-drill.mjs write STATE   signs up through MailDev, writes a journal (thoughts,
//                                                 audio, tags, a conversation, settings), saves what the
//                                                 API answers, and the password, to STATE
//   node scripts/compose-drill.mjs scribble STATE signs in and writes a thought more (after a backup: a
//                                                 restore --clean must leave it out)
//   node scripts/compose-drill.mjs check STATE   signs in again and fails unless the API answers the same
// env HAVEN_URL (default http://127.0.0.1:8080), MAILDEV_URL (default http://127.0.0.1:1080).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

const base = (process.env.HAVEN_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const maildev = (process.env.MAILDEV_URL ?? 'http://127.0.0.1:1080').replace(/\/$/, '');
let cookie = '';

async function api(method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith('haven_session='));
  if (session) cookie = session.split(';')[0];
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  const type = res.headers.get('content-type') ?? '';
  return type.includes('json') ? res.json() : Buffer.from(await res.arrayBuffer()).toString('base64');
}

async function codeFor(email) {
  for (let i = 0; i < 60; i++) {
    const res = await fetch(`${maildev}/api/email`, { signal: AbortSignal.timeout(5000) });
    const mails = res.ok ? await res.json() : [];
    const mine = mails.filter((m) => (m.to ?? []).some((t) => t.address?.toLowerCase() === email));
    const found = mine.map((m) => `${m.subject ?? ''}\n${m.text ?? ''}`.match(/\b(\d{6})\b/)).find(Boolean);
    if (found) return found[1];
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`no verification mail for ${email}`);
}

/** A short tone as a WAV file (audio the API accepts). */
function wav() {
  const data = Buffer.alloc(8000 * 2);
  for (let i = 0; i < 8000; i++) data.writeInt16LE(Math.round(Math.sin(i / 3) * 8000), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(8000, 24);
  head.writeUInt32LE(16000, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]).toString('base64');
}

async function read() {
  const thoughts = await api('GET', '/api/thoughts/all');
  const voice = thoughts.find((t) => t.hasAudio);
  return {
    user: await api('GET', '/api/user'),
    thoughts,
    audio: voice ? await api('GET', `/api/thoughts/${voice.id}/audio`) : null,
    conversations: await api('GET', '/api/conversations'),
    preferences: await api('GET', '/api/user-preferences'),
  };
}

async function write(file) {
  const tag = randomBytes(4).toString('hex');
  const who = { username: `drill_${tag}`, email: `drill-${tag}@example.test`, password: `pw-${tag}-kept` };
  await api('POST', '/api/request-verification', { ...who, name: 'Restore Drill' });
  await api('POST', '/api/verify-email', { email: who.email, code: await codeFor(who.email) });
  await api('POST', '/api/thoughts', { content: 'Before the backup: the harbour at dawn. #sea' });
  await api('POST', '/api/thoughts', {
    content: 'Said on the way home',
    isVoice: true,
    audioData: `data:audio/wav;base64,${wav()}`,
    tags: ['walk'],
  });
  await api('POST', '/api/conversations', { title: 'Plans for the year' });
  await api('PATCH', '/api/user-preferences', { askBeforeEmails: false, weeklyReviewDay: 2 });
  writeFileSync(file, JSON.stringify({ who, state: await read() }));
  console.log(`drill: wrote a journal for ${who.email}`);
}

async function check(file) {
  const { who, state } = JSON.parse(readFileSync(file, 'utf8'));
  await api('POST', '/api/login', { email: who.email, password: who.password });
  const now = await read();
  if (!isDeepStrictEqual(now, state)) {
    console.error(
      'drill: the restored journal differs',
      JSON.stringify({ before: state, after: now }).slice(0, 3000),
    );
    process.exit(1);
  }
  console.log(
    `drill: ${who.email}'s ${now.thoughts.length} thoughts, audio, conversation and settings read back`,
  );
}

async function scribble(file) {
  const { who } = JSON.parse(readFileSync(file, 'utf8'));
  await api('POST', '/api/login', { email: who.email, password: who.password });
  await api('POST', '/api/thoughts', {
    content: 'After the backup: a restore over this database removes me.',
  });
  console.log(`drill: ${who.email} wrote a thought after the backup`);
}

const [mode, file] = process.argv.slice(2);
await ({ write, scribble, check }[mode] ?? check)(file);

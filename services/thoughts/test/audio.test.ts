import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Thought } from '@haven/contracts/thoughts';
import { internalHeaders, startTestService } from '@haven/kit/testing';
import { thoughtsService } from '../src/service';

let svc: Awaited<ReturnType<typeof startTestService>>;

beforeAll(async () => {
  svc = await startTestService(thoughtsService);
});
afterAll(async () => svc?.stop());

const get = (userId: number, path: string, headers: Record<string, string> = {}) =>
  fetch(svc.url + path, { headers: { ...internalHeaders(svc.config, userId, 'thoughts'), ...headers } });

async function create(userId: number, body: Record<string, unknown>): Promise<Thought> {
  const res = await fetch(svc.url + '/api/thoughts', {
    method: 'POST',
    headers: { ...internalHeaders(svc.config, userId, 'thoughts'), 'content-type': 'application/json' },
    body: JSON.stringify({ clientDate: '2025-01-05T12:00:00.000Z', timezoneOffset: 0, ...body }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Thought;
}

// 1,000 bytes that are not text, so a byte slip shows.
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7) % 256));

describe('a voice thought’s recording', () => {
  it('streams whole (200), by range (206), refuses a range past the end (416), and is no one else’s', async () => {
    const owner = 500;
    const thought = await create(owner, {
      content: 'Walk by the river',
      isVoice: true,
      audioData: `data:audio/wav;base64,${BYTES.toString('base64')}`,
    });
    expect(thought.hasAudio).toBe(true);
    const path = `/api/thoughts/${thought.id}/audio`;

    const whole = await get(owner, path);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await whole.arrayBuffer()).equals(BYTES)).toBe(true);

    const part = await get(owner, path, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(part.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await part.arrayBuffer()).equals(BYTES.subarray(100, 200))).toBe(true);

    const open = await get(owner, path, { range: 'bytes=990-' });
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect((await open.arrayBuffer()).byteLength).toBe(10);

    const past = await get(owner, path, { range: 'bytes=5000-6000' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */1000');

    const stranger = await get(owner + 1, path);
    expect(stranger.status).toBe(404);
    expect(stranger.headers.get('content-type')).toMatch(/json/);
  });

  it('is not found for a thought without audio, and never served as a type a browser would run', async () => {
    const owner = 501;
    const typed = await create(owner, { content: 'Typed, no recording' });
    expect((await get(owner, `/api/thoughts/${typed.id}/audio`)).status).toBe(404);

    const odd = await create(owner, {
      content: 'Claims to be a page',
      isVoice: true,
      audioData: `data:text/html;base64,${Buffer.from('<script>alert(1)</script>').toString('base64')}`,
    });
    const res = await get(owner, `/api/thoughts/${odd.id}/audio`);
    // Either refused on save or served as inert bytes, never as HTML.
    expect(res.headers.get('content-type')).not.toMatch(/html/);
  });
});

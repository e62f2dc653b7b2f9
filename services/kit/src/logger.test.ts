import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runWithContext } from './context';
import { createLogger, prettyDestination } from './logger';

describe('human log lines', () => {
  it('prints one readable line per event with the service and request id, no JSON, secrets redacted', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    const log = createLogger({
      name: 'haven',
      destination: prettyDestination({ colorize: false, destination: out }),
    }).child({ service: 'thoughts' });
    runWithContext({ requestId: 'req-42' }, () => {
      log.info({ status: 201, token: 'do-not-print' }, 'thought saved');
      log.warn('slow');
    });
    await new Promise((r) => setTimeout(r, 50));
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: thoughts \[req-42\] thought saved /);
    expect(lines[0]).toContain('"status":201');
    expect(lines[0]).not.toContain('do-not-print');
    expect(lines[1]).toMatch(/WARN: thoughts \[req-42\] slow$/);
    for (const line of lines) expect(line.startsWith('{')).toBe(false);
  });
});

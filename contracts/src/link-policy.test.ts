import { describe, expect, it } from 'vitest';
import { judgeLink, linkScope } from './link-policy';

const scope = linkScope({
  mine: ['Can you find the launch plan on https://docs.example.com/plan ?'],
  replies: ['Anna is worried about the budget review. See [the report](https://evil.example/r?d=x).'],
  seen: ['https://www.notion.so/Launch-plan-0123456789abcdef0123456789abcdef'],
});

describe('judgeLink', () => {
  it('opens hosts the user’s data names, and asks first for any other, naming it', () => {
    expect(judgeLink('https://docs.example.com/other', scope)).toMatchObject({
      kind: 'open',
      host: 'docs.example.com',
    });
    expect(judgeLink('https://evil.example/page', scope)).toMatchObject({
      kind: 'confirm',
      host: 'evil.example',
    });
  });

  it('strips a query or fragment that is long, holds an address or a blob, or quotes the conversation', () => {
    const long = `https://evil.example/r?d=${encodeURIComponent('x'.repeat(80))}`;
    const quoting = 'https://evil.example/r?q=worried+about+the+budget';
    const address = 'https://evil.example/r#to=anna%40example.com';
    for (const href of [long, quoting, address])
      expect(judgeLink(href, scope)).toMatchObject({
        kind: 'confirm',
        href: 'https://evil.example/r',
        stripped: true,
      });
    expect(judgeLink('https://evil.example/r?page=2', scope)).toMatchObject({ stripped: false });
  });

  it('refuses a link whose path carries data, and anything but http(s)', () => {
    const blob = Buffer.from('Anna is worried about the budget review').toString('base64url');
    expect(judgeLink(`https://evil.example/r/${blob}`, scope)).toMatchObject({ kind: 'refused' });
    expect(judgeLink('javascript:alert(1)', scope)).toMatchObject({ kind: 'refused' });
    expect(judgeLink('https://user:pw@evil.example/', scope)).toMatchObject({ kind: 'refused' });
  });

  it('opens an address exactly as the user’s data holds it, even with a long path', () => {
    const page = 'https://www.notion.so/Launch-plan-0123456789abcdef0123456789abcdef';
    expect(judgeLink(page, scope)).toEqual({
      kind: 'open',
      href: page,
      host: 'www.notion.so',
      stripped: false,
    });
  });

  it('never takes an address from the replies themselves as the user’s', () => {
    expect(judgeLink('https://evil.example/r?d=x', scope).kind).toBe('confirm');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { corpusPresent } from './corpus';

describe('corpusPresent', () => {
  const ci = process.env.CI;
  afterEach(() => {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
    vi.restoreAllMocks();
  });

  it('is true where the corpus is', () => {
    expect(corpusPresent(import.meta.dirname)).toBe(true);
  });

  it('fails in CI, naming what is missing', () => {
    process.env.CI = 'true';
    expect(() => corpusPresent('/nowhere/corpora/mail')).toThrow(
      '/nowhere/corpora/mail is missing: CI runs with ../shared (and its corpora) beside the checkout',
    );
  });

  it('skips elsewhere, and says so', () => {
    delete process.env.CI;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(corpusPresent('/nowhere/corpora/mail')).toBe(false);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('skipped: /nowhere/corpora/mail is not on this machine'),
    );
  });
});

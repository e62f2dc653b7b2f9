import { HttpError } from '@haven/contracts/client';
import { describe, expect, it } from 'vitest';
import { getErrorMessage } from './api';

describe('getErrorMessage', () => {
  const refused = new HttpError(503, '{}', {
    message: 'The database is busy. Please try again.',
    code: 'unavailable',
  });

  it('says what the server said', () => {
    expect(getErrorMessage(refused, 'Failed to fetch user preferences')).toBe(
      'The database is busy. Please try again.',
    );
  });

  it('finds it behind a query function’s wrapper', () => {
    const wrapped = new Error('Failed to fetch user preferences', { cause: refused });
    expect(getErrorMessage(wrapped, 'Failed to fetch user preferences')).toBe(
      'The database is busy. Please try again.',
    );
  });

  it('reads a network failure or a bodiless status as the fallback, or as its own message without one', () => {
    const offline = new Error('Failed to fetch user preferences', {
      cause: new TypeError('Failed to fetch'),
    });
    expect(getErrorMessage(offline, 'Could not load')).toBe('Could not load');
    expect(getErrorMessage(new HttpError(502, 'Bad Gateway'), 'Could not load')).toBe('Could not load');
    expect(getErrorMessage(offline)).toBe('Failed to fetch user preferences');
  });
});

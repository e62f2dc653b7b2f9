import { describe, expect, it } from 'vitest';
import { quoteLine } from './markdown-line';

describe('quoteLine', () => {
  it('quotes a Markdown thought on one line without its block markers (a review, an insight)', () => {
    expect(
      quoteLine('# Reading notes\n\n- The Overstory\n- [x] *Braiding* Sweetgrass\n\n---\n> 2. kept'),
    ).toBe('Reading notes; The Overstory; *Braiding* Sweetgrass; kept');
    expect(quoteLine('Ran 5k this morning.\nFelt   good.')).toBe('Ran 5k this morning. Felt good.');
    expect(quoteLine('#health is a tag, not a heading')).toBe('#health is a tag, not a heading');
  });
});

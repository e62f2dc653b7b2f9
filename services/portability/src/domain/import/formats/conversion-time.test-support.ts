import { expect } from 'vitest';
import { cpuMs } from '@haven/kit/testing';

/**
 * Longest one note may take to convert in CPU time, whatever it holds: a few ms for a real note, up
 * to about 1.4 s for the worst megabyte here (lists 32 deep, each line indented once per level),
 * which two busy test files on a 2-core machine stretch past 2 s. What is quadratic takes minutes.
 */
export const TIME_LIMIT_MS = 3_000;

/**
 * `convert(input)`, failing the test if it took longer than TIME_LIMIT_MS of CPU: once, or the
 * fastest of three when the first is over (two test files sharing a core slow each other's CPU time
 * too; what is quadratic is slow every time).
 */
export function timedConversion(convert: (input: string) => string, input: string): string {
  let markdown = '';
  let fastest = Infinity;
  for (let runs = 0; runs < 3 && fastest >= TIME_LIMIT_MS; runs++)
    fastest = Math.min(
      fastest,
      cpuMs(() => (markdown = convert(input))),
    );
  expect(fastest).toBeLessThan(TIME_LIMIT_MS);
  return markdown;
}

import { parse } from 'csv-parse';
import { IMPORT_LIMITS } from '@haven/contracts/portability';
import { ImportLimitError, type ImportSource } from '../source';

/**
 * The records of a CSV file, header first, each with its line, streamed (only the record being read
 * is held, none larger than a note): a parse error ends them as one error with its line; a limit
 * error of the source propagates. Quotes are read leniently (a stray `"` inside a field is text).
 */
export async function* csvRows(
  source: ImportSource,
  name: string,
): AsyncGenerator<{ cells: string[]; line: number } | { error: string; line: number }> {
  const input = source.stream(name, IMPORT_LIMITS.dataFileBytes);
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: IMPORT_LIMITS.fileBytes,
  });
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  try {
    for await (const row of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>)
      yield { cells: row.record, line: row.info.lines };
  } catch (err) {
    if (err instanceof ImportLimitError) throw err;
    const line = (err as { lines?: unknown }).lines;
    yield {
      error: `The file is not valid CSV (${((err as Error).message ?? '').split('\n')[0]!.slice(0, 200)})`,
      line: typeof line === 'number' ? line : 1,
    };
  } finally {
    input.destroy();
    parser.destroy();
  }
}

/**
 * Migrations are expand-then-contract (README, "Upgrading"): during a rolling update the previous
 * version's replicas run against the new schema, so a migration may add, never take away. A statement
 * that drops or renames a table or column, or changes a column's type, fails this check unless its
 * migration says it is the contract step of an earlier release's expand:
 *
 *   -- contract-of: thoughts/0011_search_grams_copy
 *
 * naming the migration (of the same service, already released) that made the old shape unused.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '@haven/contracts/routes';

const root = path.join(import.meta.dirname, '..');

/** Destructive migrations released before this check existed: each ran with every replica stopped. */
const BEFORE_THE_CHECK = new Set(['auth/0006_transfers_moved', 'thoughts/0010_search_grams_table']);

const DESTRUCTIVE: Array<[RegExp, string]> = [
  [/\bdrop\s+table\b/i, 'drops a table'],
  [/\bdrop\s+column\b/i, 'drops a column'],
  [/\bdrop\s+schema\b/i, 'drops a schema'],
  [/\brename\s+(column\s+)?\S+\s+to\b/i, 'renames a table or column'],
  [/\brename\s+to\b/i, 'renames a table'],
  [/\balter\s+column\s+\S+\s+(set\s+data\s+)?type\b/i, "changes a column's type"],
];

interface Migration {
  service: string;
  tag: string;
  sql: string;
}

function migrationsOf(service: string): Migration[] {
  const folder = path.join(root, 'services', service, 'drizzle');
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  return journal.entries.map((e) => ({
    service,
    tag: e.tag,
    sql: readFileSync(path.join(folder, `${e.tag}.sql`), 'utf8'),
  }));
}

/** Statements outside comments, one per line of SQL. */
const statements = (sql: string) =>
  sql
    .split('\n')
    .map((line) => line.replace(/--.*$/, ''))
    .join('\n')
    .split(/;|--> statement-breakpoint/);

/** What is wrong with a migration, given the migrations of its service before it. */
function migrationProblems(m: Migration, earlier: readonly Migration[]): string[] {
  if (BEFORE_THE_CHECK.has(`${m.service}/${m.tag}`)) return [];
  const found = statements(m.sql).flatMap((s) =>
    DESTRUCTIVE.filter(([re]) => re.test(s)).map(([, what]) => what),
  );
  if (found.length === 0) return [];
  const marker = /^--\s*contract-of:\s*(\S+)\/(\S+)\s*$/m.exec(m.sql);
  const name = `${m.service}/${m.tag}`;
  if (!marker)
    return [
      `${name} ${[...new Set(found)].join(', ')}: mark it "-- contract-of: <service>/<expand migration>"`,
    ];
  const [, service, tag] = marker;
  if (service !== m.service || !earlier.some((e) => e.tag === tag))
    return [`${name}: its contract-of names ${service}/${tag}, not an earlier migration of ${m.service}`];
  return [];
}

describe('migrations', () => {
  it('only add: every drop, rename or type change is the marked contract step of an earlier expand', () => {
    const problems = SERVICE_NAMES.flatMap((service) => {
      const all = migrationsOf(service);
      return all.flatMap((m, i) => migrationProblems(m, all.slice(0, i)));
    });
    expect(problems).toEqual([]);
  });

  it('finds a destructive migration, and accepts it once marked', () => {
    const earlier = [
      { service: 'thoughts', tag: '0011_add_title', sql: 'ALTER TABLE t ADD COLUMN title text;' },
    ];
    const drop = { service: 'thoughts', tag: '0012_drop_name', sql: 'ALTER TABLE "t" DROP COLUMN "name";' };
    expect(migrationProblems(drop, earlier)).toEqual([
      'thoughts/0012_drop_name drops a column: mark it "-- contract-of: <service>/<expand migration>"',
    ]);
    const rename = { ...drop, sql: 'ALTER TABLE "t" RENAME COLUMN "a" TO "b";' };
    expect(migrationProblems(rename, earlier)).toHaveLength(1);
    const retype = { ...drop, sql: 'ALTER TABLE "t" ALTER COLUMN "a" SET DATA TYPE bigint;' };
    expect(migrationProblems(retype, earlier)).toHaveLength(1);
    const commented = { ...drop, sql: '-- we never DROP TABLE here\nCREATE TABLE x (id int);' };
    expect(migrationProblems(commented, earlier)).toEqual([]);
    const marked = { ...drop, sql: `-- contract-of: thoughts/0011_add_title\n${drop.sql}` };
    expect(migrationProblems(marked, earlier)).toEqual([]);
    const wrong = { ...drop, sql: `-- contract-of: thoughts/0099_nothing\n${drop.sql}` };
    expect(migrationProblems(wrong, earlier)[0]).toContain('not an earlier migration');
  });
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const AUTOCANNON = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'autocannon');

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/**
 * Loads one URL with autocannon in its own process (so the load generator does not share the
 * server's event loop) and returns throughput and latency percentiles in ms.
 */
export async function load(
  label: string,
  url: string,
  options: {
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    seconds?: number;
    connections?: number;
  } = {},
): Promise<LoadResult> {
  const args = [
    '-j',
    '-d',
    String(options.seconds ?? 8),
    '-c',
    String(options.connections ?? 16),
    '-m',
    options.method ?? 'GET',
  ];
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (options.body) args.push('-b', options.body);
  args.push(url);
  const { stdout } = await run(AUTOCANNON, args, { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  return {
    label,
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

/** `a`'s throughput as a multiple of `b`'s, two decimals. */
export function ratio(a: LoadResult, b: LoadResult): string {
  return (a.requestsPerSecond / b.requestsPerSecond).toFixed(2);
}

export function printTable(title: string, rows: LoadResult[]): void {
  console.log(`\n${title}`);
  console.log(
    '  ' +
      [
        'case'.padEnd(34),
        'req/s'.padStart(9),
        'p50 ms'.padStart(8),
        'p99 ms'.padStart(8),
        'errors'.padStart(7),
      ].join(' '),
  );
  for (const r of rows) {
    console.log(
      '  ' +
        [
          r.label.padEnd(34),
          r.requestsPerSecond.toFixed(0).padStart(9),
          r.p50.toFixed(1).padStart(8),
          r.p99.toFixed(1).padStart(8),
          String(r.errors + r.non2xx).padStart(7),
        ].join(' '),
    );
  }
}

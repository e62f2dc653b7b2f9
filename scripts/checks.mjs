#!/usr/bin/env node
/**
 * The checks `npm test` runs before the tests: the type check of the services and of the SPA, and
 * the linter. They share no state, so they run side by side (each is single-threaded), and every
 * one's output is printed whole, in order, once it ends; the exit code is the first failure's.
 */
import { spawn } from 'node:child_process';

const CHECKS = [
  ['type check (services)', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['type check (SPA)', 'npx', ['tsc', '-p', 'frontend/tsconfig.json', '--noEmit']],
  ['lint', 'npx', ['eslint', '--max-warnings=0', '.']],
];

function run([name, command, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      resolve({ name, code: code ?? 1, seconds, output: Buffer.concat(output).toString() });
    });
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const { name, code, seconds, output } of results) {
  process.stdout.write(`\n== ${name}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s\n${output}`);
}
process.exitCode = results.find((r) => r.code !== 0)?.code ?? 0;

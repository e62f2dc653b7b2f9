import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create } from 'tar';

/** A tar of these files made by node-tar from a folder of them, as Joplin makes a JEX export. */
export async function tarOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'haven-tar-'));
  try {
    for (const [name, data] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), data);
    }
    return await tarOfFolder(dir, Object.keys(files));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A tar of these files of a folder, under their names relative to it. */
export async function tarOfFolder(dir: string, names: string[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of create({ cwd: dir, portable: true }, names)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

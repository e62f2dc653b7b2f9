import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { repoPath } from './paths';

const valid = {
  JWT_SECRET: 'j'.repeat(40) as string | undefined,
  INTERNAL_SECRET: 'i'.repeat(40),
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

describe('configuration', () => {
  it('applies defaults', () => {
    const config = loadConfig(valid);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.DATA_DIR).toBe('./data');
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('names each bad variable and what it expects, without echoing secrets', () => {
    let error: unknown;
    try {
      loadConfig({ ...valid, JWT_SECRET: 'short-secret', REDIS_URL: 'http://nope', PORT: 'eighty' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('JWT_SECRET: must be at least 32 characters');
    expect(message).toContain('REDIS_URL: must be a URL starting with redis:// or rediss://');
    expect(message).toContain('PORT');
    expect(message).not.toContain('short-secret');
  });

  it('takes a folder, a file:// URL or an s3:// bucket for backups, and says what else it wants', () => {
    expect(loadConfig({ ...valid, BACKUP_URL: '/var/backups' }).BACKUP_URL).toBe('/var/backups');
    expect(loadConfig({ ...valid, BACKUP_URL: 'file:///var/backups' }).BACKUP_URL).toBe('/var/backups');
    expect(loadConfig({ ...valid, BACKUP_URL: 's3://haven-backups/nightly' }).BACKUP_URL).toBe(
      's3://haven-backups/nightly',
    );
    expect(() => loadConfig({ ...valid, BACKUP_URL: 'https://example.com/backups' })).toThrow(
      'BACKUP_URL: must be a folder (a path, or a file:// URL) or a bucket (s3://bucket/prefix)',
    );
    expect(() => loadConfig({ ...valid, BACKUP_URL: 's3://Bad_Bucket' })).toThrow(/BACKUP_URL/);
    expect(() => loadConfig({ ...valid, BACKUP_S3_ENDPOINT: 'minio:9000' })).toThrow(
      'BACKUP_S3_ENDPOINT: must be a URL starting with http:// or https://',
    );
  });

  it('says a required variable is required', () => {
    expect(() => loadConfig({ ...valid, INTERNAL_SECRET: undefined })).toThrow(
      'INTERNAL_SECRET: is required',
    );
  });

  it('rejects an encryption key that is not 32 bytes', () => {
    expect(() => loadConfig({ ...valid, DATA_ENCRYPTION_KEY: randomBytes(16).toString('base64') })).toThrow(
      /DATA_ENCRYPTION_KEY: must be 32 random bytes in base64/,
    );
  });

  it('stops a service at start-up with the variable named, exit status 1', () => {
    const result = spawnSync(
      repoPath('node_modules', '.bin', 'tsx'),
      [repoPath('services', 'thoughts', 'src', 'main.ts')],
      {
        env: { PATH: process.env.PATH, ...valid, DATABASE_URL: 'mysql://localhost/x' },
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('thoughts: Invalid configuration');
    expect(result.stderr).toContain('DATABASE_URL: must be a URL starting with postgres:// or postgresql://');
  });

  it('keeps the cookie key to the services that need it: auth refuses to start without it, thoughts does not need it', () => {
    const run = (service: string, env: Record<string, string | undefined>) =>
      spawnSync(repoPath('node_modules', '.bin', 'tsx'), [repoPath('services', service, 'src', 'main.ts')], {
        env: { PATH: process.env.PATH, ...env },
        encoding: 'utf8',
        timeout: 20_000,
      });
    const auth = run('auth', { ...valid, JWT_SECRET: undefined });
    expect(auth.status).toBe(1);
    expect(auth.stderr).toContain('auth: Invalid configuration');
    expect(auth.stderr).toContain('JWT_SECRET: is required');
    expect(loadConfig({ ...valid, JWT_SECRET: undefined }).JWT_SECRET).toBeUndefined();
  });
});

import { SERVICE_NAMES } from '@haven/contracts/routes';
import { repoPath } from '@haven/kit/paths';
import type { ServiceSchema } from './backups';

/** Every service's schema (named as the service) and its migrations: what a backup covers. */
export function serviceSchemas(): ServiceSchema[] {
  return SERVICE_NAMES.map((name) => ({ name, migrationsFolder: repoPath('services', name, 'drizzle') }));
}

import { buildServiceApp, type ServiceDeps } from '@haven/kit/service';
import { authService } from './service';

/** Builds the auth service's Express app (never listens). */
export function createApp(deps: ServiceDeps) {
  return buildServiceApp(authService, deps);
}

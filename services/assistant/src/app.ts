import { buildServiceApp, type ServiceDeps } from '@haven/kit/service';
import { assistantService } from './service';

/** Builds the assistant service's Express app (never listens). */
export function createApp(deps: ServiceDeps) {
  return buildServiceApp(assistantService, deps);
}

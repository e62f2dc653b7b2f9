import { buildServiceApp, type ServiceDeps } from '@haven/kit/service';
import { thoughtsService } from './service';

/** Builds the thoughts service's Express app (never listens). */
export function createApp(deps: ServiceDeps) {
  return buildServiceApp(thoughtsService, deps);
}

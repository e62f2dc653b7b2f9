import { buildServiceApp, type ServiceDeps } from '@haven/kit/service';
import { insightsService } from './service';

/** Builds the insights service's Express app (never listens). */
export function createApp(deps: ServiceDeps) {
  return buildServiceApp(insightsService, deps);
}

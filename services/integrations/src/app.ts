import { buildServiceApp, type ServiceDeps } from '@haven/kit/service';
import { integrationsService } from './service';

/** Builds the integrations service's Express app (never listens). */
export function createApp(deps: ServiceDeps) {
  return buildServiceApp(integrationsService, deps);
}

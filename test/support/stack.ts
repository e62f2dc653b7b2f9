import { assistantService } from '@haven/assistant/service';
import { authService } from '@haven/auth/service';
import { insightsService } from '@haven/insights/service';
import { integrationsService } from '@haven/integrations/service';
import { portabilityService } from '@haven/portability/service';
import { startTestServices } from '@haven/kit/testing';
import { thoughtsService } from '@haven/thoughts/service';
import { startGoogleDouble } from '../doubles/google-server';

/** Every service on one test database, with a Google double for the integrations. */
export async function startEveryService(overrides: Record<string, string> = {}) {
  const google = await startGoogleDouble();
  const stack = await startTestServices(
    [
      authService,
      thoughtsService,
      insightsService,
      assistantService,
      integrationsService,
      portabilityService,
    ],
    { ...google.env, APP_URL: 'http://haven.test', ...overrides },
  );
  return {
    google,
    stack,
    async stop() {
      await stack.stop();
      await google.stop();
    },
  };
}

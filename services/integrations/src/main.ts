import { runMain } from '@haven/kit/service';
import { integrationsService } from './service';

void runMain(integrationsService);

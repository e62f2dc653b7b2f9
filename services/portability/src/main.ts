import { runMain } from '@haven/kit/service';
import { portabilityService } from './service';

void runMain(portabilityService);

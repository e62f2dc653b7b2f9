import { runMain } from '@haven/kit/service';
import { assistantService } from './service';

void runMain(assistantService);

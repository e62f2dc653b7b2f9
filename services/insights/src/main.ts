import { runMain } from '@haven/kit/service';
import { insightsService } from './service';

void runMain(insightsService);

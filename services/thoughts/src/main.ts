import { runMain } from '@haven/kit/service';
import { thoughtsService } from './service';

void runMain(thoughtsService);

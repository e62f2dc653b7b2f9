import { runMain } from '@haven/kit/service';
import { authService } from './service';

void runMain(authService);

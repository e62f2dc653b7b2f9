import { serveSandboxTasks } from '@haven/kit/sandbox';
import { parseRawInSandbox } from './raw-mail-task';
import { parseMessage } from './message';

/**
 * The mail sandbox's script (see mail-parser.ts): every mail body is parsed here, in a child process
 * with a small heap and no secret, never in the process that serves everyone.
 */
serveSandboxTasks({ 'mail.parse': parseMessage, 'mail.parse-raw': parseRawInSandbox });

import type { Span } from '@opentelemetry/api';
import { BrokenCircuitError, circuitBreaker, ConsecutiveBreaker, handleWhen } from 'cockatiel';
import OpenAI, { APIConnectionTimeoutError, APIError } from 'openai';
import type { Metrics } from './metrics';
import { inSpan, SpanKind } from './tracing';

/*
 * What every request to the model server shares (chat, structured answers, speech to text,
 * embeddings): the circuit breaker that knows when the server is down, and the measuring of each
 * request. llm.ts and embedder.ts build their clients on it.
 */

/** Consecutive failed calls (timeouts, refused connections, 5xx, 429) that mark the model server down. */
export const BREAKER_FAILURES = 3;
/** How long calls are refused once it is down, before one call is let through to see if it is back. */
export const BREAKER_HALF_OPEN_MS = 10_000;

/** An error that says the model server did not answer (down, hanging, overloaded), not a bad request. */
export function isOutage(err: unknown): boolean {
  if (err instanceof OpenAI.APIConnectionError) return true; // refused, reset, or timed out
  const status = (err as { status?: number }).status;
  return err instanceof OpenAI.APIError && (status === 408 || status === 429 || (status ?? 0) >= 500);
}

/**
 * True when a model call failed because the model server is not answering (or was known not to be,
 * and was not asked): the caller can say so to the user instead of retrying for minutes.
 */
export function isModelUnavailable(err: unknown): boolean {
  return err instanceof BrokenCircuitError || isOutage(err);
}

/**
 * A breaker that opens after BREAKER_FAILURES calls in a row got no answer, and lets one probe call
 * through after BREAKER_HALF_OPEN_MS.
 */
export const modelBreaker = () =>
  circuitBreaker(handleWhen(isOutage), {
    halfOpenAfter: BREAKER_HALF_OPEN_MS,
    breaker: new ConsecutiveBreaker(BREAKER_FAILURES),
  });

/** What kind of failure a model request met, as a bounded label for the error counter. */
export function modelErrorKind(err: unknown): string {
  if (err instanceof APIConnectionTimeoutError) return 'timeout';
  if (err instanceof APIError && err.status !== undefined) {
    if (err.status === 429) return 'rate_limited';
    return err.status >= 500 ? 'server_error' : 'client_error';
  }
  if (err instanceof APIError) return 'connection';
  return 'other';
}

/** What the model server says it used: chat completions name it prompt/completion, audio input/output. */
interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
}

/** Counts the tokens an answer says it used, where the server reports them, on the counter and the span. */
function countUsage(
  metrics: Metrics | undefined,
  span: Span | undefined,
  operation: string,
  answer: unknown,
) {
  const usage = (answer as { usage?: Usage | null }).usage;
  const prompt = usage?.prompt_tokens ?? usage?.input_tokens;
  const completion = usage?.completion_tokens ?? usage?.output_tokens;
  if (prompt) metrics?.modelTokens.inc({ operation, type: 'prompt' }, prompt);
  if (completion) metrics?.modelTokens.inc({ operation, type: 'completion' }, completion);
  span?.setAttributes({
    ...(prompt ? { 'gen_ai.usage.input_tokens': prompt } : {}),
    ...(completion ? { 'gen_ai.usage.output_tokens': completion } : {}),
  });
}

/** Counts a failed request by its kind of error, on the counter and the span. */
function countFailure(metrics: Metrics | undefined, span: Span | undefined, operation: string, err: unknown) {
  const kind = modelErrorKind(err);
  metrics?.modelErrors.inc({ operation, kind });
  span?.setAttribute('error.type', kind);
}

/**
 * Times one request to the model server and counts its tokens (where the server reports them) and,
 * on failure, its kind of error; when tracing, the request is a span with the same facts.
 */
export function measure(metrics: Metrics | undefined, model: string) {
  return <T>(operation: string, request: () => Promise<T>): Promise<T> =>
    inSpan(
      `model ${operation}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'gen_ai.operation.name': operation, 'gen_ai.request.model': model },
      },
      async (span) => {
        const end = metrics?.model.startTimer({ operation });
        try {
          const answer = await request();
          end?.({ outcome: 'ok' });
          countUsage(metrics, span, operation, answer);
          return answer;
        } catch (err) {
          end?.({ outcome: 'error' });
          countFailure(metrics, span, operation, err);
          throw err;
        }
      },
    );
}

/** A request measured as `measure` does. */
export type Measured = ReturnType<typeof measure>;

import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { observeClientRequests } from './client-requests';

/**
 * Traces across hops, when configured: with OTEL_EXPORTER_OTLP_ENDPOINT set, `startTracing` loads the
 * OpenTelemetry SDK and exports spans over OTLP/HTTP; without it nothing of the SDK is loaded and the
 * helpers below cost one boolean check. The kit's single points use them: each HTTP request a service
 * or the gateway answers, the gateway's hop to a service, each job a worker runs, each model call;
 * outgoing fetch (internal calls, the model server, Google, Notion) is traced by OpenTelemetry's
 * undici instrumentation and node:http calls (Slack's client) through Node's diagnostics channels.
 * The trace context travels in the `traceparent` header between processes and in a job's meta
 * (through the outbox) to the worker that runs it.
 */
const tracer = trace.getTracer('haven');
/** Marks the context of a hop that made its own client span, so the node:http listener adds none. */
const OWN_CLIENT_SPAN = createContextKey('haven.own-client-span');
let enabled = false;

/** Starts exporting traces when an endpoint is configured; returns the function that flushes and stops. */
export async function startTracing(
  serviceName: string,
  endpoint: string | undefined,
): Promise<(() => Promise<void>) | undefined> {
  if (!endpoint || enabled) return undefined;
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    undici,
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation-undici'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME ?? serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: new URL('v1/traces', withSlash(endpoint)).href })),
    ],
  });
  // The AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  const fetches = new undici.UndiciInstrumentation({
    // A query string can hold what a person wrote (a search); traces keep the path alone.
    requestHook(span, request) {
      if (!request.path.includes('?')) return;
      span.setAttribute('url.full', `${request.origin}${request.path.slice(0, request.path.indexOf('?'))}`);
      span.setAttribute('url.query', '?redacted');
    },
  });
  fetches.setTracerProvider(provider);
  fetches.enable();
  const stopHttpClients = traceHttpClients();
  enabled = true;
  return async () => {
    enabled = false;
    stopHttpClients();
    fetches.disable();
    await provider.shutdown();
  };
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/** Whether spans are being recorded (an endpoint is configured and tracing started). */
export function tracingEnabled(): boolean {
  return enabled;
}

/** The active trace context as a `traceparent` value, for a job's meta; undefined when not tracing. */
export function currentTraceparent(): string | undefined {
  if (!enabled) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * Runs `fn` inside a new span, ended when `fn` settles (errors recorded). `parent` is a traceparent
 * handed over by another process (a job's meta); without one the span continues the active trace.
 */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; traceparent?: string },
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!enabled) return fn(undefined);
  const parent = options.traceparent
    ? propagation.extract(ROOT_CONTEXT, { traceparent: options.traceparent })
    : context.active();
  const span = tracer.startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** A span of a request being answered or sent, ended by hand when the answer is known. */
export interface OpenSpan {
  /** Runs `fn` with this span as the active one. */
  run<T>(fn: () => T): T;
  /** Ends the span with the answer's status (5xx, or an error, marks it failed). */
  end(status: number, err?: Error): void;
}

/**
 * A server span for one HTTP request, continuing the caller's trace from its `traceparent` header
 * (the gateway, the edge, passes none: a client's trace context is not trusted, like its request id).
 */
export function startServerSpan(
  method: string,
  headers: Record<string, string | string[] | undefined>,
  attributes: Attributes,
): (OpenSpan & { named(route: string): void }) | undefined {
  if (!enabled) return undefined;
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes }, parent);
  return {
    ...openSpan(span, parent),
    named(route) {
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
    },
  };
}

/** A client span for a hop made with node:http, and the headers that carry it to the other side. */
export function startClientSpan(
  name: string,
  attributes: Attributes,
): (OpenSpan & { headers: Record<string, string> }) | undefined {
  if (!enabled) return undefined;
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), headers);
  return { ...openSpan(span, context.active().setValue(OWN_CLIENT_SPAN, true)), headers };
}

function openSpan(span: Span, parent: Context): OpenSpan {
  const active = trace.setSpan(parent, span);
  let ended = false;
  return {
    run: (fn) => context.with(active, fn),
    end(status, err) {
      if (ended) return;
      ended = true;
      endHttpSpan(span, status, err);
    },
  };
}

/** Ends a span of an HTTP exchange: its status, and a failure (an error, or a 5xx answer) marked. */
function endHttpSpan(span: Span, status: number | undefined, err?: Error): void {
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  if (err) span.recordException(err);
  if (err || (status ?? 0) >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: err?.message });
  span.end();
}

/**
 * A client span for every node:http request not made inside a hop with its own (Slack's client;
 * the gateway's hop makes its own span and header). Node publishes each request's start in the
 * caller's async context, so the span has the right parent.
 */
function traceHttpClients(): () => void {
  return observeClientRequests({
    start: ({ origin, method }) =>
      context.active().getValue(OWN_CLIENT_SPAN)
        ? undefined
        : tracer.startSpan(method, {
            kind: SpanKind.CLIENT,
            attributes: { 'http.request.method': method, 'server.address': new URL(origin).hostname },
          }),
    finish: (span, { status, error }) => endHttpSpan(span, status, error),
  });
}

export { SpanKind };

import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import type { RouteContract } from './contract';
import { ErrorBody } from './errors';
import { PUBLIC_CONTRACTS } from './public';
import { isPublicRoute, SESSION_COOKIE } from './routes';

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), as a request sends it or an answer reads. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    // A transform or a date has no JSON Schema of its own: documented as "any value" rather than failing.
    unrepresentable: 'any',
  }) as JsonSchema;
  return json;
}

/** The error body every non-2xx answer shares, defined once in `components`. */
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** `/api/thoughts/:id` → `/api/thoughts/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Path and query parameters, one per property of the route's `params` and `query` objects. */
function parametersOf(route: RouteContract): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const pathProps = (route.params ? schemaOf(route.params, 'input').properties : undefined) as
    Record<string, JsonSchema> | undefined;
  for (const name of names)
    parameters.push({ name, in: 'path', required: true, schema: pathProps?.[name] ?? { type: 'string' } });
  if (route.query) {
    const query = schemaOf(route.query, 'input');
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>))
      parameters.push({ name, in: 'query', required: required.has(name), schema });
  }
  return parameters;
}

function responsesOf(route: RouteContract): JsonSchema {
  const responses: JsonSchema = {};
  for (const [status, schema] of Object.entries(route.responses)) {
    const description = STATUS_CODES[Number(status)] ?? `Status ${status}`;
    if (!schema || schema instanceof z.ZodNull) responses[status] = { description };
    else
      responses[status] = {
        description,
        content: {
          'application/json': { schema: schema === ErrorBody ? ERROR_REF : schemaOf(schema, 'output') },
        },
      };
  }
  return responses;
}

function operationOf(contract: string, name: string, route: RouteContract): JsonSchema {
  const summary = route.summary?.split(/(?<=\.)\s/)[0];
  return {
    operationId: `${contract}_${name}`,
    tags: [contract],
    ...(summary ? { summary } : {}),
    ...(route.summary && route.summary !== summary ? { description: route.summary } : {}),
    // A route reachable without a session says so; every other one needs the session cookie.
    ...(isPublicRoute(route.path) ? { security: [] } : {}),
    parameters: parametersOf(route),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
          },
        }
      : {}),
    responses: responsesOf(route),
  };
}

/**
 * The OpenAPI 3.1 document of every public route, generated from the same zod contracts the
 * services validate with and the SPA calls through, so it cannot drift from the code.
 */
export function openApiDocument(options: { version: string; serverUrl?: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [contract, routes] of Object.entries(PUBLIC_CONTRACTS)) {
    for (const [name, route] of Object.entries(routes)) {
      const path = (paths[openApiPath(route.path)] ??= {});
      path[route.method.toLowerCase()] = operationOf(contract, name, route);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Haven API',
      version: options.version,
      description:
        'The API the Haven web app uses, served by the gateway under `/api`. Signed-in calls carry the ' +
        'session cookie set by `POST /api/login`. Every non-2xx answer is a JSON `Error` with a stable `code`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ session: [] }],
    tags: Object.keys(PUBLIC_CONTRACTS).map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
      schemas: { Error: schemaOf(ErrorBody, 'output') },
    },
  };
}

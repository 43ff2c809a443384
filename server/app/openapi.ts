/**
 * The OpenAPI 3.1 document of the API, generated from the route table and the policy table, so a
 * client written from it calls the same endpoints the site does. Served at /api/openapi.json.
 */
import { z } from 'zod';
import { ROUTES } from '../../src/lib/api/routes/index.ts';
import { splitRouteKey, type RouteDef } from '../../src/lib/api/route.ts';
import { ERROR_CODES, ERROR_STATUS } from '../../src/lib/api/errors.ts';
import { POLICY } from '../../src/lib/policy/policy.ts';
import { LIMITS } from '../../src/lib/api/limits.ts';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  return rest;
};

const errorBody = z.object({
  success: z.literal(false),
  code: z.enum(ERROR_CODES),
  message: z
    .string()
    .describe('In the caller’s language: X-Client-Language, then the locale cookie, then Accept-Language'),
  requestId: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** '/video/tus/:uploadId' → '/video/tus/{uploadId}' */
const openApiPath = (path: string) => `/${path.replace(/:(\w+)/g, '{$1}')}`;

function queryParameters(schema: z.ZodType) {
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

/**
 * A stream entry's answer: text/event-stream, whose events' data OpenAPI 3.1 cannot type, so each
 * kind of event's JSON schema is given under `x-events` (`message` for unnamed events).
 */
function streamAnswer(message: z.ZodType, events: Record<string, z.ZodType>) {
  const kinds = Object.keys(events)
    .map((name) => `\`${name}\``)
    .join(', ');
  return {
    description: `Server-Sent Events: unnamed events carry one item each (its id the event id; send Last-Event-ID to resume); ${kinds} events as named; comment lines are heartbeats.`,
    content: {
      'text/event-stream': {
        schema: { type: 'string' },
        'x-events': Object.fromEntries(
          [['message', message] as const, ...Object.entries(events)].map(([name, schema]) => [
            name,
            toSchema(schema, 'output'),
          ]),
        ),
      },
    },
  };
}

function operation(key: string, def: RouteDef) {
  const rule = POLICY[def.permission];
  const refusals = rule.subject === 'anyone' ? [] : rule.subject === 'signedIn' ? [401] : [401, 403];
  // 503: any call while the database is away; 507: a call that stores a file, on a full disk.
  const statuses = new Set<number>([
    400,
    429,
    500,
    503,
    ...(def.raw === 'tus' || def.raw === 'multipart' ? [507] : []),
    ...refusals,
    ...(def.errors ?? []).map((code) => ERROR_STATUS[code as keyof typeof ERROR_STATUS] ?? 400),
  ]);
  const limits = (def.rateLimits ?? []).map(
    (r) =>
      `${r.limit} (${LIMITS[r.limit].limit} per ${LIMITS[r.limit].windowMs / 1000} s, per ${r.by}${r.counted ? ', counted by the service once the write could be stored' : ''})`,
  );
  const pathParams = [...splitRouteKey(key)[1].matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  return {
    operationId: key,
    summary: def.summary,
    tags: [def.tag],
    description: [
      `Permission: \`${def.permission}\` (${rule.subject}${'resource' in rule ? `, ${rule.resource}` : ''}): ${rule.note}.`,
      limits.length ? `Rate limits: ${limits.join('; ')}.` : '',
      def.raw === 'tus'
        ? 'The tus 1.0 resumable upload protocol (creation, termination, expiration); bodies are bytes.'
        : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
    ...(rule.subject === 'anyone' ? {} : { security: [{ session: [] }] }),
    // The entry's limits as data (x-rate-limit) and the resource its permission is checked on (x-resource).
    ...(def.rateLimits?.length
      ? {
          'x-rate-limit': def.rateLimits.map((r) => ({
            name: r.limit,
            limit: LIMITS[r.limit].limit,
            windowSeconds: LIMITS[r.limit].windowMs / 1000,
            per: r.by,
            countedBy: r.counted ?? 'route',
          })),
        }
      : {}),
    ...(def.resource ? { 'x-resource': def.resource } : {}),
    parameters: [...pathParams, ...(def.query ? queryParameters(def.query) : [])],
    ...(def.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(def.body, 'input') } } } }
      : {}),
    ...(def.raw === 'multipart'
      ? {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: { file: { type: 'string', format: 'binary' } },
                  required: ['file'],
                },
              },
            },
          },
        }
      : {}),
    responses: {
      200: def.stream
        ? streamAnswer(def.response, def.stream.events)
        : { description: 'Success', content: { 'application/json': { schema: toSchema(def.response, 'output') } } },
      ...Object.fromEntries(
        [...statuses].sort().map((status) => [status, { $ref: `#/components/responses/Error${status}` }]),
      ),
    },
  };
}

export function openApiDocument(options: { apiPrefix: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, def] of Object.entries(ROUTES) as Array<[string, RouteDef]>) {
    const [method, path] = splitRouteKey(key);
    (paths[openApiPath(path)] ??= {})[method.toLowerCase()] = operation(key, def);
  }
  const statuses = [...new Set([...Object.values(ERROR_STATUS), 400, 401, 403, 429, 500])].sort();
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Kiraboshi API',
      version: options.version,
      description:
        'Every endpoint of the site. Errors answer `{ success: false, code, message }` with a real HTTP status; messages follow the caller’s language. State-changing calls from another site’s Origin are refused.',
    },
    servers: [{ url: options.apiPrefix }],
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'token',
          description: 'With the `uid` cookie; both are set by user/login.',
        },
      },
      schemas: { Error: toSchema(errorBody, 'output') },
      responses: Object.fromEntries(
        statuses.map((status) => [
          `Error${status}`,
          {
            description: ERROR_CODES.filter((code) => ERROR_STATUS[code] === status).join(', ') || 'Error',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
    paths,
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The document as a readable page (/api/docs): every operation by family, with its permission,
 * parameters and schemas. Plain HTML with no script: a full viewer would weigh megabytes for a
 * page that only lists what openapi.json already says (docs/decisions/0005).
 */
export function openApiPage(document: ReturnType<typeof openApiDocument>): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods) as Array<[string, ReturnType<typeof operation>]>) {
      const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
      const item = `<section id="${escapeHtml(op.operationId)}"><h3><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h3>
<p>${escapeHtml(op.summary)}</p><p>${escapeHtml(op.description)
        .replace(/`([^`]+)`/g, '<code>$1</code>')
        .replace(/\n\n/g, '<br>')}</p>
${op.parameters.length ? `<details><summary>Parameters</summary>${json(op.parameters)}</details>` : ''}
${'requestBody' in op ? `<details><summary>Request body</summary>${json(op.requestBody)}</details>` : ''}
<details><summary>Answers</summary>${json(op.responses)}</details></section>`;
      const list = byTag.get(op.tags[0]) ?? [];
      list.push(item);
      byTag.set(op.tags[0], list);
    }
  }
  const sections = [...byTag].map(([tag, items]) => `<h2>${escapeHtml(tag)}</h2>${items.join('\n')}`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title><link rel="icon" href="data:,"><style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1a1a1a;background:#fff}
h3 code{font-size:1rem}pre{background:#f4f4f4;padding:.5rem;overflow:auto;font-size:.85rem}section{border-top:1px solid #ddd;padding:.25rem 0}
</style></head><body><h1>${escapeHtml(document.info.title)} ${escapeHtml(document.info.version)}</h1>
<p>${escapeHtml(document.info.description)}</p><p>Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
${sections}</body></html>`;
}

import { request as httpRequest } from 'node:http';
import fc from 'fast-check';

/** A JSON Schema node of the OpenAPI document, as far as the generators read it. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApiOperation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  security?: unknown[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** One route of the OpenAPI document with what the fuzzer needs to call and judge it. */
export interface Operation {
  method: string;
  /** The OpenAPI path template, e.g. `/api/secrets/{id}`. */
  path: string;
  parameters: Parameter[];
  bodySchema: JsonSchema | null;
  bodyType: 'json' | 'multipart' | null;
  responses: Map<number, JsonSchema | null>;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const content = op.requestBody?.content ?? {};
      const json = content['application/json']?.schema ?? null;
      const multipart = content['multipart/form-data']?.schema ?? null;
      return {
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        bodySchema: json ?? multipart,
        bodyType: json ? 'json' : multipart ? 'multipart' : null,
        responses: new Map(
          Object.entries(op.responses).map(([status, response]) => [
            Number(status),
            response.content?.['application/json']?.schema ?? null,
          ]),
        ),
      } satisfies Operation;
    }),
  );
}

/** A request ready to send: the generated parts of one call of one operation. */
export interface FuzzRequest {
  operation: Operation;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzOptions {
  /** Ids that exist in the service under test, tried as path ids besides the generated ones. */
  knownIds: Record<string, string[]>;
  /** Longest generated string, in characters (the huge-string case). */
  hugeString: number;
}

// Strings that name places: always loopback, so a valid-looking URL or host never leaves the machine.
const LOOPBACK_URLS = ['http://127.0.0.1:9', 'http://localhost:9/v1', 'https://127.0.0.1:9/', ''];
const LOOPBACK_HOSTS = ['127.0.0.1:9', 'localhost', '[::1]:9'];

/** Text that is not a URL a service could reach: never starts with a scheme. */
const plainText = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constantFrom('', ' ', '..', '../../etc/passwd', '\u0000', 'a\nb', '<script>', '%00', '\ud800'),
  )
  .map((s) => (/^[a-z][a-z0-9+.-]*:/i.test(s) ? `x${s}` : s));

function stringFor(name: string, schema: JsonSchema, options: FuzzOptions): fc.Arbitrary<string> {
  if (/url/i.test(name)) return fc.constantFrom(...LOOPBACK_URLS);
  if (/host/i.test(name)) return fc.constantFrom(...LOOPBACK_HOSTS);
  const sized = fc
    .integer({ min: schema.minLength ?? 0, max: Math.min(schema.maxLength ?? 30, 30) })
    .map((n) => 'a'.repeat(n));
  return fc.oneof(
    { weight: 3, arbitrary: plainText },
    { weight: 2, arbitrary: sized },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(options.hugeString), 'é'.repeat(2000)) },
    ...(schema.pattern ? [{ weight: 2, arbitrary: patternish(schema.pattern) }] : []),
  );
}

/** Strings close to what common id patterns accept. */
function patternish(pattern: string): fc.Arbitrary<string> {
  if (pattern.includes('a-f0-9') || pattern.includes('0-9a-f')) {
    return fc.stringMatching(/^[0-9a-f]{32}$/);
  }
  return fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,20}$/);
}

const schemaTypes = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

/** Values of the schema's shape (often valid, sometimes at or past its limits). */
export function validShaped(
  schema: JsonSchema,
  options: FuzzOptions,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) {
    return fc.oneof(...alternatives.map((s) => validShaped(s, options, name, depth + 1)));
  }
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const types = schemaTypes(schema);
  if (types.length === 0) return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
          return fc.oneof(
            fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1000 }),
            fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 31)),
          );
        case 'number':
          return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1e308));
        case 'string':
          return stringFor(name, schema, options);
        case 'array':
          return depth > 3
            ? fc.constant([])
            : fc.array(validShaped(schema.items ?? {}, options, name, depth + 1), {
                maxLength: Math.min(schema.maxItems ?? 4, 4) + (schema.maxItems ? 1 : 0),
              });
        case 'object':
          return depth > 3 ? fc.constant({}) : objectOf(schema, options, depth);
        default:
          return fc.constant(null);
      }
    }),
  );
}

function objectOf(schema: JsonSchema, options: FuzzOptions, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  if (keys.length === 0) {
    return fc.dictionary(
      fc.string({ maxLength: 12 }),
      validShaped(
        typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {},
        options,
        '',
        depth + 1,
      ),
      { maxKeys: 3 },
    );
  }
  const record = Object.fromEntries(
    keys.map((key) => [key, validShaped(properties[key] ?? {}, options, key, depth + 1)]),
  );
  return fc.record(record, { requiredKeys: schema.required?.filter((k) => keys.includes(k)) ?? [] });
}

/** An array nested `depth` levels deep, as JSON text (JSON.stringify of it would overflow the stack). */
export function deeplyNested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

const wrongTypeValue = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, '', 'abc', [], {}, ['x'], { a: 1 }, '1e400', 'NaN'),
  fc.jsonValue({ maxDepth: 3 }),
);

/** The generated body as text: one of the documented shapes, broken in one of many ways. */
function jsonBodyText(schema: JsonSchema, options: FuzzOptions): fc.Arbitrary<string> {
  const valid = validShaped(schema, options);
  const properties = Object.keys(schema.properties ?? {});
  const field = properties.length ? fc.constantFrom(...properties) : fc.constant('x');
  const withField = (value: fc.Arbitrary<unknown>) =>
    fc
      .tuple(valid, field, value)
      .map(([body, key, v]) =>
        JSON.stringify(
          body && typeof body === 'object' && !Array.isArray(body) ? { ...body, [key]: v } : { [key]: v },
        ),
      );
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 2, arbitrary: withField(wrongTypeValue) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.string({ minLength: 1, maxLength: 20 }), fc.jsonValue({ maxDepth: 1 }))
        .map(([body, key, v]) =>
          JSON.stringify(body && typeof body === 'object' ? { ...body, [key]: v } : { [key]: v }),
        ),
    },
    { weight: 1, arbitrary: wrongTypeValue.map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(field, fc.constantFrom(10, 1000, 100_000))
        .map(([key, depth]) => `{"${key}":${deeplyNested(depth)}}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        deeplyNested(50_000),
        `{"a":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_001)}`,
      ),
    },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constantFrom(
          '{',
          '}',
          '[1,]',
          '{"a":1,}',
          "{'a':1}",
          'nul',
          '{"a":"\\x"}',
          '\ufeff{}',
          '{"a":1}x',
        ),
        fc.string({ maxLength: 30 }),
        valid.map((v) => (JSON.stringify(v) ?? '').slice(0, -1)),
      ),
    },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
];

function bodyFor(operation: Operation, options: FuzzOptions) {
  const schema = operation.bodySchema ?? { type: 'object' };
  const contentType = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constant(operation.bodyType === 'multipart' ? CONTENT_TYPES[5] : CONTENT_TYPES[0]),
    },
    { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  const text = fc.oneof(
    { weight: 8, arbitrary: jsonBodyText(schema, options) },
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: 1,
      arbitrary: fc.constant('--x\r\nContent-Disposition: form-data; name="files"\r\n\r\nab\r\n--x--\r\n'),
    },
  );
  return fc.record({ contentType, text });
}

/** Percent-encoding that survives lone surrogates (sent as U+FFFD, as a browser would). */
function encode(text: string): string {
  return encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));
}

/** Path ids: the known ones, and traversal, encoded, unicode, control and very long forms. */
function pathValue(name: string, options: FuzzOptions): fc.Arbitrary<string> {
  const known = options.knownIds[name] ?? [];
  return fc.oneof(
    ...(known.length ? [{ weight: 4, arbitrary: fc.constantFrom(...known).map(encode) }] : []),
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '..',
        '..%2F..%2Fetc%2Fpasswd',
        '%2e%2e%2f%2e%2e',
        '%252e%252e%252f',
        '..%5C..%5Cwindows',
        '%00',
        '%',
        '%E0%A4%A',
        '%C0%AE%C0%AE',
        'search',
        'count',
        'sbx-unknown',
        'a'.repeat(5000),
        encodeURIComponent('/etc/passwd'),
        encodeURIComponent('ünï©ødé-😀'),
        encodeURIComponent('id with spaces'),
        'x'.repeat(101),
      ),
    },
    // Never empty: `/api/x/` is another route (the list), not a malformed id.
    { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }).map(encode) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{32}$/) },
  );
}

function queryFor(operation: Operation, options: FuzzOptions): fc.Arbitrary<string> {
  const params = operation.parameters.filter((p) => p.in === 'query');
  const valueFor = (p: Parameter) =>
    fc.oneof(
      validShaped(p.schema, options, p.name).map((v) =>
        typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
      ),
      fc.constantFrom('', 'abc', '-1', '0', '1e3', '999999999999999999999', 'true', 'null', '%', '../..'),
      fc.string({ maxLength: 20 }),
    );
  const pairs = fc.array(
    fc.oneof(
      ...(params.length
        ? [
            {
              weight: 4,
              arbitrary: fc
                .constantFrom(...params)
                .chain((p) => valueFor(p).map((v) => [p.name, v] as const)),
            },
          ]
        : []),
      { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })) },
    ),
    { maxLength: 5 },
  );
  const raw = fc.constantFrom('', '?', '?&&', '?a[b]=c', '?limit=1&limit=2', '?%', '?%zz=1', '?=x');
  return fc.oneof(
    {
      weight: 4,
      arbitrary: pairs.map((list) =>
        list.length ? `?${list.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}` : '',
      ),
    },
    { weight: 1, arbitrary: raw },
  );
}

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'Last-Event-ID',
    'Accept',
    'Accept-Encoding',
    'X-Forwarded-For',
    'Origin',
    'X-Custom',
    'Range',
  ),
  fc.oneof(
    fc.constantFrom('5', '-2', 'abc', '*/*', 'text/html', 'gzip', 'http://localhost:5173', 'bytes=0-1', ''),
    fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  ),
  { maxKeys: 2 },
);

/** Requests for one operation. */
export function requestsFor(operation: Operation, options: FuzzOptions): fc.Arbitrary<FuzzRequest> {
  const pathNames = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
  const pathValues = fc.tuple(...pathNames.map((name) => pathValue(name, options)));
  const readsBody = operation.bodyType !== null || operation.method !== 'GET';
  const body = readsBody ? fc.option(bodyFor(operation, options), { freq: 6 }) : fc.constant(null);
  return fc
    .record({ values: pathValues, query: queryFor(operation, options), body, headers: extraHeaders })
    .map(({ values, query, body: generated, headers }) => {
      let i = 0;
      const path = operation.path.replace(/\{\w+\}/g, () => values[i++] ?? '');
      const all: Record<string, string> = { ...headers };
      if (generated && generated.contentType) all['Content-Type'] = generated.contentType;
      const request: FuzzRequest = {
        operation,
        method: operation.method,
        path: `${path}${query}`,
        headers: all,
        ...(generated ? { body: Buffer.from(generated.text, 'utf8') } : {}),
      };
      // fast-check prints a counterexample with this: one line, not the operation and every body byte.
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
    });
}

/** Requests for any of the operations. */
export function anyRequest(operations: Operation[], options: FuzzOptions): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...operations).chain((operation) => requestsFor(operation, options));
}

export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
}

/** Sends one request; a stream (SSE, zip) is read only up to its first chunk. */
export function send(
  port: number,
  key: string,
  request: FuzzRequest,
  timeoutMs = 15_000,
): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.path,
        headers: {
          ...request.headers,
          'X-Session-API-Key': key,
          ...(request.body ? { 'Content-Length': String(request.body.length) } : {}),
        },
      },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        const chunks: Buffer[] = [];
        const streamed = !contentType.startsWith('application/json');
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (streamed) res.destroy();
        });
        const done = () =>
          resolve({ status: res.statusCode ?? 0, contentType, text: Buffer.concat(chunks).toString('utf8') });
        res.on('end', done);
        res.on('close', done);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(request.body);
  });
}

/** What is wrong with an answer, or null when it is a success or a documented rejection. */
export function judge(request: FuzzRequest, response: FuzzResponse): string | null {
  const { status } = response;
  const { operation } = request;
  if (status >= 200 && status < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return `${status} with a body that is not JSON: ${response.text.slice(0, 200)}`;
  }
  const documented = operation.responses.has(status);
  const generic = CONTRACT_WIDE.some(([s, detail]) => s === status && isEqual(body, { detail }));
  if (!documented && !generic) return `undocumented status ${status}: ${response.text.slice(0, 300)}`;
  if (status === 500) return `server error ${status}: ${response.text.slice(0, 300)}`;
  const problem =
    status === 422 ? validationProblem(body) : errorBodyProblem(body, operation.responses.get(status));
  return problem ? `${status} ${problem}: ${response.text.slice(0, 300)}` : null;
}

/**
 * Answers the contract gives any route (api-contract §1, §2): no route for a path id with a `/` or a malformed
 * encoding, an Origin that is not local, and a request head Node's parser refuses.
 */
const CONTRACT_WIDE: [number, string][] = [
  [404, 'Not Found'],
  [405, 'Method Not Allowed'],
  [403, 'Origin not allowed'],
  [431, 'Request header fields too large'],
];

function isEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const LOCATIONS = ['body', 'query', 'path', 'header'];

function validationProblem(body: unknown): string | null {
  const detail = (body as { detail?: unknown }).detail;
  if (!Array.isArray(detail) || detail.length === 0) return 'without a detail array';
  for (const item of detail as Record<string, unknown>[]) {
    const keys = Object.keys(item);
    if (typeof item.type !== 'string' || typeof item.msg !== 'string' || !('input' in item)) {
      return 'with an entry missing type, msg or input';
    }
    if (keys.some((k) => !['type', 'loc', 'msg', 'input', 'ctx'].includes(k)))
      return 'with unknown entry keys';
    const loc = item.loc;
    if (!Array.isArray(loc) || !LOCATIONS.includes(String(loc[0]))) return 'with a bad loc';
    if (loc.some((part) => typeof part !== 'string' && !Number.isInteger(part))) return 'with a bad loc part';
  }
  return null;
}

/** Checks the keys the documented schema requires, with their JSON types; `{"detail": string}` if none. */
function errorBodyProblem(body: unknown, schema: JsonSchema | null | undefined): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'whose body is no object';
  const record = body as Record<string, unknown>;
  const expected = schema ?? {
    type: 'object',
    properties: { detail: { type: 'string' } },
    required: ['detail'],
  };
  for (const key of expected.required ?? []) {
    if (!(key in record)) return `without "${key}"`;
    const types = schemaTypes(expected.properties?.[key] ?? {});
    const actual = record[key] === null ? 'null' : Array.isArray(record[key]) ? 'array' : typeof record[key];
    if (
      types.length &&
      !types.includes(actual === 'number' ? 'number' : actual) &&
      !(actual === 'number' && types.includes('integer'))
    ) {
      return `with "${key}" of type ${actual}`;
    }
  }
  return null;
}

/** A line that names the request for a failure report. */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body
    ? ` body(${request.body.length} B)=${request.body.subarray(0, 160).toString('utf8')}`
    : '';
  return `${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers)}${body}`;
}

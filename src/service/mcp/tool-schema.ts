/** JSON-schema keywords the model providers accept in tool parameters; everything else is stripped. */
const SUPPORTED = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'description',
  'title',
  'default',
  'anyOf',
  'oneOf',
  'allOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'additionalProperties',
  'nullable',
  'examples',
]);

/** Keywords whose value is a map of names to schemas, or a schema, or a list of schemas. */
const SCHEMA_MAPS = new Set(['properties']);
const SCHEMAS = new Set(['items', 'additionalProperties']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf']);

export type JsonSchemaObject = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, unknown>;
  required?: string[];
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves local `#/$defs/X` and `#/definitions/X` references (one schema, no cycles past `depth`). */
function resolveRef(ref: string, root: Record<string, unknown>): unknown {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const defs = root[match[1] as string];
  return isObject(defs) ? defs[decodeURIComponent(match[2] as string)] : undefined;
}

function clean(schema: unknown, root: Record<string, unknown>, depth: number): unknown {
  if (!isObject(schema)) return typeof schema === 'boolean' ? schema : {};
  if (typeof schema.$ref === 'string') {
    const target = depth < 8 ? resolveRef(schema.$ref, root) : undefined;
    return target === undefined ? {} : clean(target, root, depth + 1);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!SUPPORTED.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v, root, depth + 1)]));
    } else if (SCHEMAS.has(key) && (isObject(value) || typeof value === 'boolean')) {
      out[key] = clean(value, root, depth + 1);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v) => clean(v, root, depth + 1));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * An MCP tool's `inputSchema` as the model is given it: an object schema with only supported keywords
 * (local `$ref`s inlined), and without a `security_risk` property of the server's (Dockhand injects its own).
 */
export function cleanToolSchema(inputSchema: unknown): JsonSchemaObject {
  const root = isObject(inputSchema) ? inputSchema : {};
  const cleaned = clean(root, root, 0) as JsonSchemaObject;
  const properties = { ...(isObject(cleaned.properties) ? cleaned.properties : {}) };
  delete properties.security_risk;
  const required = Array.isArray(cleaned.required)
    ? cleaned.required.filter((name): name is string => typeof name === 'string' && name !== 'security_risk')
    : [];
  const result: JsonSchemaObject = { ...cleaned, type: 'object', properties };
  if (required.length) result.required = required;
  else delete result.required;
  return result;
}

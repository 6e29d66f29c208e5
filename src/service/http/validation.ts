import type { z } from 'zod';
import type { ValidationErrorItem } from '../../shared/api/errors';
import type { PydanticIssueParams } from '../../shared/api/fields';

export type Location = 'body' | 'query' | 'path' | 'header';
type Loc = (string | number)[];

/** Thrown by handlers and middleware to answer 422 with FastAPI-shaped entries. */
export class ValidationFailed extends Error {
  constructor(readonly detail: ValidationErrorItem[]) {
    super('Validation failed');
  }
}

/** Parses `value` with `schema`, or throws ValidationFailed with every issue under `location`. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, location: Location): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationFailed(result.error.issues.flatMap((i) => toFastApi(i, [location], value)));
}

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_type', 'Input should be a valid integer'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  array: ['list_type', 'Input should be a valid list'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  map: ['dict_type', 'Input should be a valid dictionary'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
};

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function entry(type: string, loc: Loc, msg: string, input: unknown, ctx?: Record<string, unknown>) {
  const item: ValidationErrorItem = { type, loc, msg, input: input === undefined ? null : input };
  if (ctx) item.ctx = ctx;
  return item;
}

/** Maps one zod issue to the pydantic error entries a FastAPI server would return. */
function toFastApi(issue: z.core.$ZodIssue, prefix: Loc, root: unknown): ValidationErrorItem[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const loc = [...prefix, ...path];
  // Report what the client sent, not what a transform made of it (as pydantic does).
  const sent = valueAt(root, issue.path);
  const input = sent !== undefined ? sent : 'input' in issue ? issue.input : undefined;
  switch (issue.code) {
    case 'custom': {
      const params = issue.params as PydanticIssueParams | undefined;
      if (params?.type) return [entry(params.type, loc, params.msg, input, params.ctx)];
      return [entry('value_error', loc, `Value error, ${issue.message}`, input)];
    }
    case 'invalid_type': {
      if (input === undefined) {
        return [entry('missing', loc, 'Field required', null)];
      }
      const [type, msg] = TYPE_NAMES[issue.expected] ?? ['value_error', `Value error, ${issue.message}`];
      return [entry(type, loc, msg, input)];
    }
    case 'unrecognized_keys': {
      const object = valueAt(root, issue.path) as Record<string, unknown> | undefined;
      return issue.keys.map((key) =>
        entry('extra_forbidden', [...loc, key], 'Extra inputs are not permitted', object?.[key]),
      );
    }
    case 'invalid_value': {
      if (input === undefined) return [entry('missing', loc, 'Field required', null)];
      const expected = quoteList(issue.values);
      return [entry('enum', loc, `Input should be ${expected}`, input, { expected })];
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        return [
          entry('string_too_short', loc, `String should have at least ${plural(min, 'character')}`, input, {
            min_length: min,
          }),
        ];
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        const actual = Array.isArray(input) ? input.length : 0;
        return [
          entry(
            'too_short',
            loc,
            `List should have at least ${plural(min, 'item')} after validation, not ${actual}`,
            input,
            {
              field_type: 'List',
              min_length: min,
              actual_length: actual,
            },
          ),
        ];
      }
      return issue.inclusive
        ? [
            entry('greater_than_equal', loc, `Input should be greater than or equal to ${min}`, input, {
              ge: min,
            }),
          ]
        : [entry('greater_than', loc, `Input should be greater than ${min}`, input, { gt: min })];
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') {
        return [
          entry('string_too_long', loc, `String should have at most ${plural(max, 'character')}`, input, {
            max_length: max,
          }),
        ];
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        const actual = Array.isArray(input) ? input.length : 0;
        return [
          entry(
            'too_long',
            loc,
            `List should have at most ${plural(max, 'item')} after validation, not ${actual}`,
            input,
            {
              field_type: 'List',
              max_length: max,
              actual_length: actual,
            },
          ),
        ];
      }
      return issue.inclusive
        ? [entry('less_than_equal', loc, `Input should be less than or equal to ${max}`, input, { le: max })]
        : [entry('less_than', loc, `Input should be less than ${max}`, input, { lt: max })];
    }
    case 'invalid_format': {
      if (issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string') {
        const pattern = issue.pattern.replace(/^\/(.*)\/[a-z]*$/, '$1');
        return [
          entry('string_pattern_mismatch', loc, `String should match pattern '${pattern}'`, input, {
            pattern,
          }),
        ];
      }
      if (issue.format === 'datetime') {
        const reason =
          typeof input === 'string' && input.length < 10 ? 'input is too short' : 'invalid format';
        return [entry('datetime_parsing', loc, `Input should be a valid datetime, ${reason}`, input)];
      }
      return [entry('value_error', loc, `Value error, ${issue.message}`, input)];
    }
    case 'invalid_key': {
      return issue.issues.flatMap((inner) =>
        toFastApi(
          { ...inner, path: [], input: issue.input } as z.core.$ZodIssue,
          [...loc, '[key]'],
          issue.input,
        ),
      );
    }
    case 'invalid_element': {
      return issue.issues.flatMap((inner) =>
        toFastApi({ ...inner, path: [] } as z.core.$ZodIssue, loc, input),
      );
    }
    case 'invalid_union': {
      // A discriminated union whose tag matches no branch: an enum error on the tag.
      const tagged = issue as typeof issue & { discriminator?: string; options?: unknown[] };
      if (tagged.discriminator && tagged.options && issue.errors.length === 0) {
        const expected = quoteList(tagged.options);
        return [entry('enum', loc, `Input should be ${expected}`, input, { expected })];
      }
      // Report the branch that got furthest: the one with the fewest issues.
      const best = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
      return best.flatMap((inner) => toFastApi({ ...inner, path: [...path, ...inner.path] }, prefix, root));
    }
    default:
      return [entry('value_error', loc, `Value error, ${issue.message}`, input)];
  }
}

/** The 422 entry for a body that is not valid JSON. `offset` is the character where parsing failed. */
export function jsonInvalid(offset: number, error: string): ValidationErrorItem {
  return entry('json_invalid', ['body', offset], 'JSON decode error', {}, { error });
}

/** The 422 entry for a missing body. */
export function bodyMissing(): ValidationErrorItem {
  return entry('missing', ['body'], 'Field required', null);
}

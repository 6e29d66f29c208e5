import { z } from 'zod';

/**
 * Field types that accept what a FastAPI (pydantic, lax mode) server accepts, so clients written for
 * OpenHands behave the same here: numeric strings for numbers, the usual words for booleans.
 * A value that cannot be interpreted becomes a custom issue carrying the pydantic error type,
 * which the HTTP layer turns into the documented 422 body.
 */

export interface PydanticIssueParams {
  type: string;
  msg: string;
  ctx?: Record<string, unknown>;
}

function issue(type: string, msg: string, ctx?: Record<string, unknown>): PydanticIssueParams {
  return ctx ? { type, msg, ctx } : { type, msg };
}

const INT_TEXT = /^\s*[-+]?\d+\s*$/;
const FLOAT_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
const TRUE_WORDS = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/**
 * Each lax field is a preprocess step in front of a plain zod type, so the OpenAPI document shows that
 * type (with its bounds and nullability) while requests may still send the lax forms.
 */
function toInt(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && INT_TEXT.test(value)) return Number.parseInt(value, 10);
  const [type, msg] =
    typeof value === 'string'
      ? ['int_parsing', 'Input should be a valid integer, unable to parse string as an integer']
      : typeof value === 'number'
        ? ['int_from_float', 'Input should be a valid integer, got a number with a fractional part']
        : ['int_type', 'Input should be a valid integer'];
  ctx.addIssue({ code: 'custom', params: issue(type, msg), input: value });
  return z.NEVER;
}

function toNumber(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && FLOAT_TEXT.test(value)) return Number.parseFloat(value);
  const [type, msg] =
    typeof value === 'string'
      ? ['float_parsing', 'Input should be a valid number, unable to parse string as a number']
      : ['float_type', 'Input should be a valid number'];
  ctx.addIssue({ code: 'custom', params: issue(type, msg), input: value });
  return z.NEVER;
}

function toBool(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    ctx.addIssue({
      code: 'custom',
      params: issue('bool_parsing', 'Input should be a valid boolean, unable to interpret input'),
      input: value,
    });
    return z.NEVER;
  }
  ctx.addIssue({
    code: 'custom',
    params: issue('bool_type', 'Input should be a valid boolean'),
    input: value,
  });
  return z.NEVER;
}

/** An integer: numbers with no fraction, or strings of digits. `target` adds bounds. */
export function laxInt(target: z.ZodNumber = z.number().int()) {
  return z.preprocess(toInt, target);
}

/** A finite number, from a JSON number or numeric string. `target` adds bounds. */
export function laxNumber(target: z.ZodNumber = z.number()) {
  return z.preprocess(toNumber, target);
}

/** A boolean, from JSON booleans or the words true/false/1/0/yes/no/on/off. */
export function laxBool() {
  return z.preprocess(toBool, z.boolean());
}

/** Adds a pydantic `value_error` ("Value error, <text>") from inside a refinement. */
export function valueError(
  ctx: z.RefinementCtx,
  text: string,
  input: unknown,
  path?: (string | number)[],
): void {
  ctx.addIssue({
    code: 'custom',
    params: issue('value_error', `Value error, ${text}`),
    input,
    ...(path ? { path } : {}),
  });
}

/** Integer bounded like pydantic's `Field(ge=..., le=...)`. */
export function boundedInt(min: number, max: number) {
  return laxInt(z.number().int().min(min).max(max));
}

/** Paging limit, 1-100. */
export function pageLimit(defaultLimit: number) {
  return boundedInt(1, 100).default(defaultLimit);
}

/** A repeated query parameter (`?id=a&id=b`), 1-100 values. */
export function repeatedIds() {
  return z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z.array(z.string()).min(1).max(100),
  );
}

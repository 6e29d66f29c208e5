import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundedInt, laxBool } from '../../shared/api/fields';
import { GitProvider } from '../../shared/api/settings';
import { validate, ValidationFailed } from './validation';

function errors(schema: z.ZodType, value: unknown, location: 'body' | 'query' = 'body') {
  try {
    validate(schema, value, location);
  } catch (error) {
    if (error instanceof ValidationFailed) return error.detail;
    throw error;
  }
  return [];
}

describe('FastAPI-shaped validation errors', () => {
  it('reports unknown keys of strict objects as extra_forbidden with their input', () => {
    expect(errors(z.strictObject({ a: z.string().optional() }), { colour: 'red' })).toEqual([
      {
        type: 'extra_forbidden',
        loc: ['body', 'colour'],
        msg: 'Extra inputs are not permitted',
        input: 'red',
      },
    ]);
  });

  it('lists the allowed values of an enum', () => {
    const [entry] = errors(z.object({ git_provider: GitProvider }), { git_provider: 'azure_devops' });
    expect(entry).toMatchObject({
      type: 'enum',
      loc: ['body', 'git_provider'],
      msg: "Input should be 'github', 'gitlab', 'bitbucket' or 'enterprise_sso'",
      ctx: { expected: "'github', 'gitlab', 'bitbucket' or 'enterprise_sso'" },
    });
  });

  it('maps bounds, missing fields and boolean words like pydantic', () => {
    const schema = z.object({ limit: boundedInt(1, 100), flag: laxBool(), name: z.string() });
    expect(errors(schema, { limit: '0', flag: 'maybe' }, 'query')).toEqual([
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
      {
        type: 'bool_parsing',
        loc: ['query', 'flag'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      },
      { type: 'missing', loc: ['query', 'name'], msg: 'Field required', input: null },
    ]);
  });

  it('reports string length and pattern with their ctx', () => {
    const schema = z.object({ title: z.string().min(1).max(3), id: z.string().regex(/^[a-z]+$/) });
    expect(errors(schema, { title: '', id: 'A!' })).toEqual([
      {
        type: 'string_too_short',
        loc: ['body', 'title'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
      {
        type: 'string_pattern_mismatch',
        loc: ['body', 'id'],
        msg: "String should match pattern '^[a-z]+$'",
        input: 'A!',
        ctx: { pattern: '^[a-z]+$' },
      },
    ]);
  });

  it('reports a bad datetime as datetime_parsing with a reason', () => {
    const schema = z.object({ at: z.iso.datetime({ offset: true, local: true }) });
    expect(errors(schema, { at: 'yesterday' }, 'query')).toEqual([
      {
        type: 'datetime_parsing',
        loc: ['query', 'at'],
        msg: 'Input should be a valid datetime, input is too short',
        input: 'yesterday',
      },
    ]);
    expect(errors(schema, { at: '2025-13-45T99:00:00Z' }, 'query')[0]).toMatchObject({
      type: 'datetime_parsing',
      msg: 'Input should be a valid datetime, invalid format',
    });
  });
});

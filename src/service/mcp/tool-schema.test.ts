import { describe, expect, it } from 'vitest';
import { cleanToolSchema } from './tool-schema';

describe('cleanToolSchema', () => {
  it('strips unsupported keywords at every depth and inlines local references', () => {
    const cleaned = cleanToolSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'x',
      type: 'object',
      properties: {
        path: { type: 'string', format: 'uri', description: 'Where', contentEncoding: 'utf8' },
        items: { type: 'array', items: { $ref: '#/$defs/Item' }, uniqueItems: true },
      },
      required: ['path'],
      $defs: { Item: { type: 'object', properties: { n: { type: 'integer' } }, if: {} } },
    });
    expect(cleaned).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Where' },
        items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
      required: ['path'],
    });
  });

  it('removes a server-side security_risk property and requirement', () => {
    expect(
      cleanToolSchema({
        type: 'object',
        properties: { q: { type: 'string' }, security_risk: { type: 'string' } },
        required: ['security_risk', 'q'],
      }),
    ).toEqual({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
  });

  it('gives a missing or odd schema an empty object schema', () => {
    expect(cleanToolSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(cleanToolSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
  });
});

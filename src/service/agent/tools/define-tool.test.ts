import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, invalidArgumentsText } from './define-tool';
import { executeBashTool } from './execute-bash';

const Parameters = z
  .object({ path: z.string(), count: z.number().int().default(1) })
  .refine((args) => !args.path.includes('..'), { message: 'path must not climb' });

const countTool = defineTool<z.infer<typeof Parameters>>({
  name: 'count_lines',
  description: 'Counts lines.',
  parameters: Parameters,
  declaresRisk: false,
  hasSideEffects: () => false,
  toAction: ({ path }) => ({ kind: 'read', path, start: 0, end: -1, viewRange: null, thought: '' }),
  analyzed: () => ({ tool: 'think' }),
});

describe('defineTool', () => {
  it('keeps the declaration', () => {
    expect(countTool.name).toBe('count_lines');
    expect(countTool.toAction({ path: '/a', count: 1 }, '')).toMatchObject({ kind: 'read', path: '/a' });
  });

  it('reads the arguments with the defaults and transforms of its parameters', () => {
    expect(countTool.parse({ path: '/a' })).toEqual({ ok: true, args: { path: '/a', count: 1 } });
    expect(executeBashTool.parse({ command: 'ls', is_input: 'true' })).toEqual({
      ok: true,
      args: { command: 'ls', is_input: true },
    });
  });

  it('names each field that does not fit, and the object itself as `arguments`', () => {
    expect(countTool.parse({ path: 3, count: 1.5 })).toEqual({
      ok: false,
      error:
        'Invalid arguments for tool count_lines: path: Invalid input: expected string, received number; ' +
        'count: Invalid input: expected int, received number. Please retry with valid arguments.',
    });
    expect(countTool.parse({ path: '../x' })).toEqual({
      ok: false,
      error:
        'Invalid arguments for tool count_lines: arguments: path must not climb. Please retry with valid arguments.',
    });
  });

  it('passes on why arguments that are not a JSON object could not be read', () => {
    expect(countTool.parse(undefined, 'Unexpected end of JSON input')).toEqual({
      ok: false,
      error: invalidArgumentsText('count_lines', 'Unexpected end of JSON input'),
    });
    expect(invalidArgumentsText('count_lines', 'Unexpected end of JSON input')).toBe(
      'Invalid arguments for tool count_lines: Unexpected end of JSON input. Please retry with valid arguments.',
    );
  });
});

import { describe, expect, it } from 'vitest';
import {
  formatToolResult,
  IMAGE_OMITTED,
  MAX_RESULT_CHARS,
  timeoutResult,
  unavailableResult,
} from './tool-result';

const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };

describe('formatToolResult', () => {
  it('joins text parts', () => {
    const result = {
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    };
    expect(formatToolResult(result, false)).toEqual({ text: 'one\ntwo', images: [], isError: false });
  });

  it('keeps images only for vision models', () => {
    const result = { content: [{ type: 'text', text: 'see' }, image] };
    expect(formatToolResult(result, false).text).toBe(`see\n${IMAGE_OMITTED}`);
    expect(formatToolResult(result, true)).toEqual({
      text: 'see',
      images: [{ data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
      isError: false,
    });
    const svg = { content: [{ ...image, mimeType: 'image/svg+xml' }] };
    expect(formatToolResult(svg, true)).toEqual({ text: IMAGE_OMITTED, images: [], isError: false });
  });

  it('caps the text at 30,000 characters, keeping both ends', () => {
    const text = `START${'x'.repeat(50_000)}END`;
    const formatted = formatToolResult({ content: [{ type: 'text', text }] }, false).text;
    expect(formatted.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(formatted.startsWith('START')).toBe(true);
    expect(formatted.endsWith('END')).toBe(true);
  });

  it('uses structured content when there is no text', () => {
    expect(formatToolResult({ content: [], structuredContent: { n: 1 } }, false).text).toBe('{"n":1}');
  });

  it('turns isError results and failures into the exact error JSON', () => {
    expect(formatToolResult({ content: [{ type: 'text', text: 'boom' }], isError: true }, false)).toEqual({
      text: '{"isError":true,"error":"boom"}',
      images: [],
      isError: true,
    });
    expect(timeoutResult('slow', 60)).toBe(
      '{"isError":true,"error":"Tool \\"slow\\" timed out after 60 seconds"}',
    );
    expect(unavailableResult('fs', 'gone')).toBe(
      '{"isError":true,"error":"MCP server \\"fs\\" is not available: gone"}',
    );
  });
});

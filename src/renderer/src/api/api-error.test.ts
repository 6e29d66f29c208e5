import { describe, expect, it } from 'vitest';
import { errorFromResponse } from './api-error';

function answer(status: number, statusText = '', headers: Record<string, string> = {}): Response {
  return new Response(null, { status, statusText, headers });
}

describe('errorFromResponse', () => {
  it('turns a 422 list into field issues with plain messages', () => {
    const error = errorFromResponse(answer(422), {
      detail: [
        { type: 'greater_than_equal', loc: ['body', 'max_iterations'], msg: 'x', input: 0, ctx: { ge: 1 } },
        {
          type: 'value_error',
          loc: ['body', 'mcp_config', 'sse_servers', 0, 'url'],
          msg: 'Value error, Bad URL',
          input: 'u',
        },
        { type: 'missing', loc: ['query', 'limit'], msg: 'Field required', input: null },
      ],
    });
    expect(error.status).toBe(422);
    expect(error.issues).toEqual([
      { field: 'max_iterations', type: 'greater_than_equal', message: 'Enter 1 or more.' },
      { field: 'mcp_config.sse_servers.0.url', type: 'value_error', message: 'Bad URL' },
      { field: '', type: 'missing', message: 'Required.' },
    ]);
    expect(error.message).toBe(
      'Some values were not accepted: max_iterations: Enter 1 or more.; mcp_config.sse_servers.0.url: Bad URL; Required.',
    );
  });

  it('names the error id of an internal error', () => {
    const error = errorFromResponse(answer(500), { detail: 'Internal server error', error_id: 'abc-123' });
    expect(error.message).toContain('error id abc-123');
    expect(error.issues).toEqual([]);
  });

  it('uses the detail text, and says when to retry after a 429', () => {
    expect(errorFromResponse(answer(409), { detail: 'Secret A already exists' }).message).toBe(
      'Secret A already exists.',
    );
    expect(
      errorFromResponse(answer(429, '', { 'Retry-After': '3' }), { detail: 'Too many requests' }).message,
    ).toBe('Too many requests. Try again in 3 s.');
  });

  it('keeps the message id of an OpenHands status error', () => {
    const error = errorFromResponse(answer(400), {
      status: 'error',
      message: 'Settings not found',
      msg_id: 'CONFIGURATION$SETTINGS_NOT_FOUND',
    });
    expect(error).toMatchObject({
      status: 400,
      message: 'Settings not found.',
      code: 'CONFIGURATION$SETTINGS_NOT_FOUND',
    });
  });

  it('falls back to the status line for bodies that are not the documented JSON', () => {
    const error = errorFromResponse(answer(502, 'Bad Gateway'), '<html>proxy error</html>');
    expect(error).toMatchObject({ status: 502, message: 'The Dockhand service answered 502 Bad Gateway.' });
  });
});

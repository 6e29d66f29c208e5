import { describe, expect, it } from 'vitest';
import { sandboxKeyScope } from './api-keys';
import { defineRoute, type RouteSpec } from './routes';

const route = (method: RouteSpec['method'], path: string, sandboxKey?: boolean) =>
  defineRoute({
    method,
    path,
    summary: path,
    tag: 'test',
    responses: {},
    handler: () => true,
    ...(sandboxKey ? { sandboxKey } : {}),
  });

const scope = sandboxKeyScope([
  route('get', '/api/conversations/:id', true),
  route('patch', '/api/conversations/:id'),
  route('post', '/api/conversations/:id/message', true),
  route('get', '/api/conversations/:id/events/stream', true),
  route('post', '/api/conversations/:id/local-repository/export'),
  route('get', '/api/conversations'),
]);

describe('sandboxKeyScope', () => {
  it('names the conversation of a route marked sandboxKey, for its own method only', () => {
    expect(scope({ method: 'GET', path: '/api/conversations/abc' })).toBe('abc');
    expect(scope({ method: 'HEAD', path: '/api/conversations/abc' })).toBe('abc');
    expect(scope({ method: 'POST', path: '/api/conversations/abc/message' })).toBe('abc');
    expect(scope({ method: 'GET', path: '/api/conversations/a%20b/events/stream' })).toBe('a b');
  });

  it('names none for unmarked routes, other methods, unknown paths, other spellings or a bad encoding', () => {
    expect(scope({ method: 'PATCH', path: '/api/conversations/abc' })).toBeUndefined();
    expect(scope({ method: 'DELETE', path: '/api/conversations/abc' })).toBeUndefined();
    expect(scope({ method: 'GET', path: '/api/conversations/abc/message' })).toBeUndefined();
    expect(scope({ method: 'POST', path: '/api/conversations/abc/local-repository/export' })).toBeUndefined();
    expect(scope({ method: 'POST', path: '/api/conversations/abc/nope' })).toBeUndefined();
    expect(scope({ method: 'GET', path: '/api/conversations' })).toBeUndefined();
    expect(scope({ method: 'GET', path: '/API/conversations/abc' })).toBeUndefined();
    expect(scope({ method: 'GET', path: '/api/conversations/abc/' })).toBeUndefined();
    expect(scope({ method: 'GET', path: '/api/conversations/%E0%A4%A/events/stream' })).toBeUndefined();
  });

  it('refuses to mark a route that names no conversation', () => {
    expect(() => sandboxKeyScope([route('get', '/api/settings', true)])).toThrow(/names no conversation/);
  });
});

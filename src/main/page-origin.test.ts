import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN, isHttpsUrl, originOf } from './page-origin';

describe('originOf', () => {
  it('gives app://dockhand for app pages, which WHATWG URL would call "null"', () => {
    expect(new URL(APP_ENTRY_URL).origin).toBe('null');
    expect(originOf(APP_ENTRY_URL)).toBe(APP_ORIGIN);
    expect(originOf('app://dockhand/conversations/1?x=1#y')).toBe('app://dockhand');
  });

  it('keeps the port of http origins and tells hosts apart', () => {
    expect(originOf('http://127.0.0.1:5173/index.html')).toBe('http://127.0.0.1:5173');
    expect(originOf('app://dockhand.evil/index.html')).toBe('app://dockhand.evil');
  });

  it('is null for unparsable or host-less URLs', () => {
    expect(originOf('not a url')).toBeNull();
    expect(originOf('file:///etc/passwd')).toBeNull();
    expect(originOf('data:text/html,hi')).toBeNull();
  });
});

describe('isHttpsUrl', () => {
  it('accepts https only', () => {
    expect(isHttpsUrl('https://docs.docker.com/')).toBe(true);
    expect(isHttpsUrl('http://example.com/')).toBe(false);
    expect(isHttpsUrl('file:///etc/passwd')).toBe(false);
    expect(isHttpsUrl('javascript:alert(1)')).toBe(false);
    expect(isHttpsUrl('garbage')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './content-security-policy';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  const csp = contentSecurityPolicy('http://127.0.0.1:41234');

  it('lets the page connect to exactly the service origin, over HTTP and its websocket', () => {
    expect(directives(csp).get('connect-src')).toEqual(['http://127.0.0.1:41234', 'ws://127.0.0.1:41234']);
  });

  it('names no other network origin anywhere but loopback frames (the sandbox app previews)', () => {
    const origins = csp.match(/\b[a-z][a-z0-9+.-]*:\/\/[^\s;]+/g);
    expect(origins).toEqual([
      'http://127.0.0.1:41234',
      'ws://127.0.0.1:41234',
      'http://127.0.0.1:*',
      'http://localhost:*',
    ]);
    expect(directives(csp).get('frame-src')).toEqual(['http://127.0.0.1:*', 'http://localhost:*']);
  });

  it('denies by default and allows scripts from the app itself only', () => {
    const parsed = directives(csp);
    expect(parsed.get('default-src')).toEqual(["'none'"]);
    expect(parsed.get('script-src')).toEqual(["'self'"]);
    expect(parsed.get('object-src')).toEqual(["'none'"]);
    expect(parsed.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });

  it('refuses anything but the loopback service origin', () => {
    for (const origin of [
      'http://localhost:3000',
      'https://127.0.0.1:3000',
      'http://127.0.0.1',
      '*',
      'http://127.0.0.1:1 https://evil.example',
    ]) {
      expect(() => contentSecurityPolicy(origin)).toThrow(/127\.0\.0\.1/);
    }
  });
});

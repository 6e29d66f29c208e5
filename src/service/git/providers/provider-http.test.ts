import { describe, expect, it } from 'vitest';
import { hasNextLink, isRateLimited, retryAfterSeconds } from './provider-http';

const response = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers });

describe('isRateLimited', () => {
  it('is any 429, and a 403 with an exhausted quota or a Retry-After', () => {
    expect(isRateLimited(response(429))).toBe(true);
    expect(isRateLimited(response(403, { 'x-ratelimit-remaining': '0' }))).toBe(true);
    expect(isRateLimited(response(403, { 'retry-after': '60' }))).toBe(true);
  });

  it('is not a plain 403 (missing scope, SSO) or a 403 with quota left', () => {
    expect(isRateLimited(response(403))).toBe(false);
    expect(isRateLimited(response(403, { 'x-ratelimit-remaining': '12' }))).toBe(false);
    expect(isRateLimited(response(500, { 'retry-after': '5' }))).toBe(false);
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('takes Retry-After first, then the reset time of GitHub or GitLab, else 60', () => {
    expect(
      retryAfterSeconds(new Headers({ 'retry-after': '30', 'x-ratelimit-reset': '9999999999' }), now),
    ).toBe(30);
    expect(retryAfterSeconds(new Headers({ 'x-ratelimit-reset': String(now / 1000 + 90) }), now)).toBe(90);
    expect(retryAfterSeconds(new Headers({ 'ratelimit-reset': String(now / 1000 + 5) }), now)).toBe(5);
    expect(retryAfterSeconds(new Headers(), now)).toBe(60);
  });

  it('is at least one second', () => {
    expect(retryAfterSeconds(new Headers({ 'retry-after': '0' }), now)).toBe(1);
    expect(retryAfterSeconds(new Headers({ 'x-ratelimit-reset': String(now / 1000 - 10) }), now)).toBe(1);
  });
});

describe('hasNextLink', () => {
  it('finds rel="next" among the links, quoted or not', () => {
    expect(
      hasNextLink('<https://api.example/x?page=2>; rel="next", <https://api.example/x?page=5>; rel="last"'),
    ).toBe(true);
    expect(hasNextLink('<https://api.example/x?page=2>; rel=next')).toBe(true);
    expect(hasNextLink('<https://api.example/x?page=1>; rel="prev next"')).toBe(true);
  });

  it('is false on the last page and without a header', () => {
    expect(
      hasNextLink('<https://api.example/x?page=1>; rel="first", <https://api.example/x?page=1>; rel="prev"'),
    ).toBe(false);
    expect(hasNextLink('<https://api.example/next?page=1>; rel="first"')).toBe(false);
    expect(hasNextLink(null)).toBe(false);
  });
});

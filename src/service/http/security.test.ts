import { describe, expect, it } from 'vitest';
import { extraOriginsFromEnvironment, isAllowedHost, isAllowedOrigin, type OriginPolicy } from './security';

const policy: OriginPolicy = { ports: () => [4000], extra: [] };

describe('isAllowedOrigin', () => {
  it('allows the service’s own origins and the desktop app', () => {
    for (const origin of [
      'http://127.0.0.1:4000',
      'http://localhost:4000',
      'http://[::1]:4000',
      'app://dockhand',
    ]) {
      expect(isAllowedOrigin(origin, policy), origin).toBe(true);
    }
  });

  it('refuses other local ports, other schemes, look-alikes and null', () => {
    for (const origin of [
      'http://localhost:4001',
      'http://127.0.0.1:5173',
      'http://localhost',
      'https://localhost:4000',
      'http://localhost:4000.evil.example',
      'http://127.0.0.2:4000',
      'app://dockhand.evil',
      'null',
      '',
    ]) {
      expect(isAllowedOrigin(origin, policy), origin).toBe(false);
    }
  });

  it('allows an extra origin only when it is listed', () => {
    expect(isAllowedOrigin('http://localhost:5173', { ...policy, extra: ['http://localhost:5173'] })).toBe(
      true,
    );
    expect(isAllowedOrigin('http://localhost:5174', { ...policy, extra: ['http://localhost:5173'] })).toBe(
      false,
    );
  });
});

describe('isAllowedHost', () => {
  it('accepts loopback names on the given ports only', () => {
    expect(isAllowedHost('LOCALHOST:4000', [4000])).toBe(true);
    expect(isAllowedHost('[::1]:4001', [4000, 4001])).toBe(true);
    for (const host of ['localhost', 'localhost:4001', 'evil.example:4000', undefined]) {
      expect(isAllowedHost(host, [4000]), String(host)).toBe(false);
    }
  });
});

describe('extraOriginsFromEnvironment', () => {
  it('is empty unless DOCKHAND_ALLOWED_ORIGINS lists origins', () => {
    expect(extraOriginsFromEnvironment({})).toEqual([]);
    expect(
      extraOriginsFromEnvironment({
        DOCKHAND_ALLOWED_ORIGINS: 'http://localhost:5173, http://127.0.0.1:5174',
      }),
    ).toEqual(['http://localhost:5173', 'http://127.0.0.1:5174']);
  });

  it('stops on a value that is not an origin', () => {
    for (const value of ['*', 'localhost:5173', 'http://localhost:5173/', 'http://localhost:5173/path']) {
      expect(() => extraOriginsFromEnvironment({ DOCKHAND_ALLOWED_ORIGINS: value }), value).toThrow(
        /DOCKHAND_ALLOWED_ORIGINS must list origins/,
      );
    }
  });
});

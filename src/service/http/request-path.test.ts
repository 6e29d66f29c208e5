import { describe, expect, it } from 'vitest';
import { normalisePath } from './request-path';

describe('normalisePath', () => {
  it('keeps a canonical path as it is, letter case included', () => {
    for (const path of ['/', '/api/settings', '/API/Settings', '/api/conversations/a%20b/events']) {
      expect(normalisePath(path)).toBe(path);
    }
  });

  it('removes duplicate and trailing slashes', () => {
    expect(normalisePath('//api//settings/')).toBe('/api/settings');
    expect(normalisePath('///')).toBe('/');
  });

  it('decodes escaped unreserved characters, in either hex case, but keeps escaped separators', () => {
    expect(normalisePath('/%61pi/%73ETTINGS')).toBe('/api/sETTINGS');
    expect(normalisePath('/api/%7e%2D%5f%2e%30')).toBe('/api/~-_.0');
    expect(normalisePath('/api%2Fsettings')).toBe('/api%2Fsettings');
    expect(normalisePath('/api/a%20b%3F')).toBe('/api/a%20b%3F');
    expect(normalisePath('/api/%zz%4')).toBe('/api/%zz%4');
  });

  it('removes dot segments, escaped ones too, never climbing above the root', () => {
    expect(normalisePath('/./api/./settings')).toBe('/api/settings');
    expect(normalisePath('/x/../api/settings')).toBe('/api/settings');
    expect(normalisePath('/x/%2e%2E/api/%2E/settings')).toBe('/api/settings');
    expect(normalisePath('/../../api/settings/..')).toBe('/api');
    expect(normalisePath('/api/...')).toBe('/api/...');
  });
});

import { describe, expect, it } from 'vitest';
import { LiveSecretMasker, SECRET_PLACEHOLDER, SecretMasker } from './secret-masker';

describe('SecretMasker', () => {
  it('hides secrets at any depth, in keys and values', () => {
    const masker = new SecretMasker(['s3cr3t-v4lue']);
    const masked = masker.mask({ a: ['x s3cr3t-v4lue y'], b: { 's3cr3t-v4lue': 1 }, n: 3, nil: null });
    expect(masked).toEqual({
      a: [`x ${SECRET_PLACEHOLDER} y`],
      b: { [SECRET_PLACEHOLDER]: 1 },
      n: 3,
      nil: null,
    });
  });

  it('hides URL-encoded and base64 forms, including Basic auth with a provider user', () => {
    const secret = 'tok/en+with=chars';
    const masker = new SecretMasker([secret]);
    const basic = Buffer.from(`x-access-token:${secret}`).toString('base64');
    const text = `${encodeURIComponent(secret)} ${Buffer.from(secret).toString('base64')} Basic ${basic}`;
    expect(masker.maskText(text)).toBe(
      `${SECRET_PLACEHOLDER} ${SECRET_PLACEHOLDER} Basic ${SECRET_PLACEHOLDER}`,
    );
  });

  it('replaces the longest secret first', () => {
    const masker = new SecretMasker(['abcd', 'abcdefgh']);
    expect(masker.maskText('abcdefgh abcd')).toBe(`${SECRET_PLACEHOLDER} ${SECRET_PLACEHOLDER}`);
  });

  it('treats regex characters literally and ignores very short values', () => {
    const masker = new SecretMasker(['a.b*c(d)', 'ab']);
    expect(masker.maskText('a.b*c(d) aXbc ab')).toBe(`${SECRET_PLACEHOLDER} aXbc ab`);
  });
});

describe('LiveSecretMasker', () => {
  it('follows secrets as they are added, changed and removed', () => {
    let secrets = ['first-secret'];
    const masker = new LiveSecretMasker(() => secrets);
    expect(masker.maskText('first-secret second-secret')).toBe(`${SECRET_PLACEHOLDER} second-secret`);
    secrets = ['first-secret', 'second-secret'];
    expect(masker.mask({ text: 'first-secret second-secret' })).toEqual({
      text: `${SECRET_PLACEHOLDER} ${SECRET_PLACEHOLDER}`,
    });
    expect(masker.longest).toBe(new SecretMasker(secrets).longest);
    secrets = ['changed-secret'];
    expect(masker.maskText('first-secret changed-secret')).toBe(`first-secret ${SECRET_PLACEHOLDER}`);
    secrets = [];
    expect(masker.maskText('changed-secret')).toBe('changed-secret');
  });
});

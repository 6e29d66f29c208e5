import { describe, expect, it } from 'vitest';
import { LiveSecretMasker, MIN_DERIVED_LENGTH, SECRET_PLACEHOLDER, SecretMasker } from './secret-masker';

const SECRET = 'ghp_S3cr3t/Tok+en~with=chars?';

/** `text` cut into lines of `width` characters, as `base64 -w` and `xxd -p` print it. */
function wrap(text: string, width: number, eol = '\n'): string {
  return (text.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join(eol);
}

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

  it('hides every URL encoding: each reserved character encoded or not, either hex case, + for space', () => {
    const secret = "p@ss w0rd/(x)!*'é";
    const masker = new SecretMasker([secret]);
    const strict = [...Buffer.from(secret)]
      .map((b) =>
        /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
          ? String.fromCharCode(b)
          : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
      )
      .join('');
    for (const encoded of [
      encodeURIComponent(secret),
      encodeURI(secret),
      strict,
      strict.toLowerCase(), // the secret is lower case: only the hex digits change
      strict.replace('%20', '+'),
      encodeURIComponent(secret).replace(/%2F/g, '%2f'),
    ]) {
      expect(masker.maskText(`?q=${encoded}&n=1`), encoded).toBe(`?q=${SECRET_PLACEHOLDER}&n=1`);
    }
  });

  it.each(['base64', 'base64url'] as const)(
    'hides %s at each of the three alignments in a longer stream',
    (alphabet) => {
      const masker = new SecretMasker([SECRET]);
      const secret = Buffer.from(SECRET);
      for (let before = 0; before < 6; before++) {
        for (let after = 0; after < 4; after++) {
          const encoded = Buffer.concat([
            Buffer.alloc(before, 0xfb),
            secret,
            Buffer.alloc(after, 0xff),
          ]).toString(alphabet);
          // Every character whose six bits all come from the secret is hidden, and nothing else.
          const start = Math.ceil((before * 8) / 6);
          const end = Math.floor(((before + secret.length) * 8) / 6);
          const masked = masker.maskText(encoded);
          expect(masked.startsWith(encoded.slice(0, start) + SECRET_PLACEHOLDER), `${before}/${after}`).toBe(
            true,
          );
          expect(masked.length).toBeLessThanOrEqual(start + SECRET_PLACEHOLDER.length + encoded.length - end);
        }
      }
    },
  );

  it.each([76, 20])('hides base64 wrapped at %i columns, with \\n or \\r\\n', (width) => {
    const masker = new SecretMasker([SECRET.repeat(3)]);
    for (const eol of ['\n', '\r\n']) {
      for (const prefix of ['', 'a', 'ab']) {
        const encoded = Buffer.from(`${prefix}${SECRET.repeat(3)}\n`).toString('base64');
        const masked = masker.maskText(`head\n${wrap(encoded, width, eol)}${eol}tail`);
        expect(masked).toContain(SECRET_PLACEHOLDER);
        // At most a group of four characters either side survives, plus the line breaks outside the match.
        const rest = masked.replace(SECRET_PLACEHOLDER, '').replace(/\s/g, '');
        expect(rest.length, `${eol === '\n' ? 'LF' : 'CRLF'} ${prefix}`).toBeLessThanOrEqual(
          'headtail'.length + 8,
        );
        expect(masked.startsWith('head\n')).toBe(true);
        expect(masked.endsWith(`${eol}tail`)).toBe(true);
      }
    }
  });

  it('hides hex in either case, wrapped as xxd -p wraps it', () => {
    const masker = new SecretMasker([SECRET]);
    const hex = Buffer.from(`${SECRET}\n`).toString('hex');
    expect(masker.maskText(hex)).toBe(`${SECRET_PLACEHOLDER}0a`);
    expect(masker.maskText(hex.toUpperCase())).toBe(`${SECRET_PLACEHOLDER}0A`);
    expect(masker.maskText(wrap(hex, 60))).toBe(`${SECRET_PLACEHOLDER}0a`);
  });

  it('hides the reversed value', () => {
    const masker = new SecretMasker([SECRET]);
    expect(masker.maskText(`${[...SECRET].reverse().join('')}\n`)).toBe(`${SECRET_PLACEHOLDER}\n`);
  });

  it('hides a value cut by line breaks and keeps the line breaks around it', () => {
    const masker = new SecretMasker([SECRET]);
    expect(masker.maskText(`one\r\n${wrap(SECRET, 10)}\ntwo\n`)).toBe(`one\r\n${SECRET_PLACEHOLDER}\ntwo\n`);
    expect(masker.maskText('one\ntwo\r\n')).toBe('one\ntwo\r\n');
  });

  it(`masks values under ${MIN_DERIVED_LENGTH} characters only as is, URL-encoded and as whole base64`, () => {
    const short = 'abc/123';
    const masker = new SecretMasker([short]);
    const hidden = [short, encodeURIComponent(short), Buffer.from(short).toString('base64')];
    expect(masker.maskText(hidden.join(' '))).toBe(hidden.map(() => SECRET_PLACEHOLDER).join(' '));
    const kept = [
      [...short].reverse().join(''),
      Buffer.from(short).toString('hex'),
      Buffer.from(`x${short}`).toString('base64'),
    ];
    expect(masker.maskText(kept.join(' '))).toBe(kept.join(' '));
  });

  it('bounds the text one match can span by `longest`', () => {
    const masker = new SecretMasker([SECRET]);
    const strict = SECRET.replace(/[^A-Za-z0-9\-._~]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
    const widest = wrap(strict, 1, '\r\n');
    expect(masker.maskText(widest)).toBe(SECRET_PLACEHOLDER);
    expect(widest.length).toBeLessThanOrEqual(masker.longest);
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

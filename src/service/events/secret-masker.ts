export const SECRET_PLACEHOLDER = '<secret_hidden>';

/** Values shorter than this are not masked: they would hide ordinary words. */
const MIN_SECRET_LENGTH = 4;

/** The forms a secret can take in text: as is, URL-encoded, base64 (also as `user:secret` for Basic auth). */
function encodedForms(secret: string, users: string[]): string[] {
  const forms = [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
  for (const user of users) forms.push(Buffer.from(`${user}:${secret}`).toString('base64'));
  return forms;
}

/**
 * Replaces every registered secret with `<secret_hidden>` in strings at any depth.
 * Longest forms are replaced first so a secret that contains another is hidden whole.
 */
export class SecretMasker {
  private forms: string[] = [];
  private pattern: RegExp | null = null;

  constructor(
    secrets: Iterable<string> = [],
    private readonly users: string[] = ['x-access-token', 'oauth2', 'x-token-auth'],
  ) {
    this.add(secrets);
  }

  /** Registers more secret values. */
  add(secrets: Iterable<string>): void {
    const next = new Set(this.forms);
    for (const secret of secrets) {
      if (secret.length < MIN_SECRET_LENGTH) continue;
      for (const form of encodedForms(secret, this.users)) next.add(form);
    }
    this.forms = [...next].sort((a, b) => b.length - a.length);
    this.pattern = this.forms.length
      ? new RegExp(this.forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g')
      : null;
  }

  /** The longest registered form: streamed text is held back by this much minus one. */
  get longest(): number {
    return this.forms[0]?.length ?? 0;
  }

  maskText(text: string): string {
    return this.pattern ? text.replace(this.pattern, SECRET_PLACEHOLDER) : text;
  }

  /** A deep copy of `value` with every string masked (object keys too). */
  mask<T>(value: T): T {
    if (!this.pattern) return value;
    return this.maskValue(value) as T;
  }

  private maskValue(value: unknown): unknown {
    if (typeof value === 'string') return this.maskText(value);
    if (Array.isArray(value)) return value.map((v) => this.maskValue(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.maskText(k), this.maskValue(v)]));
    }
    return value;
  }
}

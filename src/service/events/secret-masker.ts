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
    this.build(new Set(this.forms), secrets);
  }

  /** Replaces every registered secret with `secrets` (one was removed or changed). */
  protected reset(secrets: Iterable<string>): void {
    this.build(new Set(), secrets);
  }

  private build(next: Set<string>, secrets: Iterable<string>): void {
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
    return this.replace(text);
  }

  /** A deep copy of `value` with every string masked (object keys too). */
  mask<T>(value: T): T {
    if (!this.pattern) return value;
    return this.maskValue(value) as T;
  }

  private replace(text: string): string {
    return this.pattern ? text.replace(this.pattern, SECRET_PLACEHOLDER) : text;
  }

  private maskValue(value: unknown): unknown {
    if (typeof value === 'string') return this.replace(value);
    if (Array.isArray(value)) return value.map((v) => this.maskValue(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.replace(k), this.maskValue(v)]));
    }
    return value;
  }
}

/**
 * A masker that follows a changing set of secrets: before each use it reads the current values and, when any
 * was added, changed or removed since the last use, rebuilds itself. One instance serves every conversation,
 * running ones included, so a secret saved mid-conversation is masked from its next event on.
 */
export class LiveSecretMasker extends SecretMasker {
  private seen: readonly string[] = [];

  constructor(private readonly current: () => readonly string[]) {
    super();
  }

  override get longest(): number {
    this.refresh();
    return super.longest;
  }

  override maskText(text: string): string {
    this.refresh();
    return super.maskText(text);
  }

  override mask<T>(value: T): T {
    this.refresh();
    return super.mask(value);
  }

  private refresh(): void {
    const values = this.current();
    if (values.length === this.seen.length && values.every((value, i) => value === this.seen[i])) return;
    this.seen = [...values];
    this.reset(values);
  }
}

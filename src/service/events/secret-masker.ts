export const SECRET_PLACEHOLDER = '<secret_hidden>';

/** Values shorter than this are not masked: they would hide ordinary words. */
const MIN_SECRET_LENGTH = 4;

/**
 * Values shorter than this are masked only as is, URL-encoded and as whole base64: their other forms (reversed,
 * hex, a few base64 characters inside a longer stream) are short enough to turn up in ordinary output.
 */
export const MIN_DERIVED_LENGTH = 8;

const BASIC_USERS = ['x-access-token', 'oauth2', 'x-token-auth'];

/** One form of a secret as a regex source, with the longest text a match can span (line breaks included). */
interface Form {
  source: string;
  maxLength: number;
}

interface Unit {
  source: string;
  maxLength: number;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Units, each matching one character of a form (or its other spellings); a `\r\n` may follow any but the last. */
function form(units: Unit[]): Form {
  return {
    source: units.map((u) => u.source).join(''),
    maxLength: units.reduce((sum, u) => sum + u.maxLength, 0) + (units.length - 1) * 2,
  };
}

function literal(char: string): Unit {
  return { source: escape(char), maxLength: char.length };
}

/** `%2f` or `%2F`. */
function percentByte(byte: number): string {
  const hex = byte.toString(16).toUpperCase().padStart(2, '0');
  return `%${[...hex].map((c) => (/[A-F]/.test(c) ? `[${c}${c.toLowerCase()}]` : c)).join('')}`;
}

/**
 * The secret as is or URL-encoded in any mix: every character outside RFC 3986's unreserved set may stand as
 * itself or as its UTF-8 bytes percent-encoded (either hex case), a space also as `+` (form encoding).
 */
function urlForm(secret: string): Form {
  const units = [...secret].map((char): Unit => {
    if (/^[A-Za-z0-9\-._~]$/.test(char)) return literal(char);
    const bytes = [...Buffer.from(char)];
    const spellings = [escape(char), bytes.map(percentByte).join('')];
    if (char === ' ') spellings.push('\\+');
    return { source: `(?:${spellings.join('|')})`, maxLength: bytes.length * 3 };
  });
  return form(units);
}

/** Base64 text in the standard or the URL alphabet. */
function base64Form(encoded: string): Form {
  const units = [...encoded].map((char): Unit => {
    if (char === '+') return { source: '[+\\-]', maxLength: 1 };
    if (char === '/') return { source: '[/_]', maxLength: 1 };
    return literal(char);
  });
  return form(units);
}

/**
 * The base64 characters that depend only on `bytes` wherever they sit in a longer stream: for each of the three
 * alignments (the bytes start 0, 1 or 2 bytes into a 3-byte group), the characters whose 6 bits all come from
 * `bytes`. Characters at either end, shared with neighbouring bytes, are left out.
 */
function alignedBase64(bytes: Buffer): string[] {
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    return encoded.slice(start, end);
  });
}

/** Hex of the UTF-8 bytes, either case (`xxd -p`). */
function hexForm(bytes: Buffer): Form {
  const units = [...bytes.toString('hex')].map((c): Unit =>
    /[a-f]/.test(c) ? { source: `[${c}${c.toUpperCase()}]`, maxLength: 1 } : literal(c),
  );
  return form(units);
}

/** Every form of one secret that the masker recognises. */
function formsOf(secret: string, users: string[]): Form[] {
  const bytes = Buffer.from(secret);
  const forms = [urlForm(secret), base64Form(bytes.toString('base64'))];
  for (const user of users) forms.push(base64Form(Buffer.from(`${user}:${secret}`).toString('base64')));
  if (secret.length < MIN_DERIVED_LENGTH) return forms;
  for (const encoded of alignedBase64(bytes)) forms.push(base64Form(encoded));
  forms.push(hexForm(bytes), urlForm([...secret].reverse().join('')));
  return forms;
}

/**
 * Replaces every registered secret with `<secret_hidden>` in strings at any depth: as is, URL-encoded (any mix
 * of encoded characters, either hex case, `+` for space), in base64 and base64url at any of the three
 * alignments inside a longer stream (also as `user:secret` for Basic auth), as hex in either case, and
 * reversed; any of them also when line breaks cut it (wrapped output, `fold`). All forms of all secrets are
 * one regular expression, built when the set changes; longer forms come first so a secret that contains
 * another is hidden whole. Values of 4 to 7 characters get only the first three forms (`MIN_DERIVED_LENGTH`).
 */
export class SecretMasker {
  private forms: Form[] = [];
  private pattern: RegExp | null = null;
  /** Each registered secret, so `add` keeps the earlier ones. */
  private secrets = new Set<string>();

  constructor(
    secrets: Iterable<string> = [],
    private readonly users: string[] = BASIC_USERS,
  ) {
    this.add(secrets);
  }

  /** Registers more secret values. */
  add(secrets: Iterable<string>): void {
    this.build(new Set(this.secrets), secrets);
  }

  /** Replaces every registered secret with `secrets` (one was removed or changed). */
  protected reset(secrets: Iterable<string>): void {
    this.build(new Set(), secrets);
  }

  private build(next: Set<string>, secrets: Iterable<string>): void {
    for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH) next.add(secret);
    this.secrets = next;
    const bySource = new Map<string, Form>();
    for (const secret of next) for (const f of formsOf(secret, this.users)) bySource.set(f.source, f);
    this.forms = [...bySource.values()].sort((a, b) => b.maxLength - a.maxLength);
    this.pattern = this.forms.length ? new RegExp(this.forms.map((f) => f.source).join('|'), 'g') : null;
  }

  /** The longest text one match can span: streamed text is held back by this much minus one. */
  get longest(): number {
    return this.forms[0]?.maxLength ?? 0;
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
    if (!this.pattern) return text;
    if (!text.includes('\n')) return text.replace(this.pattern, SECRET_PLACEHOLDER);
    return this.replaceAcrossLines(text, this.pattern);
  }

  /**
   * Matches in the text with its line breaks (`\n`, `\r\n`) removed, so a form wrapped over several lines
   * (`base64` wraps at 76 columns, `xxd -p` at 60) is found; each match is replaced in the original text
   * together with the line breaks inside it.
   */
  private replaceAcrossLines(text: string, pattern: RegExp): string {
    const joined = text.replace(/\r?\n/g, '');
    if (joined.search(pattern) === -1) return text;
    // Each line break removed: the index in `joined` of the character after it, and the characters removed so far.
    const breaks: { at: number; removed: number }[] = [];
    let removed = 0;
    for (const found of text.matchAll(/\r?\n/g)) {
      removed += found[0].length;
      breaks.push({ at: found.index + found[0].length - removed, removed });
    }
    let next = 0;
    let shift = 0;
    // Matches come in order, so the breaks are walked once.
    const toText = (index: number): number => {
      for (let b = breaks[next]; b && b.at <= index; b = breaks[++next]) shift = b.removed;
      return index + shift;
    };
    let out = '';
    let copied = 0;
    for (const match of joined.matchAll(pattern)) {
      const start = toText(match.index);
      const end = toText(match.index + match[0].length - 1) + 1;
      out += text.slice(copied, start) + SECRET_PLACEHOLDER;
      copied = end;
    }
    return out + text.slice(copied);
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

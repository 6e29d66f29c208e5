const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const SIMPLE_ESCAPES = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
const HEX = /^[0-9a-fA-F]{4}$/;
const LITERALS = ['true', 'false', 'null'];

/** Where the text stops being JSON. */
class Invalid {
  constructor(readonly offset: number) {}
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/**
 * The character offset where `text` stops being valid JSON (RFC 8259), its length when it ends too early,
 * or null when it is valid. One pass without recursion: a body of any size or depth is read once.
 */
export function invalidJsonOffset(text: string): number | null {
  const scanner = new Scanner(text);
  try {
    scanner.document();
    return null;
  } catch (error) {
    if (error instanceof Invalid) return error.offset;
    throw error;
  }
}

class Scanner {
  private i = 0;

  constructor(private readonly text: string) {}

  document(): void {
    const open: number[] = []; // the brackets still open: `{` or `[`
    let expect: 'value' | 'key' | 'after' = 'value';
    for (;;) {
      this.skipWhitespace();
      if (expect === 'after' && open.length === 0) {
        if (this.i < this.text.length) throw new Invalid(this.i);
        return;
      }
      const c = this.peek();
      if (expect === 'after') {
        const top = open.at(-1);
        if (c === 0x2c) expect = top === 0x7b ? 'key' : 'value';
        else if (c === (top === 0x7b ? 0x7d : 0x5d)) open.pop();
        else throw new Invalid(this.i);
        this.i++;
      } else if (expect === 'key') {
        this.string();
        this.skipWhitespace();
        this.expectChar(0x3a);
        expect = 'value';
      } else if (c === 0x7b || c === 0x5b) {
        this.i++;
        this.skipWhitespace();
        if (this.text.charCodeAt(this.i) === (c === 0x7b ? 0x7d : 0x5d)) {
          this.i++;
          expect = 'after';
        } else {
          open.push(c);
          expect = c === 0x7b ? 'key' : 'value';
        }
      } else {
        this.scalar(c);
        expect = 'after';
      }
    }
  }

  /** The next character; the end of the text is an error there. */
  private peek(): number {
    if (this.i >= this.text.length) throw new Invalid(this.text.length);
    return this.text.charCodeAt(this.i);
  }

  private expectChar(code: number): void {
    if (this.peek() !== code) throw new Invalid(this.i);
    this.i++;
  }

  private skipWhitespace(): void {
    while (this.i < this.text.length && WHITESPACE.has(this.text.charCodeAt(this.i))) this.i++;
  }

  private scalar(c: number): void {
    if (c === 0x22) return this.string();
    if (c === 0x2d || isDigit(c)) return this.number();
    const literal = LITERALS.find((word) => word.charCodeAt(0) === c);
    if (!literal) throw new Invalid(this.i);
    for (const char of literal) this.expectChar(char.charCodeAt(0));
  }

  private string(): void {
    this.expectChar(0x22);
    for (;;) {
      const c = this.peek();
      if (c === 0x22) {
        this.i++;
        return;
      }
      if (c < 0x20) throw new Invalid(this.i);
      this.i++;
      if (c !== 0x5c) continue;
      const escape = this.peek();
      if (escape === 0x75) {
        if (!HEX.test(this.text.slice(this.i + 1, this.i + 5))) throw new Invalid(this.i + 1);
        this.i += 5;
      } else if (SIMPLE_ESCAPES.has(escape)) {
        this.i++;
      } else {
        throw new Invalid(this.i);
      }
    }
  }

  private number(): void {
    if (this.text.charCodeAt(this.i) === 0x2d) this.i++;
    if (this.text.charCodeAt(this.i) === 0x30) this.i++;
    else this.digits();
    if (this.text.charCodeAt(this.i) === 0x2e) {
      this.i++;
      this.digits();
    }
    const e = this.text.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = this.text.charCodeAt(this.i);
      if (sign === 0x2b || sign === 0x2d) this.i++;
      this.digits();
    }
  }

  /** One or more digits. */
  private digits(): void {
    const start = this.i;
    while (isDigit(this.text.charCodeAt(this.i))) this.i++;
    if (this.i === start) throw new Invalid(Math.min(this.i, this.text.length));
  }
}

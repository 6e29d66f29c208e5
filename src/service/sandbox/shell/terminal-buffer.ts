import { findPromptMarker, heldMarkerStart, type PromptMetadata } from './prompt-marker';

/**
 * The terminal text of the running command that has not been reported yet: it drops the echo of the
 * typed command, finds the prompt marker that ends the command, and bounds its memory: past twice
 * `maxChars` unread characters, it keeps the first and last `maxChars / 2` around a note.
 */
export class TerminalBuffer {
  private text = '';
  private scanFrom = 0;
  private echoEnd: RegExp | null = null;
  private found: { outputEnd: number; metadata: PromptMetadata } | null = null;
  private head = 0;
  private dropped = 0;
  private noteLength = 0;

  constructor(private readonly maxChars: number) {}

  /** The metadata of the marker that ended the command, once it arrived. */
  get marker(): PromptMetadata | null {
    return this.found?.metadata ?? null;
  }

  /** Starts over; when `echoEnd` is given, text up to its first match is the echo of the typed command. */
  reset(echoEnd: RegExp | null): void {
    this.text = '';
    this.scanFrom = 0;
    this.echoEnd = echoEnd;
    this.found = null;
    this.clearDropped();
  }

  append(chunk: string): void {
    if (this.found) return; // what follows the marker is the idle prompt
    this.text += chunk;
    if (this.echoEnd) this.skipEcho(this.echoEnd);
    const scan = findPromptMarker(this.text, this.scanFrom);
    if ('metadata' in scan) {
      this.found = scan;
      return;
    }
    this.scanFrom = scan.resumeAt;
    this.limit();
  }

  /** Removes and returns the output that can be shown now: up to the marker, or all but a partial marker. */
  take(): string {
    if (this.found) {
      const output = this.text.slice(0, this.found.outputEnd);
      this.text = this.text.slice(this.found.outputEnd);
      this.found.outputEnd = 0;
      return output;
    }
    if (this.echoEnd) return '';
    const end = heldMarkerStart(this.text);
    const output = this.text.slice(0, end);
    this.text = this.text.slice(end);
    this.scanFrom = Math.max(0, this.scanFrom - end);
    this.clearDropped();
    return output;
  }

  private skipEcho(echoEnd: RegExp): void {
    const match = echoEnd.exec(this.text);
    if (!match) return;
    this.text = this.text.slice(match.index + match[0].length);
    this.scanFrom = 0;
    this.echoEnd = null;
  }

  private limit(): void {
    if (this.text.length <= 2 * this.maxChars) return;
    if (this.dropped === 0) this.head = Math.floor(this.maxChars / 2);
    const tail = this.maxChars - this.head;
    const cut = this.text.length - this.head - tail;
    this.dropped += cut - this.noteLength;
    const note = `\n[... ${this.dropped} characters of output were dropped here ...]\n`;
    const distanceToEnd = this.text.length - this.scanFrom;
    this.text = this.text.slice(0, this.head) + note + this.text.slice(this.text.length - tail);
    this.noteLength = note.length;
    this.scanFrom = Math.max(this.head + note.length, this.text.length - distanceToEnd);
  }

  private clearDropped(): void {
    this.dropped = 0;
    this.noteLength = 0;
  }
}

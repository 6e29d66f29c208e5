/** Turning raw terminal bytes (already decoded as UTF-8) into plain text for the agent. */
/* eslint-disable no-control-regex -- terminal escape sequences are made of control characters */

const ESCAPE_SEQUENCES = [
  /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, // OSC, ended by BEL or ST
  /\x1b[PX^_][^\x1b]*\x1b\\/g, // DCS, SOS, PM, APC
  /\x1b\[[0-?]*[ -/]*[@-~]/g, // CSI
  /\x1b[ -/]*[0-~]/g, // two-character and charset sequences
];

// Everything below space except tab and newline, DEL, and the C1 controls (CR is handled first).
const CONTROL_CHARACTERS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Strips ANSI/OSC sequences, turns CRLF into LF, keeps the last CR segment of each line, drops controls. */
export function cleanTerminalText(raw: string): string {
  let text = raw;
  for (const sequence of ESCAPE_SEQUENCES) text = text.replace(sequence, '');
  return text
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map(lastCarriageReturnSegment)
    .join('\n')
    .replace(CONTROL_CHARACTERS, '');
}

function lastCarriageReturnSegment(line: string): string {
  const segments = line.split('\r').filter((segment) => segment !== '');
  return segments.at(-1) ?? '';
}

/** Keeps the first and last `maxChars / 2` characters around `note`. */
export function cutMiddle(text: string, maxChars: number, note: string): string {
  const half = Math.floor(maxChars / 2);
  return text.slice(0, half) + note + text.slice(text.length - half);
}

/** Deepest nesting of arrays and objects a JSON body may have; deeper ones overflow the stack of recursive code. */
export const MAX_JSON_NESTING = 128;

/** The offset of the bracket that opens nesting level `max + 1`, or null when `text` stays within `max`. */
export function excessNestingOffset(text: string, max = MAX_JSON_NESTING): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > max) return i;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return null;
}

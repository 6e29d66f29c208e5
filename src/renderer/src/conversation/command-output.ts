/** Lines the shell adds for the model that the command block shows in its own way (exit code, directory). */
const ANNOTATION =
  /^\[(The command completed with exit code -?\d+\.|Current working directory: .*|Python interpreter: .*)\]$/;

/**
 * A command's output without the trailing annotations written for the model. Reads back from the end, line
 * by line, so a long output is not split into lines on every load.
 */
export function commandOutput(content: string): string {
  let end = content.length;
  while (end > 0) {
    const start = content.lastIndexOf('\n', end - 1) + 1;
    const line = content.slice(start, end);
    if (!ANNOTATION.test(line) && line.trim() !== '') break;
    end = Math.max(0, start - 1);
  }
  return content.slice(0, end);
}

import { truncationNote, truncationNoteUnsaved } from './messages';
import { cleanTerminalText, cutMiddle } from './terminal-text';
import type { ShellTransport } from './transport';

/** The input just sent to a running command, which the terminal echoes before any output. */
export interface InputEcho {
  inputEcho: string | null;
}

/**
 * A command's output as the agent reads it: cleaned terminal text without the echo of sent input and, past
 * `maxChars`, its first and last halves around a note that says where the whole was saved in the sandbox
 * (`<outputDir>/<id>.log`) or why it could not be.
 */
export class CommandOutput {
  constructor(
    private readonly transport: ShellTransport,
    private readonly maxChars: number,
    /** Names the file a long output is saved in. */
    private readonly newId: () => string,
  ) {}

  /** Renders raw terminal text; drops `running`'s echo once output came. */
  async render(raw: string, running: InputEcho): Promise<string> {
    let text = cleanTerminalText(raw);
    if (running.inputEcho !== null && text !== '') {
      if (text.startsWith(running.inputEcho)) text = text.slice(running.inputEcho.length).replace(/^\n/, '');
      running.inputEcho = null;
    }
    text = text.replace(/\n+$/, '');
    if (text.length <= this.maxChars) return text;
    const path = `${this.transport.outputDir}/${this.newId()}.log`;
    let note: string;
    try {
      await this.transport.writeFile(path, Buffer.from(text));
      note = truncationNote(text.length, path);
    } catch (error) {
      note = truncationNoteUnsaved(text.length, error instanceof Error ? error.message : String(error));
    }
    return cutMiddle(text, this.maxChars, note);
  }
}

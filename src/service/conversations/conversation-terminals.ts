import type { ServiceContext } from '../context';
import { httpError } from '../http/errors';
import type { SandboxTerminal, TerminalOptions } from '../sandbox/sandbox-workspace';
import type { ConversationService } from './conversation-service';

/** Terminals open at once on one conversation. */
export const MAX_TERMINALS_PER_CONVERSATION = 4;
/** Typing in a terminal marks its sandbox used (so it is not paused as idle) at most this often. */
const TOUCH_EVERY_MS = 30_000;

export interface ConversationTerminalOptions extends TerminalOptions {
  /** The terminal was ended from the service's side (the sandbox stopped running), with the reason. */
  onEnded(reason: string): void;
}

interface OpenTerminal {
  sandboxId: string;
  terminal: Promise<SandboxTerminal | null>;
  onEnded(reason: string): void;
}

/**
 * A person's terminals in the sandboxes of conversations: only while the conversation runs in a RUNNING
 * sandbox (as for its workspace routes), at most MAX_TERMINALS_PER_CONVERSATION at once, each ended when its
 * sandbox stops running. Typing in one counts as using the sandbox.
 */
export class ConversationTerminals {
  private readonly open = new Map<string, Set<OpenTerminal>>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly conversations: ConversationService,
  ) {
    ctx.sandboxes.onChange(({ sandbox, deleted }) => {
      if (deleted || sandbox.status !== 'RUNNING')
        this.endInSandbox(sandbox.id, 'The sandbox stopped running');
    });
  }

  /** 404 for an unknown conversation; 409 unless it runs in a RUNNING sandbox and has room for a terminal. */
  check(conversationId: string): string {
    const record = this.conversations.require(conversationId);
    const sandboxId = record.status === 'STOPPED' ? null : record.sandboxId;
    if (!sandboxId || this.ctx.sandboxes.find(sandboxId)?.status !== 'RUNNING') {
      throw httpError(409, `Sandbox for conversation ${conversationId} is not running`);
    }
    if ((this.open.get(conversationId)?.size ?? 0) >= MAX_TERMINALS_PER_CONVERSATION) {
      throw httpError(
        409,
        `Conversation ${conversationId} has ${MAX_TERMINALS_PER_CONVERSATION} terminals open: close one first`,
      );
    }
    return sandboxId;
  }

  /**
   * Checks as `check` does, takes a place at once, then starts the shell; the place is free again when the
   * shell ends or fails to start. Rejects with the check's HttpError or the reason the shell could not start.
   */
  async start(conversationId: string, options: ConversationTerminalOptions): Promise<SandboxTerminal> {
    const sandboxId = this.check(conversationId);
    const terminals = this.open.get(conversationId) ?? new Set<OpenTerminal>();
    this.open.set(conversationId, terminals);
    const entry: OpenTerminal = { sandboxId, terminal: Promise.resolve(null), onEnded: options.onEnded };
    terminals.add(entry);
    const free = () => {
      terminals.delete(entry);
      if (terminals.size === 0 && this.open.get(conversationId) === terminals)
        this.open.delete(conversationId);
    };
    const started = (async () => {
      const workspace = await this.ctx.sandboxes.workspace(sandboxId);
      const terminal = await workspace.terminal({
        ...options,
        onExit: (exitCode) => {
          free();
          options.onExit(exitCode);
        },
      });
      let touched = Date.now();
      return {
        write: (data: Buffer) => {
          if (Date.now() - touched >= TOUCH_EVERY_MS) {
            touched = Date.now();
            this.ctx.sandboxes.touch(sandboxId);
          }
          terminal.write(data);
        },
        resize: (size) => terminal.resize(size),
        close: () => terminal.close(),
      } satisfies SandboxTerminal;
    })();
    entry.terminal = started.catch(() => null);
    return started.catch((error: unknown) => {
      free();
      throw error;
    });
  }

  /** Hangs up every terminal (the service closes); resolves once their shells are gone. */
  async closeAll(): Promise<void> {
    const entries = [...this.open.values()].flatMap((terminals) => [...terminals]);
    await Promise.all(entries.map(async (entry) => (await entry.terminal)?.close()));
  }

  private endInSandbox(sandboxId: string, reason: string): void {
    for (const terminals of this.open.values()) {
      for (const entry of terminals) {
        if (entry.sandboxId !== sandboxId) continue;
        entry.onEnded(reason);
        void entry.terminal.then((terminal) => terminal?.close());
      }
    }
  }
}

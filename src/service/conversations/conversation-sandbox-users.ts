import type { Logger } from 'pino';
import type { SandboxUsers } from '../sandbox/sandbox-users';

/** What the sandbox layer's questions are answered from. */
export interface ConversationControls {
  /** The conversations on a sandbox. */
  onSandbox(sandboxId: string): string[];
  isIdle(id: string): boolean;
  /** Answers whether the conversation was running. */
  stop(id: string): Promise<boolean>;
  start(id: string): Promise<void>;
  logger: Logger;
}

/**
 * The conversations' side of their sandboxes: the sandbox layer asks before pausing a busy sandbox, and the
 * conversations a pause stopped start again when it resumes (api-contract §11, §14).
 */
export function conversationSandboxUsers(conversations: ConversationControls): SandboxUsers {
  const stoppedByPause = new Map<string, string[]>();
  return {
    isIdle: (sandboxId) => conversations.onSandbox(sandboxId).every((id) => conversations.isIdle(id)),
    release: async (sandboxId, reason) => {
      const ids = conversations.onSandbox(sandboxId);
      const wasRunning = await Promise.all(ids.map((id) => conversations.stop(id)));
      if (reason === 'pause')
        stoppedByPause.set(
          sandboxId,
          ids.filter((_, i) => wasRunning[i]),
        );
      else stoppedByPause.delete(sandboxId);
    },
    resumed: (sandboxId) => {
      const ids = stoppedByPause.get(sandboxId) ?? [];
      stoppedByPause.delete(sandboxId);
      for (const id of ids) {
        conversations
          .start(id)
          .catch((error: unknown) =>
            conversations.logger.warn(
              { conversation_id: id, err: error },
              'conversation not restarted on resume',
            ),
          );
      }
    },
  };
}

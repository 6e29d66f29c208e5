import type { GitChange } from '../../shared/api/workspace';
import type { Logger } from 'pino';
import type { ConversationWorkspace } from './workspace-access';
import { gitChanges } from './workspace-git';

/**
 * How many files each conversation's repository has changed, as the last listing of its changes saw (in
 * memory). A listing happens when a client asks for the changes and once each time the agent ends a turn,
 * so a list of conversations shows the count without a `git status` per row.
 */
export class ChangedFiles {
  private readonly counts = new Map<string, number>();
  /** Conversations whose count is being refreshed, and whether another refresh was asked meanwhile. */
  private readonly refreshing = new Map<string, boolean>();

  constructor(
    private readonly open: (id: string) => Promise<ConversationWorkspace>,
    private readonly logger: Logger,
  ) {}

  /** The last count seen, or null before any listing. */
  count(id: string): number | null {
    return this.counts.get(id) ?? null;
  }

  /** Records what a listing of the conversation's changes found. */
  seen(id: string, changes: readonly GitChange[]): void {
    this.counts.set(id, changes.length);
  }

  /**
   * Lists the changes again in the background, one listing per conversation at a time (a refresh asked
   * during one runs once after it). A workspace that cannot be listed (stopped, no repository) keeps the
   * last count.
   */
  refresh(id: string): void {
    if (this.refreshing.has(id)) {
      this.refreshing.set(id, true);
      return;
    }
    this.refreshing.set(id, false);
    void this.open(id)
      .then((workspace) => gitChanges(workspace))
      .then(
        (changes) => this.seen(id, changes),
        (error: unknown) => this.logger.debug({ conversation_id: id, err: error }, 'changes not counted'),
      )
      .finally(() => {
        const again = this.refreshing.get(id) === true;
        this.refreshing.delete(id);
        if (again) this.refresh(id);
      });
  }

  forget(id: string): void {
    this.counts.delete(id);
  }
}

import { sandboxKey } from './sandbox-key';
import type { SecretStore } from './secret-store';
import type { SessionKey } from './session-key';

/** What MaskedValues needs of the sandbox service: the sandboxes, page by page, and each change. */
export interface SandboxDirectory {
  search(query: { limit: number; pageId?: string | null }): {
    items: { id: string }[];
    next_page_id: string | null;
  };
  onChange(listener: (event: { sandbox: { id: string }; deleted: boolean }) => void): unknown;
}

/**
 * Every value the service masks in events, titles and errors: the stored secrets (LLM and search keys,
 * provider tokens, custom secrets, MCP keys and stdio `env` values), the session API key wherever it is kept,
 * and the key of each sandbox. Read on every use, so a change shows at once.
 */
export class MaskedValues {
  private readonly sandboxIds = new Set<string>();
  /** The sandbox keys derived for `derivedFrom` (they change with the session key). */
  private derived: string[] = [];
  private derivedFrom: string | null = null;

  constructor(
    private readonly store: SecretStore,
    private readonly sessionKey: SessionKey,
    sandboxes: SandboxDirectory,
  ) {
    for (let page = sandboxes.search({ limit: 100 }); ;) {
      for (const sandbox of page.items) this.sandboxIds.add(sandbox.id);
      if (!page.next_page_id) break;
      page = sandboxes.search({ limit: 100, pageId: page.next_page_id });
    }
    sandboxes.onChange(({ sandbox, deleted }) => {
      const known = this.sandboxIds.has(sandbox.id);
      if (deleted) this.sandboxIds.delete(sandbox.id);
      else this.sandboxIds.add(sandbox.id);
      if (known === deleted) this.derivedFrom = null;
    });
  }

  values(): string[] {
    const session = this.sessionKey.current;
    if (this.derivedFrom !== session) {
      this.derived = [...this.sandboxIds].map((id) => sandboxKey(session, id));
      this.derivedFrom = session;
    }
    return [...this.store.values(), session, ...this.derived];
  }
}

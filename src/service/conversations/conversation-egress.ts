import type { MCPConfig } from '../../shared/api/mcp';
import type { NewEvent } from '../../shared/api/events';
import type { EventLog } from '../events/event-log';
import type { SecretMasker } from '../events/secret-masker';
import type { EgressDecision } from '../sandbox/link/egress-gate';
import type { EgressPolicy, EgressPreset } from '../sandbox/link/egress-policy';
import type { EgressService } from '../sandbox/link/egress-service';
import type { StoredSettings } from '../settings/settings-service';
import type { ConversationStore } from './conversation-store';

/** The API hosts of model providers a model name may name (`provider/model`), allowed by balanced and model_only. */
const MODEL_PROVIDER_HOSTS: Record<string, string[]> = {
  openai: ['api.openai.com'],
  anthropic: ['api.anthropic.com'],
  gemini: ['generativelanguage.googleapis.com'],
  google: ['generativelanguage.googleapis.com'],
  openrouter: ['openrouter.ai'],
  mistral: ['api.mistral.ai'],
  groq: ['api.groq.com'],
  deepseek: ['api.deepseek.com'],
};

/** The hosts a git provider's clones, API calls and downloads use. */
const GIT_PROVIDER_HOSTS: Record<string, string[]> = {
  github: ['github.com', 'api.github.com', 'codeload.github.com', '*.githubusercontent.com'],
  gitlab: ['gitlab.com'],
  bitbucket: ['bitbucket.org', 'api.bitbucket.org'],
};

/** A refusal is told to a conversation once per destination and rule in this time (a retry loop stays one event). */
const REPEAT_MS = 60_000;
/** Refusal events a conversation gets per minute at most; the network log keeps every refusal. */
const EVENTS_PER_MINUTE = 30;
/** How long a refused connection waits for the user's say in confirmation mode. */
export const HOLD_MS = 60_000;

export interface ConversationEgressDeps {
  egress: EgressService;
  store: ConversationStore;
  events: EventLog;
  masker: SecretMasker;
  settings: () => StoredSettings | null;
  /** The configured git providers with their enterprise host (null for the public one). */
  gitHosts: () => Record<string, string | null>;
  /** Adds an entry to the settings' allow list. */
  allowAlways: (entry: string) => void;
}

function hostOf(url: string | null | undefined): string[] {
  if (!url) return [];
  try {
    return [new URL(url).hostname];
  } catch {
    return [];
  }
}

function mcpHosts(config: MCPConfig | null | undefined): string[] {
  if (!config) return [];
  return [...config.sse_servers, ...config.shttp_servers].flatMap((server) => hostOf(server.url));
}

/**
 * The ONE place a refused connection becomes a conversation event: an `error` observation from the
 * environment whose `extras.egress` says what was refused and by which rule (the UI offers to allow it).
 */
export function egressRefusalEvent(decision: EgressDecision): NewEvent {
  const destination = `${decision.host}:${decision.port}`;
  const content = decision.held
    ? `Dockhand is holding a connection from the sandbox to ${destination} (rule: ${decision.rule}) for up to ` +
      `${HOLD_MS / 1000} s: allow it for this conversation or always and it goes through; otherwise the command gets a 403.`
    : `Dockhand refused a connection from the sandbox to ${destination} (rule: ${decision.rule}). ` +
      `The command that tried got a 403 from the proxy. Allow it for this conversation or always, or change the network policy.`;
  return {
    source: 'environment',
    message: content,
    observation: 'error',
    content,
    extras: {
      error_id: 'EGRESS_REFUSED',
      egress: {
        host: decision.host,
        port: decision.port,
        rule: decision.rule,
        address: decision.address,
        held: decision.held === true,
      },
    },
  };
}

/** The egress policy a conversation asked for, else the settings' (`balanced` by default). */
export function egressPreset(
  requested: EgressPreset | null | undefined,
  settings: Pick<StoredSettings, 'egress_policy'> | null,
): EgressPreset {
  return requested ?? settings?.egress_policy ?? 'balanced';
}

/**
 * A conversation's side of the egress policy: which policy its sandbox follows (its start request's
 * `network_policy`, else the setting), what it was allowed during its life, its network log, and the events
 * that tell it of refusals.
 */
export class ConversationEgress {
  /** Entries allowed for one conversation ("Allow for this conversation"); kept while the service runs. */
  private readonly allowed = new Map<string, string[]>();
  /** When each destination's refusal was last told, per conversation (forgotten after REPEAT_MS). */
  private readonly told = new Map<string, number>();
  /** When each conversation's recent refusal events were appended. */
  private readonly recent = new Map<string, number[]>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: ConversationEgressDeps) {}

  start(): void {
    this.unsubscribe = this.deps.egress.onDecision((sandboxId, decision) => {
      if (!decision.allowed) this.tell(sandboxId, decision);
    });
  }

  close(): void {
    this.unsubscribe?.();
  }

  /** The policy of a sandbox now: from its conversations and the settings. */
  policy(sandboxId: string): EgressPolicy {
    const settings = this.deps.settings();
    const conversations = this.deps.store.bySandbox(sandboxId).flatMap((id) => this.deps.store.get(id) ?? []);
    const preset = egressPreset(
      conversations.find((record) => record.request.network_policy)?.request.network_policy,
      settings,
    );
    const models = [settings?.llm_model, ...conversations.map((record) => record.llmModel)];
    const gitHosts = Object.entries(this.deps.gitHosts()).flatMap(([provider, host]) =>
      host ? [host] : (GIT_PROVIDER_HOSTS[provider] ?? []),
    );
    return {
      preset,
      allow: [
        ...(settings?.egress_allow ?? []),
        ...conversations.flatMap((record) => this.allowed.get(record.id) ?? []),
      ],
      deny: settings?.egress_deny ?? [],
      modelHosts: [
        ...hostOf(settings?.llm_base_url),
        ...models.flatMap((model) => MODEL_PROVIDER_HOSTS[model?.split('/')[0] ?? ''] ?? []),
      ],
      serviceHosts: [
        ...gitHosts,
        ...mcpHosts(settings?.mcp_config),
        ...conversations.flatMap((record) => mcpHosts(record.request.mcp_config)),
      ],
    };
  }

  /** With confirmation mode on, a refusal the user could lift waits for their say. */
  holdMs(_sandboxId: string): number {
    return this.deps.settings()?.confirmation_mode ? HOLD_MS : 0;
  }

  /** Allows `entry` for the conversation, or always (the settings' list); held connections go through. */
  allow(conversationId: string, entry: string, scope: 'conversation' | 'always'): void {
    if (scope === 'always') this.deps.allowAlways(entry);
    else {
      const list = this.allowed.get(conversationId) ?? [];
      if (!list.includes(entry)) this.allowed.set(conversationId, [...list, entry]);
    }
    const sandboxes =
      scope === 'always' ? this.deps.egress.sandboxes() : [this.deps.store.get(conversationId)?.sandboxId];
    for (const sandboxId of sandboxes) if (sandboxId) this.deps.egress.reconsider(sandboxId);
  }

  /** The conversation's sandbox's decisions, oldest first (empty without a sandbox). */
  log(conversationId: string): EgressDecision[] {
    const sandboxId = this.deps.store.get(conversationId)?.sandboxId;
    return sandboxId ? this.deps.egress.log(sandboxId) : [];
  }

  /**
   * Appends the refusal to the sandbox's conversations: once per destination and rule per minute, and at most
   * EVENTS_PER_MINUTE a minute (a sandbox trying many names cannot flood the conversation or this memory).
   */
  private tell(sandboxId: string, decision: EgressDecision): void {
    const now = Date.now();
    for (const [key, at] of this.told) if (now - at >= REPEAT_MS) this.told.delete(key);
    for (const conversationId of this.deps.store.bySandbox(sandboxId)) {
      const key = `${conversationId} ${decision.host}:${decision.port} ${decision.rule}`;
      const recent = (this.recent.get(conversationId) ?? []).filter((at) => now - at < REPEAT_MS);
      this.recent.set(conversationId, recent);
      if (this.told.has(key) || recent.length >= EVENTS_PER_MINUTE) continue;
      this.told.set(key, now);
      recent.push(now);
      this.deps.events.append(conversationId, egressRefusalEvent(decision), this.deps.masker);
    }
  }
}

const DEFAULT_IDLE_SECONDS = 3600;

/** DOCKHAND_CONVERSATION_IDLE_S: whole seconds a conversation may sit idle before it is stopped; 0 = never. */
export function conversationIdleSecondsFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.DOCKHAND_CONVERSATION_IDLE_S;
  if (raw === undefined || raw === '') return DEFAULT_IDLE_SECONDS;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 0)
    throw new Error(`DOCKHAND_CONVERSATION_IDLE_S must be a whole number of seconds, not "${raw}"`);
  return seconds;
}

export interface IdleStopDeps {
  idleSeconds: number;
  /** The conversations with a running agent. */
  running(): string[];
  /** Whether a conversation's agent waits (for the user, or has ended) and no client is subscribed to it. */
  isIdle(id: string): boolean;
  stop(id: string): Promise<unknown>;
  now?: () => number;
}

/**
 * Stops running conversations that stayed idle (agent idle, no sockets or SSE streams) for the idle time
 * (api-contract §15), checked a few times per idle period and at least every minute.
 */
export class IdleStop {
  private readonly idleSince = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: IdleStopDeps) {
    this.now = deps.now ?? Date.now;
  }

  start(): void {
    if (this.deps.idleSeconds <= 0 || this.timer) return;
    const every = Math.min(60_000, Math.max(250, (this.deps.idleSeconds * 1000) / 4));
    this.timer = setInterval(() => this.sweep(), every);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One check: idle conversations are timed from when a check first saw them idle. */
  sweep(): void {
    const time = this.now();
    const running = new Set(this.deps.running());
    for (const id of this.idleSince.keys()) if (!running.has(id)) this.idleSince.delete(id);
    for (const id of running) {
      if (!this.deps.isIdle(id)) {
        this.idleSince.delete(id);
        continue;
      }
      const since = this.idleSince.get(id) ?? time;
      this.idleSince.set(id, since);
      if (time - since >= this.deps.idleSeconds * 1000) {
        this.idleSince.delete(id);
        void this.deps.stop(id).catch(() => undefined);
      }
    }
  }
}

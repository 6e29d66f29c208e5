import { EventEmitter } from 'node:events';
import type { StatusUpdate } from '../agent/agent-loop';
import type { StartStage } from '../../shared/api/start-stage';

/** A status payload for live clients: `{status_update, type, id, message}` (not stored). */
export interface StatusPayload extends StatusUpdate {
  status_update: true;
  conversation_title?: string;
}

function endEvent(id: string): string {
  return `${id}\0end`;
}

function stageEvent(id: string): string {
  return `${id}\0stage`;
}

/**
 * The conversations' live notices (not stored): status updates, start stages and the end of a deleted
 * conversation. A conversation's status listeners are its live clients.
 */
export class ConversationStatuses {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(id: string, update: StatusUpdate & { conversation_title?: string }): void {
    this.emitter.emit(id, { status_update: true, ...update });
  }

  onStatus(id: string, listener: (payload: StatusPayload) => void): () => void {
    this.emitter.on(id, listener);
    return () => this.emitter.off(id, listener);
  }

  /** How many live clients listen to the conversation. */
  listeners(id: string): number {
    return this.emitter.listenerCount(id);
  }

  reachStage(id: string, stage: StartStage): void {
    this.emitter.emit(stageEvent(id), stage);
  }

  onStartStage(id: string, listener: (stage: StartStage) => void): () => void {
    this.emitter.on(stageEvent(id), listener);
    return () => this.emitter.off(stageEvent(id), listener);
  }

  end(id: string, reason: 'deleted'): void {
    this.emitter.emit(endEvent(id), reason);
  }

  onEnd(id: string, listener: (reason: 'deleted') => void): () => void {
    this.emitter.once(endEvent(id), listener);
    return () => this.emitter.off(endEvent(id), listener);
  }
}

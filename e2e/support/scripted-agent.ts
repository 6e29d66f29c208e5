import { TITLE_MARKER } from '../../src/service/agent/title';
import {
  faults,
  type RecordedLlmRequest,
  type ScriptedLlm,
  type ScriptedOutcome,
  type ScriptedReply,
} from '../../test/support/scripted-llm';

/**
 * The agent's side of a scripted model: replies for the agent's calls in order, while the title call
 * that runs beside them (whenever it comes) gets `title`.
 */
export class ScriptedAgent {
  private readonly replies: ScriptedReply[] = [];

  constructor(
    private readonly llm: ScriptedLlm,
    private readonly title = 'Scripted conversation',
  ) {}

  /** Queues replies for the agent's next calls. */
  say(...replies: ScriptedReply[]): void {
    this.replies.push(...replies);
    // One step per reply plus one for a title call; each takes whatever the request asks for.
    this.llm.push(...[...replies, null].map(() => (request: RecordedLlmRequest) => this.answer(request)));
  }

  /** Agent replies not asked for yet. */
  get unplayed(): number {
    return this.replies.length;
  }

  private answer(request: RecordedLlmRequest): ScriptedOutcome {
    if (request.rawBody.includes(TITLE_MARKER)) return { text: this.title };
    return this.replies.shift() ?? faults.status(500, 'The scripted agent has no reply left');
  }
}

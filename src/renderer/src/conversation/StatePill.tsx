import type { ConversationState } from '../../../shared/conversation-state';

interface StatePillProps {
  state: ConversationState;
  /** Shows the stage (while starting, or what went wrong) beside the label. */
  withStage?: boolean;
}

/** A conversation's one state; its stage and the facts it is derived from are in the tooltip. */
export function StatePill({ state, withStage = false }: StatePillProps) {
  return (
    <span
      className={`state-pill state-${state.tone}`}
      data-phase={state.phase}
      title={[state.stage, ...state.details].filter((line) => line !== null).join('\n')}
    >
      <span className="state-dot" aria-hidden="true" />
      <span>
        {state.label}
        {withStage && state.stage && <span className="state-stage">: {state.stage}</span>}
      </span>
    </span>
  );
}

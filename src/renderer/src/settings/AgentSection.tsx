import { Field, InputField } from '../ui/Field';
import type { DraftSectionProps } from './llm-settings-draft';

const DEFAULT_MAX_ITERATIONS = 500;
const DEFAULT_CONDENSER_SIZE = 120;

/** The agent: confirmation mode and its security analyzer, iteration and budget limits, the condenser. */
export function AgentSection({ draft, edit, errors, hidden }: DraftSectionProps) {
  return (
    <div className="form settings-part" hidden={hidden}>
      <h2 id="agent-heading">Agent</h2>
      <InputField
        id="confirmation-mode"
        label="Ask before risky actions (confirmation mode)"
        labelPosition="after"
        hint="The agent pauses for your approval before running commands the security analyzer rates as risky."
        error={errors.confirmation_mode}
        type="checkbox"
        checked={draft.confirmationMode}
        onChange={(e) => edit({ confirmationMode: e.target.checked })}
      />
      <Field
        id="security-analyzer"
        label="Security analyzer"
        hint="Rates each action’s risk in confirmation mode. Without one, every action with side effects asks first."
        error={errors.security_analyzer}
      >
        {(control) => (
          <select
            {...control}
            disabled={!draft.confirmationMode}
            value={draft.securityAnalyzer}
            onChange={(e) => edit({ securityAnalyzer: e.target.value })}
          >
            <option value="rules">Built-in rules</option>
            <option value="llm">The language model</option>
            <option value="">None: ask before every action</option>
          </select>
        )}
      </Field>
      <div className="form-row">
        <InputField
          id="max-iterations"
          label="Maximum iterations"
          hint={`Steps per conversation before the agent stops (1–10,000; empty means ${DEFAULT_MAX_ITERATIONS}).`}
          error={errors.max_iterations}
          className="input-short"
          type="number"
          inputMode="numeric"
          min={1}
          max={10_000}
          placeholder={String(DEFAULT_MAX_ITERATIONS)}
          value={draft.maxIterations}
          onChange={(e) => edit({ maxIterations: e.target.value })}
        />
        <InputField
          id="max-budget"
          label="Budget per conversation (USD)"
          hint="The agent stops when a conversation has cost this much. Empty means no limit."
          error={errors.max_budget_per_task}
          className="input-short"
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          placeholder="No limit"
          value={draft.budget}
          onChange={(e) => edit({ budget: e.target.value })}
        />
      </div>
      <InputField
        id="condenser"
        label="Summarize older events when the context fills up (condenser)"
        labelPosition="after"
        hint="Off: older events are only dropped. On: the model also summarizes them, which costs a call."
        error={errors.enable_default_condenser}
        type="checkbox"
        checked={draft.condenser}
        onChange={(e) => edit({ condenser: e.target.checked })}
      />
      <InputField
        id="condenser-size"
        label="Events kept before condensing"
        hint={`At least 20; empty means ${DEFAULT_CONDENSER_SIZE}.`}
        error={errors.condenser_max_size}
        className="input-short"
        type="number"
        inputMode="numeric"
        min={20}
        placeholder={String(DEFAULT_CONDENSER_SIZE)}
        value={draft.condenserSize}
        onChange={(e) => edit({ condenserSize: e.target.value })}
      />
    </div>
  );
}

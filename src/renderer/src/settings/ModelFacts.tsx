import type { ModelProbe } from '../../../shared/api/model-probe';
import { Notice } from '../ui/Notice';
import { ToolModeBadge } from './ToolModeBadge';

const SERVERS: Record<NonNullable<ModelProbe['server']>, string> = {
  ollama: 'Ollama',
  lm_studio: 'LM Studio',
  llama_cpp: 'llama.cpp',
  vllm: 'vLLM',
};

function tokens(n: number): string {
  return `${n.toLocaleString('en-US')} tokens`;
}

/** A model's probed facts in one line: its server, the context it will run in, images, tool mode. */
export function ModelFactsLine({ probe }: { probe: ModelProbe }) {
  const where = probe.server ? SERVERS[probe.server] : 'Built-in table';
  return (
    <p className="model-facts">
      <span>{where}</span>
      {' · '}
      <span>Context {tokens(probe.context_window)}</span>
      {probe.trained_context !== null && probe.trained_context !== probe.context_window && (
        <span className="muted"> (trained for {tokens(probe.trained_context)})</span>
      )}
      {probe.vision && <span> · images</span>} <ToolModeBadge mode={probe.tool_mode} />
    </p>
  );
}

/** When the server cannot give what an agent turn needs: said before any conversation, with the numbers. */
export function ContextWarning({ probe }: { probe: ModelProbe }) {
  if (probe.context_enough) return null;
  return (
    <Notice tone="warning" title="The context is too small for agent work">
      <p>{probe.context_summary}</p>
      <p className="muted">
        Conversations will still run, but the server may cut their start: Dockhand warns in the conversation
        and condenses older events when it does.
      </p>
    </Notice>
  );
}

/** The refusal of a model that makes no tool call. */
export function NoToolUse({ probe }: { probe: ModelProbe }) {
  if (probe.tool_mode !== 'none') return null;
  return (
    <Notice tone="error" title="This model cannot do agent work">
      <p>
        {probe.model} made no tool call when asked to, neither natively nor in the text format. Choose a model
        that supports tool use.
      </p>
    </Notice>
  );
}

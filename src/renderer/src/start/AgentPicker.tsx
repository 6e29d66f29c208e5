import type { AgentInfo, AgentKind } from '../../../shared/api/agents';
import { useAgents } from '../api/agent-queries';
import { Field } from '../ui/Field';

/** What choosing this agent means for the start: nothing for the built-in one or an installed agent. */
function installNote(agent: AgentInfo): string {
  switch (agent.install.state) {
    case 'installed':
      return '';
    case 'installing':
      return ' It is being installed.';
    case 'failed':
      return ' Its last install failed; starting installs it again.';
    default:
      return ` It is installed from the npm registry when the conversation starts (once).`;
  }
}

/**
 * The agent of the new conversation, the Settings' default first shown; null (the default) until the
 * person picks another.
 */
export function AgentPicker({
  chosen,
  onChange,
}: {
  chosen: AgentKind | null;
  onChange: (kind: AgentKind) => void;
}) {
  const agents = useAgents();
  if (!agents.data) return null;
  const selected = chosen ?? agents.data.default_agent;
  const agent = agents.data.agents.find((candidate) => candidate.kind === selected);
  return (
    <Field id="start-agent" label="Agent" hint={agent ? `${agent.needs}${installNote(agent)}` : undefined}>
      {(control) => (
        <select {...control} value={selected} onChange={(e) => onChange(e.target.value as AgentKind)}>
          {agents.data.agents.map((candidate) => (
            <option key={candidate.kind} value={candidate.kind}>
              {candidate.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

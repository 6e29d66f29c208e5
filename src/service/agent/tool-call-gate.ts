import type { SavedCall } from './agent-state-store';
import { needsConfirmation, type ConfirmationSettings } from './confirmation-policy';
import { analyzeAction, Risk, type SecretContext } from './security/rules-analyzer';
import { RISK_LEVELS, type ToolRegistry } from './tools/registry';
import type { AgentTool } from './tools/tool';

/** A call the gate let through: its tool, its arguments as the tool reads them, and its risk. */
export interface GatedCall extends SavedCall {
  tool: AgentTool;
  args: Record<string, unknown>;
  risk: number;
}

/**
 * What becomes of one call of the model: `refused` (unknown tool or invalid arguments; `text` answers it and
 * nothing runs), `finish` (the task ends), `confirm` (held for the user; `rules` are the analyzer's rules
 * that fired) or `run`.
 */
export type GateDecision =
  | { kind: 'refused'; text: string }
  | { kind: 'finish'; call: GatedCall }
  | { kind: 'confirm'; call: GatedCall; rules: string[] }
  | { kind: 'run'; call: GatedCall };

export interface GatePolicy {
  confirmation: ConfirmationSettings;
  secrets: SecretContext;
}

const RISK_VALUES: Record<string, number> = { LOW: Risk.LOW, MEDIUM: Risk.MEDIUM, HIGH: Risk.HIGH };

/** The `security_risk` the model declared with a call, when it is one of the known levels. */
function declaredRisk(declared: unknown): number | undefined {
  return typeof declared === 'string' && (RISK_LEVELS as readonly string[]).includes(declared)
    ? RISK_VALUES[declared]
    : undefined;
}

/**
 * Looks the call's tool up, has the tool read the arguments (without the declared `security_risk`),
 * assesses the risk (the rules analyzer's, raised to the declared one) and decides whether a side effect
 * waits for the user under the confirmation settings.
 */
export function gateToolCall(queued: SavedCall, tools: ToolRegistry, policy: GatePolicy): GateDecision {
  const { call } = queued;
  const tool = tools.get(call.name);
  if (!tool) {
    return {
      kind: 'refused',
      text: `Tool ${call.name} is not registered. (arguments: ${call.rawArgs}). Please check the tool name and retry with an existing tool.`,
    };
  }
  const { security_risk: declared, ...rest } = call.args ?? {};
  const parsed = tool.parse(call.args ? rest : undefined, call.argsError);
  if (!parsed.ok) return { kind: 'refused', text: parsed.error };
  const args = parsed.args;
  if (tool.name === 'finish') return { kind: 'finish', call: { ...queued, tool, args, risk: Risk.LOW } };
  const assessed = analyzeAction(tool.analyzed(args), policy.secrets);
  const declaredLevel = declaredRisk(declared);
  const gated = { ...queued, tool, args, risk: Math.max(assessed.risk, declaredLevel ?? Risk.UNKNOWN) };
  const held =
    tool.hasSideEffects(args) &&
    needsConfirmation(policy.confirmation, gated.risk, declaredLevel === undefined);
  return held ? { kind: 'confirm', call: gated, rules: assessed.rules } : { kind: 'run', call: gated };
}

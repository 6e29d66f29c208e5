import { describe, expect, it } from 'vitest';
import type { SavedCall } from './agent-state-store';
import type { ConfirmationSettings } from './confirmation-policy';
import { Risk } from './security/rules-analyzer';
import { gateToolCall } from './tool-call-gate';
import { ToolRegistry } from './tools/registry';

const tools = new ToolRegistry();
const secrets = { names: ['MY_TOKEN'], values: ['s3cr3t-v4lue'] };
const off: ConfirmationSettings = { confirmationMode: false, securityAnalyzer: null };
const askAll: ConfirmationSettings = { confirmationMode: true, securityAnalyzer: null };
const rules: ConfirmationSettings = { confirmationMode: true, securityAnalyzer: 'rules' };
const llm: ConfirmationSettings = { confirmationMode: true, securityAnalyzer: 'llm' };

function queued(
  name: string,
  args: Record<string, unknown> | undefined,
  extra: Partial<SavedCall['call']> = {},
) {
  const call = { id: 'call_1', name, rawArgs: JSON.stringify(args ?? null), args, ...extra };
  const metadata = {
    function_name: name,
    tool_call_id: 'call_1',
    model_response: { id: 'r1' },
    total_calls_in_response: 1,
    arguments: call.rawArgs,
  };
  return { call, thought: 'why', metadata } satisfies SavedCall;
}

const gate = (call: SavedCall, confirmation = off) => gateToolCall(call, tools, { confirmation, secrets });

describe('gateToolCall', () => {
  it('refuses a tool that is not registered, quoting the arguments as written', () => {
    expect(gate(queued('browse', { url: 'x' }))).toEqual({
      kind: 'refused',
      text: 'Tool browse is not registered. (arguments: {"url":"x"}). Please check the tool name and retry with an existing tool.',
    });
  });

  it('refuses arguments the tool cannot read, and arguments that were not a JSON object', () => {
    expect(gate(queued('execute_bash', { command: 3, security_risk: 'LOW' }))).toEqual({
      kind: 'refused',
      text: 'Invalid arguments for tool execute_bash: command: Invalid input: expected string, received number. Please retry with valid arguments.',
    });
    expect(
      gate(queued('think', undefined, { rawArgs: '{"thought":', argsError: 'Unexpected end of JSON input' })),
    ).toEqual({
      kind: 'refused',
      text: 'Invalid arguments for tool think: Unexpected end of JSON input. Please retry with valid arguments.',
    });
  });

  it('reads the arguments without the declared security_risk, with the tool’s transforms', () => {
    const decision = gate(queued('execute_bash', { command: 'ls', is_input: 'false', security_risk: 'LOW' }));
    expect(decision.kind).toBe('run');
    if (decision.kind !== 'run') return;
    expect(decision.call.args).toEqual({ command: 'ls', is_input: false });
    expect(decision.call.tool.name).toBe('execute_bash');
    expect(decision.call.thought).toBe('why');
    expect(decision.call.risk).toBe(Risk.LOW);
  });

  it('lets finish end the task at LOW risk, even under confirmation mode', () => {
    const decision = gate(queued('finish', { message: 'done' }), askAll);
    expect(decision).toMatchObject({ kind: 'finish', call: { args: { message: 'done' }, risk: Risk.LOW } });
  });

  it('raises the analyzer’s risk to the declared one, and ignores unknown levels', () => {
    const declaredHigh = gate(queued('execute_bash', { command: 'ls', security_risk: 'HIGH' }));
    expect(declaredHigh).toMatchObject({ kind: 'run', call: { risk: Risk.HIGH } });
    const unknownLevel = gate(queued('execute_bash', { command: 'npm install', security_risk: 'SEVERE' }));
    expect(unknownLevel).toMatchObject({ kind: 'run', call: { risk: Risk.MEDIUM } });
  });

  it('holds every side effect without an analyzer, and never a call without side effects', () => {
    expect(gate(queued('execute_bash', { command: 'ls', security_risk: 'LOW' }), askAll)).toMatchObject({
      kind: 'confirm',
      rules: [],
    });
    expect(gate(queued('think', { thought: 'hmm' }), askAll).kind).toBe('run');
    expect(gate(queued('execute_bash', { command: 'C-c', is_input: true }), askAll).kind).toBe('run');
  });

  it('holds HIGH risk under the rules analyzer, with the rules that fired', () => {
    expect(gate(queued('execute_bash', { command: 'npm install', security_risk: 'LOW' }), rules).kind).toBe(
      'run',
    );
    expect(
      gate(queued('execute_bash', { command: 'git push --force origin x', security_risk: 'LOW' }), rules),
    ).toMatchObject({
      kind: 'confirm',
      call: { risk: Risk.HIGH },
      rules: ['R4'],
    });
    expect(gate(queued('execute_bash', { command: 'echo s3cr3t-v4lue' }), rules)).toMatchObject({
      kind: 'confirm',
      rules: ['R5'],
    });
  });

  it('holds an undeclared risk under the llm analyzer', () => {
    expect(gate(queued('execute_bash', { command: 'npm install' }), llm).kind).toBe('confirm');
    expect(gate(queued('execute_bash', { command: 'npm install', security_risk: 'MEDIUM' }), llm).kind).toBe(
      'run',
    );
  });

  it('never holds anything without confirmation mode', () => {
    expect(gate(queued('execute_bash', { command: 'rm -rf /' })).kind).toBe('run');
  });
});

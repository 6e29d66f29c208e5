import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ScriptedLlmOptions, ScriptedStep } from '../../test/support/scripted-llm';

export interface LlmProcessMessage {
  type: string;
  [field: string]: unknown;
}

/** A recorded model call; times are epoch milliseconds. */
export interface LlmProcessRecord {
  startedAt: number;
  endedAt: number | null;
  /** The asked-for markers the request contained. */
  markers: string[];
}

/** A model call as the parent sees it: times on the parent's `performance.now()` clock. */
export interface ChildLlmCall {
  startedAt: number;
  endedAt: number | null;
  markers: string[];
}

export interface ScriptedLlmProcess {
  baseUrl: string;
  push(...steps: ScriptedStep[]): Promise<void>;
  /** Every model call so far, with the given markers found in its body. */
  calls(markers?: string[]): Promise<ChildLlmCall[]>;
  close(): Promise<void>;
}

function request(
  child: ChildProcess,
  message: LlmProcessMessage,
  answer: string,
): Promise<LlmProcessMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: LlmProcessMessage) => {
      if (reply.type !== answer) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(reply);
    };
    const onExit = (code: number | null) => reject(new Error(`the scripted LLM process exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(message);
  });
}

/**
 * `startScriptedLlm` in a child process (same loaders as this one), so the measured process does not
 * serve the model calls itself.
 */
export async function startScriptedLlmProcess(
  steps: ScriptedStep[],
  options: ScriptedLlmOptions = {},
): Promise<ScriptedLlmProcess> {
  const child = fork(path.join(import.meta.dirname, 'scripted-llm-process.ts'), {
    execArgv: process.execArgv.filter((a) => !a.startsWith('--cpu-prof')),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await once(child, 'spawn');
  const started = await request(child, { type: 'start', steps, options }, 'started');
  const local = (epoch: number) => epoch - performance.timeOrigin;
  return {
    baseUrl: started.baseUrl as string,
    push: async (...more) => void (await request(child, { type: 'push', steps: more }, 'pushed')),
    async calls(markers = []) {
      const reply = await request(child, { type: 'calls', markers }, 'calls');
      return (reply.calls as LlmProcessRecord[]).map((c) => ({
        startedAt: local(c.startedAt),
        endedAt: c.endedAt === null ? null : local(c.endedAt),
        markers: c.markers,
      }));
    },
    async close() {
      if (child.exitCode !== null) return;
      await request(child, { type: 'close' }, 'closed').catch(() => undefined);
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

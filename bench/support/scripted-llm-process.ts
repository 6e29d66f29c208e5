/**
 * The scripted LLM server in a child process of its own, so that its work (reading and parsing each request,
 * writing the reply) and the garbage it leaves do not run on the measured process's thread. Started by
 * `startScriptedLlmProcess`; the parent sends the script and reads the recorded requests over IPC.
 */
import { performance } from 'node:perf_hooks';
import {
  startScriptedLlm,
  type ScriptedLlmOptions,
  type ScriptedStep,
} from '../../test/support/scripted-llm';
import type { LlmProcessMessage, LlmProcessRecord } from './scripted-llm-child';

/** A time of this process as epoch milliseconds, comparable across processes. */
const epoch = (now: number) => performance.timeOrigin + now;

const send = (message: unknown) => process.send?.(message);

let llm: Awaited<ReturnType<typeof startScriptedLlm>> | undefined;

process.on('message', (message: LlmProcessMessage) => {
  void (async () => {
    switch (message.type) {
      case 'start': {
        llm = await startScriptedLlm(message.steps as ScriptedStep[], message.options as ScriptedLlmOptions);
        return send({ type: 'started', baseUrl: llm.baseUrl });
      }
      case 'push':
        llm?.push(...(message.steps as ScriptedStep[]));
        return send({ type: 'pushed' });
      case 'calls': {
        const calls: LlmProcessRecord[] = (llm?.calls ?? []).map((c) => ({
          startedAt: epoch(c.startedAt),
          endedAt: c.endedAt === null ? null : epoch(c.endedAt),
          markers: (message.markers as string[]).filter((m) => c.rawBody.includes(m)),
        }));
        return send({ type: 'calls', calls });
      }
      case 'close':
        await llm?.close();
        send({ type: 'closed' });
        return process.disconnect();
    }
  })();
});

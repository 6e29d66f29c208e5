import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import { type ObservedState, SandboxFailure } from '../sandbox-models';
import type { ExecResult } from '../sandbox-workspace';
import { exposedUrls, networkOf } from './container-options';
import { dockerErrorText } from './docker-errors';
import { dockerExec } from './docker-exec';

/** api-contract §14: a sandbox whose probe keeps failing this long goes to ERROR. */
const PROBE_FAILURE_LIMIT_MS = 30_000;
const PROBE_INTERVAL_MS = 250;

/**
 * Probes with `docker exec` (as root) until a probe passes, then reports RUNNING with the published ports.
 * A probe that runs and fails, a container that stops, or 30 s of probes that cannot run: SandboxFailure.
 */
export async function waitUntilReady(
  container: Docker.Container,
  probe: string[],
  passed: (result: ExecResult) => void = () => undefined,
): Promise<ObservedState> {
  const deadline = Date.now() + PROBE_FAILURE_LIMIT_MS;
  for (;;) {
    let lastError: string;
    try {
      const result = await dockerExec(container, probe);
      if (result.exitCode === 0) {
        passed(result);
        break;
      }
      const output = result.stderr.trim() || result.stdout.trim();
      throw new SandboxFailure(
        `The sandbox's readiness probe failed (exit code ${result.exitCode})${output ? `: ${output}` : ''}`,
      );
    } catch (error) {
      if (error instanceof SandboxFailure) throw error;
      lastError = dockerErrorText(error);
    }
    const info = await container.inspect();
    if (info.State.Status !== 'running') {
      const exit = info.State.OOMKilled ? 'out of memory' : `exit code ${info.State.ExitCode}`;
      throw new SandboxFailure(`The sandbox stopped while starting (${exit})`);
    }
    if (Date.now() > deadline) {
      throw new SandboxFailure(`The sandbox did not become ready within 30 s: ${lastError}`);
    }
    await sleep(PROBE_INTERVAL_MS);
  }
  const info = await container.inspect();
  return {
    status: 'RUNNING',
    error: null,
    exposedUrls: exposedUrls(networkOf(info), info.NetworkSettings.Ports),
  };
}

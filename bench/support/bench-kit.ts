import type Docker from 'dockerode';
import { containerOptions, DEFAULT_LIMITS } from '../../src/service/sandbox/docker/container-options';
import { newSandboxId } from '../../src/service/sandbox/sandbox-id';

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Runs a bench's `main` and exits with its code, or with 1 and the message when it throws. */
export function runBench(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}

/**
 * A baseline container made the way the Docker provider makes a sandbox's (same options, labelled with
 * `instanceId` so the bench can remove it), for raw dockerode timings beside the service's.
 */
export function baselineContainer(
  docker: Docker,
  options: { instanceId: string; image: string; user: string | null; network: 'host' | 'none' },
): { sandboxId: string; create: () => Promise<Docker.Container> } {
  const sandboxId = newSandboxId();
  const createOptions = containerOptions({
    sandboxId,
    instanceId: options.instanceId,
    spec: {
      id: options.image,
      command: ['sleep', 'infinity'],
      initialEnv: { LANG: 'C.UTF-8' },
      workingDir: '/workspace/project',
      title: '',
      description: '',
    },
    user: options.user,
    network: options.network,
    limits: DEFAULT_LIMITS,
    allowSudo: true,
  });
  return { sandboxId, create: () => docker.createContainer(createOptions) };
}

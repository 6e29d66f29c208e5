import Docker from 'dockerode';
import { requiredInCi } from './required-in-ci';

/** Containers for the shell and file-operation tests. */

export const SANDBOX_IMAGE = 'dockhand/sandbox:1.0.0';

/**
 * Why Docker tests cannot run here, or null when the engine answers and the image exists; with `CI` set,
 * throws instead (see requiredInCi).
 */
export async function dockerUnavailableReason(docker: Docker, image = SANDBOX_IMAGE): Promise<string | null> {
  return requiredInCi('A Docker engine with the sandbox image', await dockerProblem(docker, image));
}

async function dockerProblem(docker: Docker, image: string): Promise<string | null> {
  try {
    await docker.ping();
  } catch (error) {
    return `the Docker engine does not answer (${error instanceof Error ? error.message : String(error)})`;
  }
  try {
    await docker.getImage(image).inspect();
  } catch {
    return `the image ${image} is missing (bash scripts/sandbox-image.sh builds it)`;
  }
  return null;
}

/** A running `sleep infinity` container without network, labelled for clean-up. */
export async function startTestContainer(docker: Docker, purpose: string): Promise<Docker.Container> {
  const container = await docker.createContainer({
    Image: SANDBOX_IMAGE,
    Cmd: ['sleep', 'infinity'],
    Labels: { 'dev.dockhand.managed': 'true', 'dev.dockhand.test': purpose },
    HostConfig: { Init: true, NetworkMode: 'none' },
  });
  try {
    await container.start();
  } catch (error) {
    await removeContainer(container);
    throw error;
  }
  return container;
}

export async function removeContainer(container: Docker.Container): Promise<void> {
  await container.remove({ force: true, v: true });
}

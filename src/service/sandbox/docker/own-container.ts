import type Docker from 'dockerode';
import { HttpError, httpError } from '../../http/errors';
import { containerName, volumeName } from '../sandbox-id';
import { SandboxFailure } from '../sandbox-models';
import { dockerErrorText, dockerStatusCode, ignoringGone } from './docker-errors';
import { type DockerConnection, DockerUnavailable } from './docker-status';
import { LABEL } from './labels';

export interface OwnContainer {
  container: Docker.Container;
  info: Docker.ContainerInspectInfo;
}

/** The sandbox's container with its inspect data, or null when it is gone or not this install's. */
export async function ownContainer(
  client: Docker,
  instanceId: string,
  sandboxId: string,
): Promise<OwnContainer | null> {
  const container = client.getContainer(containerName(sandboxId));
  let info: Docker.ContainerInspectInfo;
  try {
    info = await container.inspect();
  } catch (error) {
    if (dockerStatusCode(error) === 404) return null;
    throw error;
  }
  const labels = info.Config.Labels ?? {};
  if (labels[LABEL.instance] !== instanceId || labels[LABEL.sandboxId] !== sandboxId) return null;
  return { container, info };
}

/** Removes the sandbox's volume when it is this install's. */
export async function removeOwnVolume(client: Docker, instanceId: string, sandboxId: string): Promise<void> {
  const volume = client.getVolume(volumeName(sandboxId));
  const volumeInfo = await volume.inspect().catch((error: unknown) => {
    if (dockerStatusCode(error) === 404) return null;
    throw error;
  });
  if (volumeInfo && volumeInfo.Labels?.[LABEL.instance] === instanceId) {
    await ignoringGone(() => volume.remove());
  }
}

/**
 * Runs a Docker operation for a request: a lost engine becomes 503 and a refusal by the engine a 409 with
 * its words, so that neither reads as a bug (500).
 */
export async function guarded<T>(
  connection: DockerConnection,
  action: string,
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof HttpError || error instanceof SandboxFailure) throw error;
    const diagnosis = await connection.diagnose();
    if (!('apiVersion' in diagnosis)) throw new DockerUnavailable(diagnosis);
    if (dockerStatusCode(error) !== undefined) {
      throw httpError(409, `Docker could not ${action} the sandbox: ${dockerErrorText(error)}`);
    }
    throw error;
  }
}

import type Docker from 'dockerode';
import { SandboxFailure } from '../sandbox-models';
import { dockerStatusCode } from './docker-errors';
import { LABEL } from './labels';

/** The bridge network every `bridge` sandbox joins instead of Docker's default bridge. */
export const SANDBOX_NETWORK = 'dockhand-sandboxes';

/** The bridge driver option that turns off traffic between the containers of a network. */
const ICC_OPTION = 'com.docker.network.bridge.enable_icc';

/**
 * A bridge network with inter-container communication off: each sandbox still reaches the internet and
 * publishes its app ports on 127.0.0.1, but cannot open a connection to another sandbox (or to any other
 * container on Docker's default bridge, which it never joins).
 */
export function sandboxNetworkOptions(): Docker.NetworkCreateOptions {
  return {
    Name: SANDBOX_NETWORK,
    Driver: 'bridge',
    CheckDuplicate: true,
    Options: { [ICC_OPTION]: 'false' },
    Labels: { [LABEL.managed]: 'true' },
  };
}

/** Creates the sandbox network unless it exists; refuses one of that name that lets containers talk. */
export async function ensureSandboxNetwork(docker: Docker): Promise<void> {
  const info = await inspect(docker);
  if (!info) {
    try {
      await docker.createNetwork(sandboxNetworkOptions());
    } catch (error) {
      // Another sandbox created it meanwhile; it is checked below.
      if (dockerStatusCode(error) !== 409) throw error;
    }
  }
  const created = info ?? (await inspect(docker));
  if (created?.Options?.[ICC_OPTION] !== 'false') {
    throw new SandboxFailure(
      `The Docker network ${SANDBOX_NETWORK} lets containers reach each other (${ICC_OPTION} is not false). ` +
        `Remove it (docker network rm ${SANDBOX_NETWORK}) and Dockhand creates it again.`,
    );
  }
}

async function inspect(docker: Docker): Promise<{ Options?: Record<string, string> } | null> {
  try {
    return (await docker.getNetwork(SANDBOX_NETWORK).inspect()) as { Options?: Record<string, string> };
  } catch (error) {
    if (dockerStatusCode(error) === 404) return null;
    throw error;
  }
}

import Docker from 'dockerode';

/** The offline sandbox image (`npm run sandbox:image` builds it), without a network, as tests run it. */
export const SANDBOX_IMAGE = 'dockhand/sandbox:1.0.0';
export const SANDBOX_ENV = { DOCKHAND_SANDBOX_IMAGE: SANDBOX_IMAGE, DOCKHAND_SANDBOX_NETWORK: 'none' };

/** Why conversations cannot run here, or null when the Docker engine answers and the image exists. */
export async function sandboxSkipReason(): Promise<string | null> {
  const docker = new Docker();
  try {
    await docker.ping();
  } catch (error) {
    return `no Docker engine answers (${error instanceof Error ? error.message : String(error)})`;
  }
  try {
    await docker.getImage(SANDBOX_IMAGE).inspect();
  } catch {
    return `the image ${SANDBOX_IMAGE} is missing (run \`npm run sandbox:image\`)`;
  }
  return null;
}

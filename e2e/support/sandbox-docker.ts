import Docker from 'dockerode';
import { ConversationList } from '../../src/shared/api/conversations';
import type { DockhandService } from './dockhand-service';

/** The offline sandbox image (`npm run sandbox:image` builds it), without a network, as tests run it. */
export const SANDBOX_IMAGE = 'dockhand/sandbox:1.0.0';
export const SANDBOX_ENV = { DOCKHAND_SANDBOX_IMAGE: SANDBOX_IMAGE, DOCKHAND_SANDBOX_NETWORK: 'none' };
/** The same on the host's network, for sandboxes that reach git or provider servers on 127.0.0.1. */
export const HOST_NETWORK_SANDBOX_ENV = { ...SANDBOX_ENV, DOCKHAND_SANDBOX_NETWORK: 'host' };

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

/** Deletes every conversation of `service`, and with it its sandbox: no container outlives the run. */
export async function deleteConversations(service: DockhandService): Promise<void> {
  const listed = ConversationList.parse((await service.api('GET', '/api/conversations?limit=100')).body);
  for (const conversation of listed.results) {
    await service.api('DELETE', `/api/conversations/${conversation.conversation_id}`);
  }
}

import type { ProviderApiBase } from '../../src/service/git/provider-api';
import { ConversationStore } from '../../src/service/conversations/conversation-store';
import { machineEnvironment, resolveDockerEndpoint } from '../../src/service/sandbox/docker/docker-endpoint';
import { DockerConnection } from '../../src/service/sandbox/docker/docker-status';
import { type FakeGitProviders, startFakeGitProviders } from '../support/fake-git-providers';
import { startTestService, type TestService } from '../support/service';
import {
  type FuzzOptions,
  type FuzzRequest,
  type FuzzResponse,
  type OpenApiDocument,
  operationsOf,
  send,
} from './fuzz-requests';
import { blankConversation } from '../support/conversation-records';

export const FUZZ_CONVERSATION = 'fuzz-conversation';
export const FUZZ_SECRET = 'FUZZ_SECRET';

/**
 * A service to fuzz, made harmless to the machine it runs on:
 * - its Docker engine address leads nowhere, so no valid call creates, pauses or removes a container
 *   (sandbox and conversation starts answer 503), and the process provider cannot be chosen;
 * - every git provider host, whatever a request names, maps to a fake provider server on 127.0.0.1;
 * - the generators only produce loopback URLs and hosts (fuzz-requests.ts), so settings never point the
 *   service at another machine.
 * It holds one stopped conversation and one custom secret, so path ids also hit existing records.
 */
export interface FuzzTarget {
  service: TestService;
  operations: ReturnType<typeof operationsOf>;
  options: FuzzOptions;
  /** Sends a request with the current key; follows a key rotation the request itself made. */
  call(request: FuzzRequest): Promise<FuzzResponse>;
  alive(): Promise<boolean>;
  close(): Promise<void>;
}

function unreachableDocker(): DockerConnection {
  const endpoint = resolveDockerEndpoint(
    machineEnvironment({ DOCKER_HOST: 'unix:///nonexistent/docker.sock' }),
  );
  return new DockerConnection({ env: process.env, endpoint });
}

function allHostsTo(providers: FakeGitProviders): ProviderApiBase {
  return (provider) => providers.apiBase(provider, provider === 'gitlab' ? 'gitlab.com' : 'github.com');
}

export async function startFuzzTarget(hugeString: number): Promise<FuzzTarget> {
  const providers = await startFakeGitProviders({ github: 'ghp_fuzz', gitlab: 'glpat_fuzz' });
  const service = await startTestService({
    docker: unreachableDocker(),
    providerApiBase: allHostsTo(providers),
    sandbox: { provider: 'docker', idlePauseSeconds: 0 },
    rateLimitPerSecond: 1_000_000,
  });
  new ConversationStore(service.service.db).insert(
    blankConversation(FUZZ_CONVERSATION, { title: 'Fuzz', titleIsCustom: true }),
  );
  await service.api('POST', '/api/secrets', { body: { name: FUZZ_SECRET, value: 'fuzz-value' } });
  const doc = (await service.api('GET', '/api/openapi.json', { key: null })).json as OpenApiDocument;
  let key = service.key;
  return {
    service,
    operations: operationsOf(doc),
    options: {
      knownIds: { id: [FUZZ_CONVERSATION, FUZZ_SECRET], repository_name: ['acme/widgets'] },
      hugeString,
    },
    call: async (request) => {
      const response = await send(service.port, key, request);
      if (response.status === 200 && request.path.startsWith('/api/session-api-key/rotate')) {
        key = (JSON.parse(response.text) as { session_api_key: string }).session_api_key;
      }
      return response;
    },
    alive: async () => (await service.api('GET', '/alive', { key: null })).status === 200,
    close: async () => {
      await service.close();
      await providers.close();
    },
  };
}

import type { ServiceConfig } from '../../src/service/config';
import { startFakeGitProviders, type FakeGitProviders } from './fake-git-providers';
import { startGitHttpServer, type GitHttpServer, type GitRepositoryFixture } from './git-http-server';
import type { TestResponse, TestService } from './service';

export interface GitHubRepositories {
  git: GitHttpServer;
  providers: FakeGitProviders;
  /** Service settings that send GitHub API calls to the fake provider and clone from `git` over http. */
  serviceConfig: Partial<ServiceConfig>;
  /** Stores the token for `git`'s host in `service`, as the Settings page does. */
  storeToken(service: TestService): Promise<TestResponse>;
  close(): Promise<void>;
}

/** `repositories` served by git smart-HTTP on 127.0.0.1 and listed by a fake GitHub API that accepts `token`. */
export async function startGitHubRepositories(
  token: string,
  repositories: GitRepositoryFixture[],
): Promise<GitHubRepositories> {
  const git = await startGitHttpServer({ token, repositories });
  const providers = await startFakeGitProviders(
    { github: token },
    repositories.map(({ name, private: hidden = false }) => ({
      provider: 'github' as const,
      path: name,
      private: hidden,
    })),
  );
  return {
    git,
    providers,
    serviceConfig: {
      providerApiBase: (provider) => providers.apiBase(provider, 'github.com'),
      gitScheme: 'http',
    },
    storeToken: (service) =>
      service.api('POST', '/api/add-git-providers', {
        body: { provider_tokens: { github: { token, host: git.host } } },
      }),
    close: async () => {
      await Promise.all([providers.close(), git.close()]);
    },
  };
}

import { describe, expect, it } from 'vitest';
import { repositoryPathFromUrl } from './repository-urls';

describe('repositoryPathFromUrl', () => {
  it('reads owner/repo from a web URL on the provider host', () => {
    expect(repositoryPathFromUrl('https://github.com/acme/web/tree/main', ['github.com'], 2)).toBe(
      'acme/web',
    );
    expect(repositoryPathFromUrl('https://github.com/acme/web.git', ['github.com'], 2)).toBe('acme/web');
    expect(repositoryPathFromUrl('https://git.corp:8443/a/b/c/-/merge_requests/3', ['git.corp:8443'])).toBe(
      'a/b/c',
    );
  });

  it('is null for another host, a path without a repository, or text', () => {
    expect(repositoryPathFromUrl('https://gitlab.com/acme/web', ['github.com'], 2)).toBeNull();
    expect(repositoryPathFromUrl('https://github.com/acme', ['github.com'], 2)).toBeNull();
    expect(repositoryPathFromUrl('acme/web', ['github.com'], 2)).toBeNull();
    expect(repositoryPathFromUrl('https://', ['github.com'], 2)).toBeNull();
  });
});

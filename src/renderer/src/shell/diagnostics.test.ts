import { describe, expect, it } from 'vitest';
import { describeDocker, describeSecrets } from './diagnostics';

const okKeychain = { backend: 'keychain', state: 'ok', message: null, fix: null } as const;

describe('describeDocker', () => {
  it('names the cause and carries the service’s fix', () => {
    const diagnosis = describeDocker({
      available: false,
      endpoint: 'unix:///var/run/docker.sock',
      error: 'nothing answers at unix:///var/run/docker.sock; the engine is not running',
      cause: 'not_running',
      fix: 'Start the engine.',
      api_version: null,
    });
    expect(diagnosis).toEqual({
      tone: 'error',
      label: 'Docker not running',
      problem: {
        headline: 'Sandboxes cannot start until Docker is available',
        cause: 'Nothing answers at unix:///var/run/docker.sock; the engine is not running.',
        fix: 'Start the engine.',
      },
    });
  });

  it('reports an available engine without a problem', () => {
    const docker = {
      available: true,
      endpoint: 'e',
      error: null,
      cause: null,
      fix: null,
      api_version: '1.41',
    };
    expect(describeDocker(docker)).toEqual({ tone: 'ok', label: 'Docker available' });
  });
});

describe('describeSecrets', () => {
  it('explains an unusable keychain with its message, its fix and where the session key went', () => {
    const diagnosis = describeSecrets({
      secret_storage: 'file',
      keychain: { backend: 'keychain', state: 'locked', message: 'Collection is locked', fix: 'Unlock it.' },
    });
    expect(diagnosis.tone).toBe('error');
    expect(diagnosis.problem?.cause).toBe(
      'The OS keychain cannot be used (locked): Collection is locked. Meanwhile the session key is kept in a 0600 file in the data folder.',
    );
    expect(diagnosis.problem?.fix).toBe('Unlock it.');
  });

  it('warns when secrets are in a plain file', () => {
    const diagnosis = describeSecrets({
      secret_storage: 'file',
      keychain: { backend: 'file', state: 'ok', message: null, fix: null },
    });
    expect(diagnosis).toMatchObject({ tone: 'warning', label: 'Secrets in a plain file' });
  });

  it('is quiet when the keychain works', () => {
    expect(describeSecrets({ secret_storage: 'keychain', keychain: okKeychain })).toEqual({
      tone: 'ok',
      label: 'Secrets in OS keychain',
    });
  });
});

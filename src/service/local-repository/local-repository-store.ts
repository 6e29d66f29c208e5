import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LocalRepositoryInfo } from '../../shared/api/local-repository';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../data-dir';

/**
 * Where a conversation's copy of a local repository came from, kept on this machine (not in the sandbox,
 * whose refs the agent can move): `<data>/conversations/<id>/local-repository.json`.
 */
export class LocalRepositoryStore {
  constructor(private readonly dataDir: string) {}

  private file(conversationId: string): string {
    return path.join(this.dataDir, 'conversations', conversationId, 'local-repository.json');
  }

  async save(conversationId: string, info: LocalRepositoryInfo): Promise<void> {
    await mkdir(path.dirname(this.file(conversationId)), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    await writeFile(this.file(conversationId), JSON.stringify(info), { mode: PRIVATE_FILE_MODE });
  }

  /** The conversation's local repository, or null when it has none (or its copy was not made yet). */
  async load(conversationId: string): Promise<LocalRepositoryInfo | null> {
    const text = await readFile(this.file(conversationId), 'utf8').catch(() => null);
    if (text === null) return null;
    const parsed = LocalRepositoryInfo.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  }
}

import { posix } from 'node:path';
import { surveyRootOf } from './file-survey';
import type { FileSurvey, SurveyRoot } from './sandbox-files';
import {
  DEFAULT_MAX_READ_BYTES,
  type FileInfo,
  type ReadOptions,
  SandboxFileError,
  type SandboxFiles,
  type WriteOptions,
} from './sandbox-files';
import { tooLarge } from './file-stream';
import { sandboxPath } from './sandbox-path';

/**
 * A sandbox's files as a survey saw them: stat, list and read of surveyed paths are answered from it, as
 * the sandbox would have answered then; anything else (symlinks, large files, paths outside the survey)
 * goes to the sandbox. Meant for the start pipeline, which reads before anything else writes. A write goes to
 * the sandbox and drops what the survey knew.
 */
export class SurveyedFiles implements SandboxFiles {
  private snapshot: FileSurvey | null;

  constructor(
    private readonly files: SandboxFiles,
    snapshot: FileSurvey | null,
  ) {
    this.snapshot = snapshot;
  }

  async read(path: string, options: ReadOptions = {}): Promise<Buffer> {
    const target = sandboxPath(path);
    const known = this.known(target);
    if (known === 'missing') throw new SandboxFileError('not_found', `${path} does not exist`);
    if (known?.type === 'directory') throw new SandboxFileError('is_directory', `${path} is a directory`);
    const content = known?.type === 'file' ? this.snapshot?.contents.get(target) : undefined;
    if (!content) return this.files.read(path, options);
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
    if (content.length > maxBytes) throw tooLarge(path, maxBytes);
    return content;
  }

  async stat(path: string): Promise<FileInfo | null> {
    const known = this.known(sandboxPath(path));
    if (known === 'missing') return null;
    return known && known.type !== 'symlink' && known.type !== 'other' ? known : this.files.stat(path);
  }

  async list(directory: string): Promise<FileInfo[]> {
    const target = sandboxPath(directory);
    const known = this.known(target);
    if (known === 'missing') throw new SandboxFileError('not_found', `${directory} does not exist`);
    if (known?.type === 'file')
      throw new SandboxFileError('not_directory', `${directory} is not a directory`);
    if (known?.type !== 'directory' || !this.listed(target)) return this.files.list(directory);
    return [...(this.snapshot?.entries.values() ?? [])]
      .filter((entry) => entry.path !== target && posix.dirname(entry.path) === target)
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** From now on every call goes to the sandbox (something may have changed what the survey saw). */
  forget(): void {
    this.snapshot = null;
  }

  async write(path: string, data: Buffer | string, options?: WriteOptions): Promise<void> {
    this.forget();
    await this.files.write(path, data, options);
  }

  async upload(directory: string, archive: NodeJS.ReadableStream | Buffer): Promise<void> {
    this.forget();
    await this.files.upload(directory, archive);
  }

  download(path: string): Promise<NodeJS.ReadableStream> {
    return this.files.download(path);
  }

  survey(roots: SurveyRoot[]): Promise<FileSurvey | null> {
    return this.files.survey(roots);
  }

  /**
   * What the survey says is at `path`: its entry, `missing` when it proves nothing is there (the parent was
   * listed without it, or the root itself was missing), or null when it cannot say.
   */
  private known(path: string): FileInfo | 'missing' | null {
    const survey = this.snapshot;
    const place = survey ? surveyRootOf(survey, path) : null;
    if (!survey || !place) return null;
    const entry = survey.entries.get(path);
    if (entry) return entry;
    if (!survey.entries.has(place.root.path)) return 'missing';
    const parent = posix.dirname(path);
    return place.depth > 0 && survey.entries.get(parent)?.type === 'directory' && this.listed(parent)
      ? 'missing'
      : null;
  }

  /** Whether the survey holds a directory's entries (it is above its root's depth). */
  private listed(directory: string): boolean {
    const place = this.snapshot ? surveyRootOf(this.snapshot, directory) : null;
    return place !== null && place.depth < place.root.depth;
  }
}

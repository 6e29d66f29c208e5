import type Docker from 'dockerode';
import { posix } from 'node:path';
import * as tar from 'tar-stream';
import { dockerExec } from '../docker/docker-exec';
import {
  DEFAULT_MAX_READ_BYTES,
  SandboxFileError,
  type FileInfo,
  type ReadOptions,
  type SandboxFiles,
  type WriteOptions,
} from './sandbox-files';
import type { FileSurvey, SurveyRoot } from './sandbox-files';
import { FIND_FORMAT, parseFindRecords } from './find-records';
import { parseSurvey, SURVEY_SCRIPT, surveyArgs, surveyRoots } from './survey-command';
import { readSandboxFile } from './file-stream';
import { pathName, sandboxPath } from './sandbox-path';

export interface DockerFilesOptions {
  /** The sandbox user: runs stat and listing commands, creates missing directories, owns new files. */
  user?: string;
}

const MISSING = 3;
const IS_DIRECTORY = 4;
const NOT_DIRECTORY = 5;

const STAT_SCRIPT = `[ -e "$1" ] || exit ${MISSING}
find -L "$1" -maxdepth 0 -printf '${FIND_FORMAT}'`;

const LIST_SCRIPT = `[ -e "$1" ] || exit ${MISSING}
[ -d "$1" ] || exit ${NOT_DIRECTORY}
find -H "$1" -mindepth 1 -maxdepth 1 -printf '${FIND_FORMAT}'`;

// An existing file is described at its real path; for a new one, parents are made and the owner ids printed.
const PREPARE_WRITE_SCRIPT = `[ -d "$1" ] && exit ${IS_DIRECTORY}
if [ -e "$1" ]; then
  find -L "$(readlink -f -- "$1")" -maxdepth 0 -printf '${FIND_FORMAT}'
else
  mkdir -p -- "$(dirname -- "$1")" && printf 'new\\0%s\\0%s\\0' "$(id -u)" "$(id -g)"
fi`;

const MAKE_DIRECTORY_SCRIPT = 'mkdir -p -- "$1"';

/**
 * Files in a container: contents move through the Docker archive API (getArchive/putArchive), and
 * metadata comes from one-off `find` commands run as the sandbox user.
 */
export class DockerSandboxFiles implements SandboxFiles {
  private readonly user: string;

  constructor(
    private readonly container: Docker.Container,
    options: DockerFilesOptions = {},
  ) {
    this.user = options.user ?? 'dockhand';
  }

  read(path: string, options: ReadOptions = {}): Promise<Buffer> {
    return readSandboxFile(this, path, options.maxBytes ?? DEFAULT_MAX_READ_BYTES);
  }

  async write(path: string, data: Buffer | string, options: WriteOptions = {}): Promise<void> {
    const requested = sandboxPath(path);
    const result = await this.script(PREPARE_WRITE_SCRIPT, requested);
    if (result.exitCode === IS_DIRECTORY)
      throw new SandboxFileError('is_directory', `${path} is a directory`);
    this.assertSucceeded(result, path);
    const fields = result.stdout.split('\0');
    const existing = fields[0] === 'new' ? null : parseFindRecords(result.stdout)[0];
    if (existing === undefined)
      throw new SandboxFileError('failed', `${path}: unexpected answer ${result.stdout}`);
    const target = existing?.path ?? requested;
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const pack = tar.pack();
    pack.entry(
      {
        name: pathName(target),
        type: 'file',
        size: bytes.length,
        mode: existing?.mode ?? options.mode ?? 0o644,
        uid: existing?.uid ?? Number(fields[1]),
        gid: existing?.gid ?? Number(fields[2]),
        mtime: new Date(),
      },
      bytes,
    );
    pack.finalize();
    await this.putArchive(await readAll(pack), posix.dirname(target), path);
  }

  async list(directory: string): Promise<FileInfo[]> {
    const path = sandboxPath(directory);
    const result = await this.script(LIST_SCRIPT, path);
    if (result.exitCode === NOT_DIRECTORY)
      throw new SandboxFileError('not_directory', `${directory} is not a directory`);
    this.assertSucceeded(result, directory);
    return parseFindRecords(result.stdout).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  async stat(path: string): Promise<FileInfo | null> {
    const target = sandboxPath(path);
    const result = await this.script(STAT_SCRIPT, target);
    if (result.exitCode === MISSING) return null;
    this.assertSucceeded(result, path);
    return parseFindRecords(result.stdout)[0] ?? null;
  }

  async upload(directory: string, archive: NodeJS.ReadableStream | Buffer): Promise<void> {
    const path = sandboxPath(directory);
    this.assertSucceeded(await this.script(MAKE_DIRECTORY_SCRIPT, path), directory);
    await this.putArchive(archive, path, directory);
  }

  async download(path: string): Promise<NodeJS.ReadableStream> {
    const target = sandboxPath(path);
    try {
      return await this.container.getArchive({ path: target });
    } catch (error) {
      throw archiveError(error, path);
    }
  }

  async survey(roots: SurveyRoot[]): Promise<FileSurvey | null> {
    const checked = surveyRoots(roots);
    const result = await dockerExec(
      this.container,
      ['sh', '-c', SURVEY_SCRIPT, 'sh', ...surveyArgs(checked, null)],
      { user: this.user },
    );
    return result.exitCode === 0 ? parseSurvey(result.stdout, checked, result.truncated) : null;
  }

  private async putArchive(
    archive: NodeJS.ReadableStream | Buffer,
    directory: string,
    path: string,
  ): Promise<void> {
    try {
      await this.container.putArchive(archive, { path: directory });
    } catch (error) {
      throw archiveError(error, path);
    }
  }

  private script(script: string, path: string) {
    return dockerExec(this.container, ['sh', '-c', script, 'sh', path], { user: this.user });
  }

  private assertSucceeded(result: { exitCode: number; stderr: string }, path: string): void {
    if (result.exitCode === 0) return;
    if (result.exitCode === MISSING) throw new SandboxFileError('not_found', `${path} does not exist`);
    throw new SandboxFileError(
      'failed',
      `${path}: ${result.stderr.trim() || `exit code ${result.exitCode}`}`,
    );
  }
}

function archiveError(error: unknown, path: string): Error {
  if ((error as { statusCode?: number }).statusCode === 404) {
    return new SandboxFileError('not_found', `${path} does not exist`);
  }
  return new SandboxFileError('failed', `${path}: ${error instanceof Error ? error.message : String(error)}`);
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk as Uint8Array);
  return Buffer.concat(chunks);
}

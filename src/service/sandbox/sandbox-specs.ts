import type { SandboxSpecInfo } from '../../shared/api/sandbox-specs';
import { decodeCursor, encodeCursor } from '../http/page-cursor';
import type { DockerImages } from './docker/docker-images';
import type { SandboxSettings, SandboxSpec } from './sandbox-models';

/** The public default image (OpenHands' default runtime base). */
export const BUILT_IN_IMAGE = 'nikolaik/python-nodejs:python3.12-nodejs22';

const COMMAND = ['sleep', 'infinity'];
export const INITIAL_ENV: Record<string, string> = { LANG: 'C.UTF-8' };
export const WORKING_DIR = '/workspace/project';

function spec(id: string, title: string, description: string): SandboxSpec {
  return { id, command: COMMAND, initialEnv: INITIAL_ENV, workingDir: WORKING_DIR, title, description };
}

/**
 * The sandbox specs: the built-in image (or DOCKHAND_SANDBOX_IMAGE), plus the runtime and base images of the
 * settings. The default (runtime ?? base ?? built-in) comes first.
 */
export class SandboxSpecs {
  constructor(
    private readonly settings: () => Pick<SandboxSettings, 'runtimeImage' | 'baseImage'>,
    private readonly images: DockerImages,
    /** DOCKHAND_SANDBOX_IMAGE or config; null = the public built-in image. */
    private readonly imageOverride: string | null,
    private readonly startedAt: Date,
  ) {}

  list(): SandboxSpec[] {
    const { runtimeImage, baseImage } = this.settings();
    const builtIn = this.imageOverride
      ? spec(
          this.imageOverride,
          'Sandbox image (DOCKHAND_SANDBOX_IMAGE)',
          'The image named by DOCKHAND_SANDBOX_IMAGE, e.g. the offline image `npm run sandbox:image` builds.',
        )
      : spec(
          BUILT_IN_IMAGE,
          'Python 3.12 and Node.js 22',
          'The public default image, pulled from Docker Hub on first use.',
        );
    const candidates = [
      runtimeImage
        ? spec(runtimeImage, 'Runtime image (settings)', 'sandbox_runtime_container_image in the settings.')
        : null,
      baseImage
        ? spec(baseImage, 'Base image (settings)', 'sandbox_base_container_image in the settings.')
        : null,
      builtIn,
    ];
    const seen = new Set<string>();
    return candidates.filter((candidate): candidate is SandboxSpec => {
      if (!candidate || seen.has(candidate.id)) return false;
      seen.add(candidate.id);
      return true;
    });
  }

  default(): SandboxSpec {
    const [first] = this.list();
    if (!first) throw new Error('No sandbox spec is defined');
    return first;
  }

  /** Progress messages about getting the spec's image (pull, build, substitution), for its waiting users. */
  onImageNotice(candidate: SandboxSpec, listener: (message: string) => void): () => void {
    return this.images.onNotice(candidate.id, listener);
  }

  find(id: string): SandboxSpec | null {
    return this.list().find((candidate) => candidate.id === id) ?? null;
  }

  /** One page of specs (default first); the cursor names the first spec of the next page. */
  async page(pageId: string | null | undefined, limit: number) {
    const specs = this.list();
    const start = pageId ? specs.findIndex((candidate) => candidate.id === decodeCursor(pageId, 1)[0]) : 0;
    const from = start < 0 ? specs.length : start;
    const next = specs[from + limit];
    return {
      items: await Promise.all(specs.slice(from, from + limit).map((candidate) => this.info(candidate))),
      next_page_id: next ? encodeCursor([next.id]) : null,
    };
  }

  /** The API view: with whether the image is present and any pull under way. */
  async info(candidate: SandboxSpec): Promise<SandboxSpecInfo> {
    const image = await this.images.inspect(candidate.id);
    return {
      id: candidate.id,
      command: candidate.command,
      created_at: image?.Created ? new Date(image.Created).toISOString() : this.startedAt.toISOString(),
      initial_env: candidate.initialEnv,
      working_dir: candidate.workingDir,
      title: candidate.title,
      description: candidate.description,
      image_present: image !== null,
      image_progress: this.images.progress(candidate.id),
    };
  }
}

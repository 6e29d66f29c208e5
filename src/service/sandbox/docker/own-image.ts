import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Dockhand's own sandbox image (resources/sandbox), used when the configured image cannot be had. */
export interface OwnImage {
  /** `dockhand/sandbox:<version>`. */
  name: string;
  /** scripts/sandbox-image.sh, the one build of that image; null where it is not shipped (no build). */
  buildScript: string | null;
}

/** A build's progress: `Step N/M` of the Dockerfile as a percent, else null (e.g. making the base). */
export interface BuildProgress {
  percent: number | null;
  message: string;
}

const STEP = /^Step (\d+)\/(\d+) /;
/** How much of the build's output a failure quotes. */
const TAIL_LINES = 5;

/** What one line of the build script's output says about its progress. */
export function buildProgressOf(line: string): BuildProgress {
  const step = STEP.exec(line);
  if (step) {
    const [done, total] = [Number(step[1]), Number(step[2])];
    return { percent: Math.floor(((done - 1) / total) * 100), message: `step ${done} of ${total}` };
  }
  return { percent: null, message: line.replace(/^sandbox-image: /, '') };
}

/**
 * Builds the image with the project's build script (offline it makes a Debian base with debootstrap first,
 * which takes minutes), reporting each line of progress. Rejects with the end of its output on failure.
 */
export function buildOwnImage(
  image: OwnImage,
  onProgress: (progress: BuildProgress) => void,
  signal: AbortSignal,
): Promise<void> {
  const script = image.buildScript;
  if (!script) return Promise.reject(new Error('this installation has no build script for it'));
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, image.name], { stdio: ['ignore', 'pipe', 'pipe'], signal });
    const tail: string[] = [];
    const remember = (line: string) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    };
    createInterface({ input: child.stdout }).on('line', (line) => {
      remember(line);
      onProgress(buildProgressOf(line));
    });
    createInterface({ input: child.stderr }).on('line', remember);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`the build failed (exit code ${code}): ${tail.join(' / ')}`)),
    );
  });
}

import { IMAGE_MEDIA_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES } from '../../../shared/api/image-limits';

export interface AttachedImage {
  id: string;
  name: string;
  /** `data:image/...;base64,...`, as `image_urls` takes it. */
  url: string;
}

const MIB = 1024 * 1024;

function size(bytes: number): string {
  return bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/** Why `file` cannot be attached, or null when it can. */
export function imageProblem(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  if (!(IMAGE_MEDIA_TYPES as readonly string[]).includes(file.type)) {
    return `${file.name} is not a PNG, JPEG, GIF or WebP image.`;
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return `${file.name} is ${size(file.size)}; an image may be at most ${size(MAX_IMAGE_BYTES)}.`;
  }
  return null;
}

/** Splits `files` into those to attach, after `alreadyAttached` images, and the reasons the rest cannot be. */
export function sortImageFiles<F extends Pick<File, 'name' | 'type' | 'size'>>(
  files: F[],
  alreadyAttached: number,
): { accepted: F[]; problems: string[] } {
  const accepted: F[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const problem = imageProblem(file);
    if (problem) problems.push(problem);
    else if (alreadyAttached + accepted.length >= MAX_IMAGES) {
      problems.push(`${file.name} was not attached: at most ${MAX_IMAGES} images go with one message.`);
    } else accepted.push(file);
  }
  return { accepted, problems };
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

import type { FilePart, TextPart } from 'ai';
import { supportsVision } from './llm/model-table';

import { MAX_IMAGE_BYTES, MAX_IMAGE_URL_CHARS, MAX_IMAGES } from '../../shared/api/image-limits';

export { MAX_IMAGES, MAX_IMAGE_URL_CHARS, MAX_IMAGE_BYTES } from '../../shared/api/image-limits';

/** The exact text for images sent to a model without vision (agent-behaviour §6.6). */
export const IMAGES_NOT_SUPPORTED =
  'Model does not support image upload, change to a different model or try without an image.';

const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp));base64,(.*)$/is;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const HTTP_URL = /^https?:\/\//i;

export type ImageProblemCode =
  'too_many' | 'unsupported_url' | 'url_too_long' | 'unsupported_type' | 'invalid_base64' | 'too_large';

/** What is wrong with `image_urls`; `index` is the image's position, null for the list as a whole. */
export interface ImageProblem {
  index: number | null;
  code: ImageProblemCode;
  message: string;
}

/** The model cannot take images: 400 at creation, an error payload in chat; nothing is appended. */
export class ImagesNotSupportedError extends Error {
  constructor() {
    super(IMAGES_NOT_SUPPORTED);
    this.name = 'ImagesNotSupportedError';
  }
}

function decodedBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

function urlProblem(url: string): Omit<ImageProblem, 'index'> | null {
  if (HTTP_URL.test(url)) {
    if (url.length > MAX_IMAGE_URL_CHARS) {
      return {
        code: 'url_too_long',
        message: `An image URL may have at most ${MAX_IMAGE_URL_CHARS} characters`,
      };
    }
    return URL.canParse(url)
      ? null
      : { code: 'unsupported_url', message: 'The image URL is not a valid URL' };
  }
  if (!/^data:/i.test(url)) {
    return { code: 'unsupported_url', message: 'An image must be an http(s) URL or a base64 data URL' };
  }
  const data = DATA_URL.exec(url)?.[2];
  if (data === undefined) {
    return {
      code: 'unsupported_type',
      message: 'A data URL image must be base64-encoded PNG, JPEG, GIF or WebP (data:image/png;base64,…)',
    };
  }
  if (data.length % 4 !== 0 || !BASE64.test(data)) {
    return { code: 'invalid_base64', message: 'The data URL image is not valid base64' };
  }
  if (decodedBytes(data) > MAX_IMAGE_BYTES) {
    return { code: 'too_large', message: 'A data URL image may have at most 5 MiB' };
  }
  return null;
}

/** Checks `image_urls`: at most 20; http(s) URLs of at most 2048 characters or PNG/JPEG/GIF/WebP data URLs of at most 5 MiB. */
export function validateImageUrls(urls: readonly string[]): ImageProblem[] {
  const problems: ImageProblem[] = [];
  if (urls.length > MAX_IMAGES) {
    problems.push({ index: null, code: 'too_many', message: `At most ${MAX_IMAGES} images are allowed` });
  }
  urls.forEach((url, index) => {
    const problem = urlProblem(url);
    if (problem) problems.push({ index, ...problem });
  });
  return problems;
}

/** Throws `ImagesNotSupportedError` when there are images and the model has no vision (unknown models have none). */
export function assertImagesSupported(urls: readonly string[], model: string): void {
  if (urls.length > 0 && !supportsVision(model)) throw new ImagesNotSupportedError();
}

/** An image as an AI SDK file part: inline base64 for a data URL, else the URL (media type `image`). */
function imagePart(url: string): FilePart {
  const data = DATA_URL.exec(url);
  if (data) {
    return {
      type: 'file',
      data: { type: 'data', data: data[2] as string },
      mediaType: (data[1] as string).toLowerCase(),
    };
  }
  return { type: 'file', data: { type: 'url', url: new URL(url) }, mediaType: 'image' };
}

/**
 * The images of a user message as AI SDK content parts, each preceded by an `Image N:` text, to follow
 * the message's text. Expects validated URLs; throws `ImagesNotSupportedError` for a model without vision.
 */
export function imageParts(urls: readonly string[], model: string): (TextPart | FilePart)[] {
  assertImagesSupported(urls, model);
  return urls.flatMap((url, i) => [{ type: 'text' as const, text: `Image ${i + 1}:` }, imagePart(url)]);
}

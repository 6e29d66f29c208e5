import { describe, expect, it } from 'vitest';
import {
  IMAGES_NOT_SUPPORTED,
  ImagesNotSupportedError,
  assertImagesSupported,
  imageParts,
  validateImageUrls,
} from './images';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG_URL = `data:image/png;base64,${PNG}`;
const VISION = 'anthropic/claude-sonnet-4-5-20250929';
const NO_VISION = 'ollama/qwen2.5-coder:7b';

/** A data URL whose base64 decodes to exactly `bytes` bytes. */
function dataUrlOf(bytes: number, type = 'jpeg'): string {
  return `data:image/${type};base64,${Buffer.alloc(bytes, 7).toString('base64')}`;
}

describe('validateImageUrls', () => {
  it('accepts http(s) URLs and PNG, JPEG, GIF and WebP data URLs', () => {
    const urls = [
      'https://example.com/screenshot.png',
      'http://example.com/a.jpg',
      `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`,
      PNG_URL,
      dataUrlOf(10, 'jpeg'),
      dataUrlOf(10, 'gif'),
      dataUrlOf(10, 'webp'),
    ];
    expect(validateImageUrls(urls)).toEqual([]);
    expect(validateImageUrls([])).toEqual([]);
  });

  it('allows 20 images and refuses 21', () => {
    expect(validateImageUrls(Array(20).fill(PNG_URL))).toEqual([]);
    expect(validateImageUrls(Array(21).fill(PNG_URL))).toEqual([
      { index: null, code: 'too_many', message: 'At most 20 images are allowed' },
    ]);
  });

  it('refuses an http(s) URL over 2048 characters', () => {
    const url = `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`;
    expect(validateImageUrls([url])).toMatchObject([{ index: 0, code: 'url_too_long' }]);
  });

  it('allows a data URL of exactly 5 MiB decoded and refuses one byte more', () => {
    expect(validateImageUrls([dataUrlOf(5 * 1024 * 1024)])).toEqual([]);
    expect(validateImageUrls([dataUrlOf(5 * 1024 * 1024 + 1)])).toMatchObject([
      { index: 0, code: 'too_large' },
    ]);
  });

  it('names each bad image by its position', () => {
    const problems = validateImageUrls([
      PNG_URL,
      'ftp://example.com/a.png',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:image/png,rawbytes',
      'data:image/png;base64,not base64!',
      'data:image/png;base64,abc',
      'https://exa mple.com/a.png',
    ]);
    expect(problems.map(({ index, code }) => [index, code])).toEqual([
      [1, 'unsupported_url'],
      [2, 'unsupported_type'],
      [3, 'unsupported_type'],
      [4, 'invalid_base64'],
      [5, 'invalid_base64'],
      [6, 'unsupported_url'],
    ]);
    expect(problems.every((p) => p.message.length > 0)).toBe(true);
  });
});

describe('imageParts', () => {
  it('puts "Image N:" before each image for a vision model', () => {
    const parts = imageParts([PNG_URL, 'https://example.com/b.webp'], VISION);
    expect(parts).toEqual([
      { type: 'text', text: 'Image 1:' },
      { type: 'file', data: { type: 'data', data: PNG }, mediaType: 'image/png' },
      { type: 'text', text: 'Image 2:' },
      { type: 'file', data: { type: 'url', url: new URL('https://example.com/b.webp') }, mediaType: 'image' },
    ]);
  });

  it('gives nothing for no images, whatever the model', () => {
    expect(imageParts([], NO_VISION)).toEqual([]);
  });

  it('refuses images for a model without vision, or an unknown one, with the exact text', () => {
    for (const model of [NO_VISION, 'openai/some-unknown-model']) {
      expect(() => imageParts([PNG_URL], model)).toThrow(ImagesNotSupportedError);
      expect(() => assertImagesSupported([PNG_URL], model)).toThrow(
        'Model does not support image upload, change to a different model or try without an image.',
      );
    }
    expect(new ImagesNotSupportedError().message).toBe(IMAGES_NOT_SUPPORTED);
    expect(() => assertImagesSupported([PNG_URL], VISION)).not.toThrow();
  });
});

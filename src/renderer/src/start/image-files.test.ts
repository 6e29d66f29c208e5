import { describe, expect, it } from 'vitest';
import { imageProblem, sortImageFiles } from './image-files';

const png = (name: string, size = 1000) => ({ name, type: 'image/png', size });

describe('image attachments', () => {
  it('accepts the four image types up to 5 MiB', () => {
    expect(imageProblem({ name: 'a.webp', type: 'image/webp', size: 5 * 1024 * 1024 })).toBeNull();
    expect(imageProblem({ name: 'a.svg', type: 'image/svg+xml', size: 10 })).toBe(
      'a.svg is not a PNG, JPEG, GIF or WebP image.',
    );
    expect(imageProblem(png('big.png', 6 * 1024 * 1024))).toBe(
      'big.png is 6.0 MiB; an image may be at most 5.0 MiB.',
    );
  });

  it('stops at 20 images and names the files left out', () => {
    const { accepted, problems } = sortImageFiles(
      [png('1.png'), png('2.png'), { name: 'x.bmp', type: 'image/bmp', size: 10 }],
      19,
    );
    expect(accepted.map((f) => f.name)).toEqual(['1.png']);
    expect(problems).toEqual([
      '2.png was not attached: at most 20 images go with one message.',
      'x.bmp is not a PNG, JPEG, GIF or WebP image.',
    ]);
  });
});

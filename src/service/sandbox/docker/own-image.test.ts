import { describe, expect, it } from 'vitest';
import { buildProgressOf } from './own-image';

describe('buildProgressOf', () => {
  it('turns a Dockerfile step into a percent of the steps done before it', () => {
    expect(buildProgressOf('Step 1/8 : ARG BASE=debian:bookworm-slim')).toEqual({
      percent: 0,
      message: 'step 1 of 8',
    });
    expect(buildProgressOf('Step 5/8 : RUN useradd dockhand')).toEqual({
      percent: 50,
      message: 'step 5 of 8',
    });
  });

  it('passes other lines on as they are, without the script’s prefix', () => {
    expect(
      buildProgressOf(
        'sandbox-image: no registry reachable; building an offline Debian base with debootstrap...',
      ),
    ).toEqual({
      percent: null,
      message: 'no registry reachable; building an offline Debian base with debootstrap...',
    });
  });
});

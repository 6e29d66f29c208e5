import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from './frontmatter';

describe('splitFrontmatter', () => {
  it('reads the YAML mapping and trims the body', () => {
    expect(splitFrontmatter('---\nname: x\ntriggers: [a, b]\n---\n\n# Title\nText\n\n')).toEqual({
      data: { name: 'x', triggers: ['a', 'b'] },
      body: '# Title\nText',
    });
  });

  it('treats a text without an opening --- line as all body', () => {
    expect(splitFrontmatter('\uFEFF# Notes\n---\nname: x\n')).toEqual({
      data: {},
      body: '# Notes\n---\nname: x',
    });
  });

  it('accepts an empty frontmatter, CRLF line ends and a byte order mark', () => {
    expect(splitFrontmatter('---\n---\nBody')).toEqual({ data: {}, body: 'Body' });
    expect(splitFrontmatter('\uFEFF---\r\nname: y\r\n---\r\nBody\r\n')).toEqual({
      data: { name: 'y' },
      body: 'Body',
    });
  });

  it('rejects an unclosed frontmatter, invalid YAML and a non-mapping', () => {
    expect(() => splitFrontmatter('---\nname: x\nBody')).toThrow('the frontmatter has no closing --- line');
    expect(() => splitFrontmatter('---\nname: [x\n---\nBody')).toThrow(
      /^the frontmatter is not valid YAML: .* at line \d+, column \d+:$/,
    );
    expect(() => splitFrontmatter('---\na: 1\na: 2\n---\n')).toThrow('Map keys must be unique');
    expect(() => splitFrontmatter('---\n- a\n- b\n---\n')).toThrow('the frontmatter is not a YAML mapping');
    expect(() => splitFrontmatter('---\njust text\n---\n')).toThrow('the frontmatter is not a YAML mapping');
  });
});

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

const render = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe('Markdown', () => {
  it('escapes markup in messages instead of rendering it', () => {
    const html = render('<script>alert(1)</script> <img src=x onerror="alert(2)">\n```\n<b>x</b>\n```');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<pre class="md-code"><code>&lt;b&gt;x&lt;/b&gt;</code></pre>');
  });

  it('opens links in a new window without giving it this page', () => {
    expect(render('[docs](https://example.com)')).toBe(
      '<div class="markdown"><p><a href="https://example.com" target="_blank" rel="noreferrer noopener">docs</a></p></div>',
    );
  });

  it('renders lists with their start number', () => {
    expect(render('2. b\n3. c')).toBe('<div class="markdown"><ol start="2"><li>b</li><li>c</li></ol></div>');
  });
});

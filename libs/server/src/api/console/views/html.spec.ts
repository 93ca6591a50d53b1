import { escapeHtml, html, queryString } from './html';

// The tag under another name, so that formatters leave the exact markup of these cases alone.
const tag = html;

describe('html templates', () => {
  it('escapes every interpolated string, so client data is text, never markup', () => {
    const data = `<script>alert("x")</script>' onmouseover='y' & more`;
    expect(tag`<p title="${data}">${data}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &amp; more">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &amp; more</p>',
    );
  });

  it('keeps markup from nested templates and escapes strings inside arrays', () => {
    const items = ['<b>', 'ok'].map((item) => tag`<li>${item}</li>`);
    expect(tag`<ul>${items}</ul>`.value).toBe('<ul><li>&lt;b&gt;</li><li>ok</li></ul>');
    expect(tag`${['<i>', tag`<i>`]}`.value).toBe('&lt;i&gt;<i>');
  });

  it('renders numbers and true, and nothing for null, undefined and false', () => {
    expect(tag`${0}|${12.5}|${true}|${null}|${undefined}|${false}`.value).toBe('0|12.5|true|||');
  });

  it('escapes the five characters that can end text or a quoted attribute', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });

  it('builds query strings from the given values only, encoded', () => {
    expect(queryString({ status: 'FAILED', action: undefined, cursor: '' })).toBe('?status=FAILED');
    expect(queryString({ a: 'x&y=<z>' })).toBe('?a=x%26y%3D%3Cz%3E');
    expect(queryString({})).toBe('');
  });
});

// HTML escaping of text and attribute values, with no-break spaces written as &nbsp; so they stay visible.

export function escapeHtmlText(s: string): string {
  return s.replace(/[&<>\u00a0]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;',
  );
}

/** An attribute value's content between `quote`s ("" for an unquoted value, which is then quoted by the caller). */
export function escapeHtmlAttr(value: string, quote: string): string {
  return value.replace(/[&"'\u00a0]/g, (c) => {
    if (c === '&') return '&amp;';
    if (c === '\u00a0') return '&nbsp;';
    if (c !== quote) return c;
    return c === '"' ? '&quot;' : '&#39;';
  });
}

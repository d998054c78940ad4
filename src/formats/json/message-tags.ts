// i18next and ICU message strings as tagged text: placeholders become protected <ph> codes.
//
// Protected: i18next `{{var}}` (also `{{- var}}`, `{{var, format}}`), nesting `$t(key, {…})`, markup such
// as react-i18next's `<1>…</1>` and `<br/>`, and ICU arguments. A simple ICU argument (`{name}`,
// `{n, number}`, `{d, date, short}`) is one code. In `{n, plural, one {…} other {…}}` and select only the
// structure is protected — the head, the `} other {` joints, the closing braces and `#` — so the branch
// texts stay translatable. ICU apostrophe quoting is not interpreted.

import { makeTag } from '../../text/inline-tags.ts';
import { literalToTagged } from '../tagged-literal.ts';

export interface TaggedMessage {
  tagged: string;
  /** True when the message holds plural/select structure, which must not be cut into sentences. */
  structured: boolean;
}

const MARKUP = /<\/?[A-Za-z0-9][^<>]*>/y;
const ARGUMENT_NAME = /[^\s,{}#'<>]+/y;
const KEYWORD = /[A-Za-z]+/y;
const SELECTOR = /(?:offset:\s*\d+\s+)?(=\d+|[\w-]+)/y;

/** One message being converted, shared by the nested calls: tags are numbered across the whole message. */
interface Conversion {
  msg: string;
  ids: { last: number };
  structured: boolean;
}

export function messageToTagged(message: string): TaggedMessage {
  const conversion: Conversion = { msg: message, ids: { last: 0 }, structured: false };
  const tagged = convert(conversion, 0, message.length, false);
  return { tagged, structured: conversion.structured };
}

/** The next `<ph>` of the message, protecting `code`. */
function ph(conversion: Conversion, code: string): string {
  return makeTag('code', 'ph', { id: String(++conversion.ids.last) }, code).raw;
}

function convert(conversion: Conversion, from: number, to: number, inPlural: boolean): string {
  const { msg, ids } = conversion;
  let out = '';
  let text = '';
  const flush = () => {
    out += literalToTagged(text, { ids });
    text = '';
  };
  const code = (end: number, i: number) => {
    flush();
    out += ph(conversion, msg.slice(i, end));
    return end;
  };

  for (let i = from; i < to; ) {
    const c = msg[i];
    if (msg.startsWith('{{', i)) {
      const close = msg.indexOf('}}', i + 2);
      if (close >= 0 && close + 2 <= to && !msg.slice(i + 2, close).includes('{')) {
        i = code(close + 2, i);
        continue;
      }
    }
    if (msg.startsWith('$t(', i)) {
      const close = matchingClose(msg, i + 2, to, '(', ')');
      if (close >= 0) {
        i = code(close + 1, i);
        continue;
      }
    }
    if (c === '<') {
      MARKUP.lastIndex = i;
      const m = MARKUP.exec(msg);
      if (m && i + m[0].length <= to) {
        i = code(i + m[0].length, i);
        continue;
      }
    }
    if (c === '#' && inPlural) {
      i = code(i + 1, i);
      continue;
    }
    if (c === '{') {
      const saved = ids.last;
      flush();
      const arg = argument(conversion, i, to, inPlural);
      if (arg) {
        out += arg.tagged;
        i = arg.end;
        continue;
      }
      ids.last = saved;
    }
    text += c;
    i++;
  }
  flush();
  return out;
}

/** An ICU argument starting at the "{" at i, or undefined when the text there is not one. */
function argument(
  conversion: Conversion,
  i: number,
  to: number,
  inPlural: boolean,
): { tagged: string; end: number } | undefined {
  const { msg } = conversion;
  const sticky = (re: RegExp, at: number) => {
    re.lastIndex = at;
    const m = re.exec(msg);
    return m && at + m[0].length <= to ? m : null;
  };
  const space = (at: number) => {
    while (at < to && /\s/.test(msg[at])) at++;
    return at;
  };
  let j = space(i + 1);
  const name = sticky(ARGUMENT_NAME, j);
  if (!name) return undefined;
  j = space(j + name[0].length);
  if (msg[j] === '}') return { tagged: ph(conversion, msg.slice(i, j + 1)), end: j + 1 };
  if (msg[j] !== ',') return undefined;
  j = space(j + 1);
  const type = sticky(KEYWORD, j);
  if (!type) return undefined;
  j = space(j + type[0].length);
  if (!['plural', 'select', 'selectordinal'].includes(type[0])) {
    const close = matchingClose(msg, i, to, '{', '}');
    return close < 0 ? undefined : { tagged: ph(conversion, msg.slice(i, close + 1)), end: close + 1 };
  }
  if (msg[j] !== ',') return undefined;
  const branchPlural = type[0] !== 'select' || inPlural;
  let tagged = '';
  let joint = i;
  for (j = space(j + 1); ; j = space(j)) {
    const selector = sticky(SELECTOR, j);
    if (!selector) return undefined;
    j = space(j + selector[0].length);
    if (msg[j] !== '{') return undefined;
    const close = matchingClose(msg, j, to, '{', '}');
    if (close < 0) return undefined;
    tagged += ph(conversion, msg.slice(joint, j + 1)) + convert(conversion, j + 1, close, branchPlural);
    joint = close;
    j = space(close + 1);
    if (msg[j] === '}') {
      conversion.structured = true;
      return { tagged: tagged + ph(conversion, msg.slice(joint, j + 1)), end: j + 1 };
    }
  }
}

/** Index of the bracket closing the one at `open`, nesting counted; -1 when it is not closed before `to`. */
function matchingClose(msg: string, open: number, to: number, opening: string, closing: string): number {
  let depth = 0;
  for (let k = open; k < to; k++) {
    if (msg[k] === opening) depth++;
    else if (msg[k] === closing && --depth === 0) return k;
  }
  return -1;
}

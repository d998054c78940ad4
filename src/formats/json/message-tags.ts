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

/**
 * Plural and select arguments nested inside each other, at most; one nested deeper is protected whole, as one
 * code. Real messages nest two or three; 20,000 nested ran V8's stack out.
 */
const MAX_NESTING = 32;

/** One message being converted, shared by the nested calls: tags are numbered across the whole message. */
interface Conversion {
  msg: string;
  ids: { last: number };
  structured: boolean;
  /** Each bracket's matching close, found once for the whole message (scanning per argument is quadratic). */
  closes: Map<string, Int32Array>;
  /** From each index, the next `}}` at or after it (-1: none). */
  nextDoubleClose?: Int32Array;
  /** From each index, the next `{` at or after it (the message's length: none). */
  nextOpen?: Int32Array;
}

export function messageToTagged(message: string): TaggedMessage {
  const conversion: Conversion = { msg: message, ids: { last: 0 }, structured: false, closes: new Map() };
  const tagged = convert(conversion, 0, message.length, false, 0);
  return { tagged, structured: conversion.structured };
}

/** The next `<ph>` of the message, protecting `code`. */
function ph(conversion: Conversion, code: string): string {
  return makeTag('code', 'ph', { id: String(++conversion.ids.last) }, code).raw;
}

function convert(
  conversion: Conversion,
  from: number,
  to: number,
  inPlural: boolean,
  nesting: number,
): string {
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
      const close = nextDoubleClose(conversion, i + 2);
      if (close >= 0 && close + 2 <= to && nextOpen(conversion, i + 2) >= close) {
        i = code(close + 2, i);
        continue;
      }
    }
    if (msg.startsWith('$t(', i)) {
      const close = matchingClose(conversion, i + 2, to, '(', ')');
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
      const arg = argument(conversion, i, to, inPlural, nesting);
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
  nesting: number,
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
  if (!['plural', 'select', 'selectordinal'].includes(type[0]) || nesting === MAX_NESTING) {
    const close = matchingClose(conversion, i, to, '{', '}');
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
    const close = matchingClose(conversion, j, to, '{', '}');
    if (close < 0) return undefined;
    tagged +=
      ph(conversion, msg.slice(joint, j + 1)) + convert(conversion, j + 1, close, branchPlural, nesting + 1);
    joint = close;
    j = space(close + 1);
    if (msg[j] === '}') {
      conversion.structured = true;
      return { tagged: tagged + ph(conversion, msg.slice(joint, j + 1)), end: j + 1 };
    }
  }
}

/** Index of the bracket closing the one at `open`, nesting counted; -1 when it is not closed before `to`. */
function matchingClose(
  conversion: Conversion,
  open: number,
  to: number,
  opening: string,
  closing: string,
): number {
  let closes = conversion.closes.get(opening);
  if (!closes) {
    const { msg } = conversion;
    closes = new Int32Array(msg.length).fill(-1);
    const opened: number[] = [];
    for (let k = 0; k < msg.length; k++) {
      if (msg[k] === opening) opened.push(k);
      else if (msg[k] === closing && opened.length > 0) closes[opened.pop()!] = k;
    }
    conversion.closes.set(opening, closes);
  }
  const close = closes[open];
  return close < to ? close : -1;
}

function nextDoubleClose(conversion: Conversion, from: number): number {
  if (!conversion.nextDoubleClose) {
    const { msg } = conversion;
    const next = new Int32Array(msg.length + 1).fill(-1);
    for (let k = msg.length - 2; k >= 0; k--)
      next[k] = msg[k] === '}' && msg[k + 1] === '}' ? k : next[k + 1];
    conversion.nextDoubleClose = next;
  }
  return conversion.nextDoubleClose[from] ?? -1;
}

function nextOpen(conversion: Conversion, from: number): number {
  if (!conversion.nextOpen) {
    const { msg } = conversion;
    const next = new Int32Array(msg.length + 1).fill(msg.length);
    for (let k = msg.length - 1; k >= 0; k--) next[k] = msg[k] === '{' ? k : next[k + 1];
    conversion.nextOpen = next;
  }
  return conversion.nextOpen[from] ?? conversion.msg.length;
}

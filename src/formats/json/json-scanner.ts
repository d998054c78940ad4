// A strict JSON reader (RFC 8259) that reports where every string value sits in the text, so a merge can
// splice translations in without re-serializing, and names line and column for malformed input.

import { FormatError } from '../../errors.ts';

export interface JsonStringValue {
  /** Key path: `a.b.c`, array items as `a[0]`; "" for a document that is one string. */
  path: string;
  value: string;
  /** The literal in the text, quotes included. */
  start: number;
  end: number;
}

const MAX_DEPTH = 512;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A string literal: no raw control characters, only JSON's escapes.
const STRING = /"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;

/** Every string value (not keys) of a JSON document, in text order. */
export function scanJsonStrings(text: string): JsonStringValue[] {
  const found: JsonStringValue[] = [];
  let i = 0;

  const fail = (what: string, at = i): never => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    throw new FormatError(`JSON: ${what}`, line, at - before.lastIndexOf('\n'));
  };
  const describe = () =>
    i >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[i])}`;
  const skipSpace = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const readString = (): string => {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (!m) fail(badString());
    i += m![0].length;
    return JSON.parse(m![0]) as string;
  };
  // Why the string at i does not match: the first offending character.
  const badString = (): string => {
    for (let j = i + 1; j < text.length; j++) {
      const c = text[j];
      if (c === '"') break;
      if (c < ' ') return fail('control character in string', j);
      if (c === '\\') {
        if (!/^(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(text.slice(j + 1, j + 6)))
          return fail('invalid escape', j);
        j++;
      }
    }
    return fail('unterminated string');
  };

  const value = (path: string, depth: number): void => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    skipSpace();
    const c = text[i];
    if (c === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        if (text[i] !== '"') fail(`${describe()}, expected a key`);
        const key = readString();
        skipSpace();
        if (text[i] !== ':') fail(`${describe()}, expected ":"`);
        i++;
        value(path ? `${path}.${key}` : key, depth + 1);
        skipSpace();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail(`${describe()}, expected "," or "}"`);
      }
    } else if (c === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let index = 0; ; index++) {
        value(`${path}[${index}]`, depth + 1);
        skipSpace();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail(`${describe()}, expected "," or "]"`);
      }
    } else if (c === '"') {
      const start = i;
      const v = readString();
      found.push({ path, value: v, start, end: i });
    } else if (text.startsWith('true', i) || text.startsWith('null', i)) {
      i += 4;
    } else if (text.startsWith('false', i)) {
      i += 5;
    } else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) fail(describe());
      i += m![0].length;
    }
  };

  value('', 0);
  skipSpace();
  if (i < text.length) fail(`${describe()} after the end of the document`);
  return found;
}

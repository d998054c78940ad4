// @mentions in a comment's text: `@name` where the name is a username of letters, digits, `.`, `_` and `-`,
// not preceded by a letter or a digit (so that an e-mail address mentions nobody). Pure.

const MENTION = /(?<![\p{L}\p{N}_.@])@([\p{L}\p{N}_](?:[\p{L}\p{N}._-]*[\p{L}\p{N}_])?)/gu;

/** The names a text mentions, each once, in the order they first appear. */
export function mentionedNames(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(MENTION)) names.add(match[1]);
  return [...names];
}

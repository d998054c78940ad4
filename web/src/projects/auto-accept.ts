// What pre-translation may confirm by itself (auto-accept), in the words the dialogs offer it: nothing (the
// default), exact matches (100 %: the source's text, tags and placeholders exactly), or only context matches
// (101 %: exact, and in the same context). docs/API.md, *Pre-translation*.
import type { PretranslateAccept } from '../api/types.ts';

/** Nothing, or one of the server's scopes. */
export type AutoAccept = 'none' | NonNullable<PretranslateAccept['auto_accept_scope']>;

export const AUTO_ACCEPT_CHOICES: readonly { value: AutoAccept; label: string }[] = [
  { value: 'none', label: 'Confirm nothing: every match stays to be checked' },
  { value: 'exact', label: 'Confirm exact matches (100 %, identical text and tags)' },
  { value: 'context', label: 'Confirm only context matches (101 %, exact and in the same context)' },
];

/** The request's fields: `auto_accept`, and the extension `auto_accept_scope` when it is on. */
export function autoAcceptFields(choice: AutoAccept): PretranslateAccept {
  return choice === 'none' ? { auto_accept: false } : { auto_accept: true, auto_accept_scope: choice };
}

// Upload names are file names: never a path, so that no name can ever reach the file system as one.
import { errors } from '../errors.ts';

// C0 and C1 controls and DEL; the line and paragraph separators; the bidirectional controls, with which a
// name can display as something else ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf").
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The name, or a 400 naming the parameter: no path part, no `..`, no control characters, at most 255. */
export function requireFileName(name: string | undefined, parameter = 'name'): string {
  if (name === undefined || name.trim() === '') throw errors.missingParameter(parameter);
  if (/[/\\]/.test(name) || name.includes('..') || CONTROL.test(name) || name.length > 255) {
    throw errors.badParameter(
      `Parameter "${parameter}" must be a plain file name (no path, "..", or control characters)`,
    );
  }
  return name;
}

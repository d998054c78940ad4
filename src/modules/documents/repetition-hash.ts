// A segment's repetition key (src/matching/repetition-key.ts) as the store indexes it: a source may be longer
// than an index entry may be (PostgreSQL's B-tree takes about 2,700 bytes), so the index holds a hash of the
// key, 128 bits of SHA-256 — two different sources sharing one would be a first in the world's history.
import { createHash } from 'node:crypto';
import { repetitionKey } from '../../matching/repetition-key.ts';

export function repetitionHash(source: string): string {
  return createHash('sha256').update(repetitionKey(source)).digest('base64url').slice(0, 22);
}

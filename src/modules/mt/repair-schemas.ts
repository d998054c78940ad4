// TypeBox schemas of GET /v2/translate/repairs (extension): a memory's 75–99 % matches repaired by MT.
import { Type } from 'typebox';

// The longest source, as POST /v2/translate's (schemas.ts, which re-exports these types and so cannot be
// imported from here).
const MAX_SOURCE_LENGTH = 5000;

export const RepairQuery = Type.Object({
  memory_id: Type.Integer({ minimum: 1 }),
  /** The segment's source, tagged text. */
  source: Type.String({ maxLength: MAX_SOURCE_LENGTH }),
  /** How many of the memory's best matches to try to repair (default 3). */
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
});

const ChangedSpan = Type.Object({
  /** UTF-16 offsets in `target` of words the repair put there. */
  start: Type.Integer({ minimum: 0 }),
  end: Type.Integer({ minimum: 0 }),
});

export const RepairedMatch = Type.Object({
  /** The raw match's score (75–99): the repair does not change it. */
  score: Type.Integer(),
  /** The memory entry's source and target as stored (the raw match, offered beside the repair). */
  match_source: Type.String(),
  match_target: Type.String(),
  /** The match's target patched where the segment's source differs (tagged text). */
  target: Type.String(),
  /** The words the repair put in, for highlighting; none for a pure deletion. */
  changes: Type.Array(ChangedSpan),
  /** Differences between the segment's source and the match's, and how many of them were patched. */
  differences: Type.Integer(),
  patched: Type.Integer(),
  /**
   * Of the patched, how many were located by the memory's learned word alignments rather than by the MT of
   * the match's own words (its lexicon, once trained: GET /v2/lexicon's).
   */
  aligned: Type.Integer(),
});

export const RepairList = Type.Object({
  /** The engine that translated the differing phrases; null when none did (see `unavailable`). */
  provider: Type.Union([Type.String(), Type.Null()]),
  /** Why no engine translated (none configured, no pair, a failing or paused engine); null otherwise. */
  unavailable: Type.Union([Type.String(), Type.Null()]),
  /** The repairs that could be anchored, in the order of the matches (best first); the others are left out. */
  repairs: Type.Array(RepairedMatch),
});

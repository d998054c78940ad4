// Pre-translation modes as Lilt's clients name them: `tm` (translation memory), `tm+mt` (memory, then
// machine translation for what the memory does not cover) and `mt` (machine translation alone). Without an
// engine (src/modules/mt; TESSERA_MT_APERTIUM_URL), a request for MT runs the memory alone and says so — the
// document, the task's result and the answer to the request name what ran and why MT did not.

import { Type } from 'typebox';
import { StringEnum } from '../../http/schemas.ts';
import type { Queryable } from '../../store/db.ts';

export const PRETRANSLATE_MODES = Object.freeze({ tm: 'tm', tmMt: 'tm+mt', mt: 'mt' } as const);
export type PretranslateMode = (typeof PRETRANSLATE_MODES)[keyof typeof PRETRANSLATE_MODES];
/** A mode as stored in a task's parameters: lower case. */
export const PretranslateModeName = StringEnum(['tm', 'tm+mt', 'mt'] as const);

/**
 * The spellings accepted: Lilt's API documents lower case for `mode` and upper case (`TM`) for the upload's
 * `pretranslate`; its Drupal connector sends `TM+MT`. Each is read as its lower-case mode.
 */
const SPELLINGS = Object.values(PRETRANSLATE_MODES).flatMap((m) => [m, m.toUpperCase()]);
export const PretranslateModeParam = Type.Union(SPELLINGS.map((s) => Type.Literal(s)));

export function readMode(spelled: string): PretranslateMode {
  const mode = spelled.toLowerCase();
  if (!(Object.values(PRETRANSLATE_MODES) as string[]).includes(mode)) {
    throw new Error(`Not a pre-translation mode: ${spelled}`);
  }
  return mode as PretranslateMode;
}

/** What a pre-translation did of what was asked, for the task's result and the request's answer. */
export const ModesReport = Type.Object({
  requested: Type.String(),
  ran: Type.Array(Type.String()),
  not_available: Type.Array(Type.Object({ mode: Type.String(), reason: Type.String() })),
});
export interface ModesReport {
  requested: PretranslateMode;
  ran: ('tm' | 'mt')[];
  not_available: { mode: 'mt'; reason: string }[];
}

/**
 * What the documents module knows of machine translation: whether an organization has an engine (one of its
 * own, or the operator's default).
 */
export interface MtAvailability {
  configuredFor(db: Queryable, organizationId: number): Promise<boolean>;
}

/** Why machine translation cannot run for an organization, or null when it has an engine. */
export async function mtUnavailable(
  mt: MtAvailability | undefined,
  db: Queryable,
  organizationId: number,
): Promise<string | null> {
  return mt && (await mt.configuredFor(db, organizationId))
    ? null
    : 'no machine translation engine is configured';
}

/**
 * What runs for a requested mode, as planned when it is asked: `tm` the memory; `tm+mt` the memory, then MT
 * for the segments it leaves open; `mt` MT alone. Without an engine the memory runs for every mode — its
 * matches are all Tessera can offer — and the report says MT did not, so that nothing passes for machine
 * translation that is not. The task's result reports what actually ran (an engine may fail or lack the pair).
 */
export function planModes(requested: PretranslateMode, mtReason: string | null): ModesReport {
  if (mtReason === null) {
    return {
      requested,
      ran:
        requested === PRETRANSLATE_MODES.mt
          ? ['mt']
          : requested === PRETRANSLATE_MODES.tm
            ? ['tm']
            : ['tm', 'mt'],
      not_available: [],
    };
  }
  const report: ModesReport = { requested, ran: ['tm'], not_available: [] };
  if (requested !== PRETRANSLATE_MODES.tm) report.not_available.push({ mode: 'mt', reason: mtReason });
  return report;
}

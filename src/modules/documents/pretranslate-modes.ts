// Pre-translation modes as Lilt's clients name them: `tm` (translation memory), `tm+mt` (memory, then
// machine translation for what the memory does not cover) and `mt`. Tessera has no machine translation
// engine yet, so a request for MT runs the memory alone and says so — the document, the task's result and
// the answer to the request name what ran and why MT did not. An engine later plugs in at `mtUnavailable()`.
import { Type } from 'typebox';
import { StringEnum } from '../../http/schemas.ts';

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
 * Why machine translation cannot run. There is no engine yet; the change that adds one answers null here
 * when one is configured and makes the task fill what the memory left open.
 */
export function mtUnavailable(): string {
  return 'no machine translation engine is configured';
}

/**
 * What runs for a requested mode. The memory always runs: for `mt` alone too, since without an engine the
 * memory's matches are all Tessera can offer, and the report says MT did not run, so that nothing passes for
 * machine translation that is not.
 */
export function planModes(requested: PretranslateMode): ModesReport {
  const report: ModesReport = { requested, ran: ['tm'], not_available: [] };
  if (requested !== PRETRANSLATE_MODES.tm) report.not_available.push({ mode: 'mt', reason: mtUnavailable() });
  return report;
}

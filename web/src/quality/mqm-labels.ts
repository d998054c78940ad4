// What the web shows of MQM's categories and severities: the server's own names (src/text/qa/mqm.ts), so that
// the editor's Quality panel, the report page and the CSV say the same.
import { MQM_CATEGORY_LABELS, type MqmCategory, type MqmSeverity } from '@server/text/qa/mqm.ts';

export { MQM_CATEGORIES, MQM_PENALTIES, MQM_SEVERITIES } from '@server/text/qa/mqm.ts';
export type { MqmCategory, MqmSeverity };

export const MQM_LABELS: Readonly<Record<MqmCategory, string>> = MQM_CATEGORY_LABELS;

export const SEVERITY_LABELS: Readonly<Record<MqmSeverity, string>> = {
  minor: 'Minor',
  major: 'Major',
  critical: 'Critical',
};

// The editor's side bar, top to bottom: one entry per panel. A new panel is one line here.
import { CommentsPanel } from '../comments/comments-panel.tsx';
import { ConcordancePanel } from '../concordance/concordance-panel.tsx';
import { HistoryPanel } from '../history/history-panel.tsx';
import { MatchesPanel } from '../matches/matches-panel.tsx';
import { QualityPanel } from '../quality/quality-panel.tsx';
import { SegmentInfo } from '../segment-info.tsx';
import { TermsPanel } from '../terms/terms-panel.tsx';
import type { SidePanel } from './side-panel.ts';

export const SIDE_PANELS: readonly SidePanel[] = [
  {
    id: 'segment',
    Panel: ({ context }) => <SegmentInfo segment={context.segment} text={context.text} />,
  },
  {
    id: 'notice',
    when: (context) => context.notice !== null,
    Panel: ({ context }) => (
      <p className="notice" role="status">
        {context.notice}
      </p>
    ),
  },
  {
    id: 'matches',
    Panel: ({ context }) => (
      <MatchesPanel
        memoryId={context.memoryId}
        source={context.segment?.source}
        targetLanguage={context.segment?.trglang}
        segmentId={context.segment?.id}
        segmentNumber={context.segment ? context.segment.position + 1 : undefined}
        onInsert={context.insertMatch}
        onInsertMt={context.insertMt}
        onInsertRepair={context.insertRepair}
      />
    ),
  },
  { id: 'terms', Panel: TermsPanel },
  { id: 'comments', Panel: CommentsPanel },
  {
    id: 'concordance',
    Panel: ({ context }) => <ConcordancePanel memoryId={context.memoryId} request={context.concordance} />,
  },
  { id: 'quality', Panel: QualityPanel },
  {
    id: 'history',
    Panel: ({ context }) => <HistoryPanel segment={context.segment} onRestored={context.segmentChanged} />,
  },
];

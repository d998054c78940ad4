// A segment's source in the grid with its recognized terms underlined; each says its target terms and their
// status on hover and to a screen reader (not by colour alone).
import type { DocumentSegment } from '../../api/types.ts';
import { TaggedText } from '../tags/tagged-text.tsx';
import { termDescription, termsOfSource } from './term-choices.ts';
import { useDocumentGlossary } from './use-glossary.ts';

export function SourceWithTerms({ segment, active }: { segment: DocumentSegment; active: boolean }) {
  const { glossary } = useDocumentGlossary(segment.document_id);
  const terms = termsOfSource(glossary, segment.source).map((r) => ({
    start: r.start,
    end: r.end,
    description: termDescription(r),
  }));
  return <TaggedText text={segment.source} terms={terms} focusable={active} locatable={active} />;
}

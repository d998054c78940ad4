// The QA issues of the target being typed, under the segment: the server's own checks (src/text/qa) run in the
// browser on each keystroke, the termbase's (src/terminology/term-qa.ts) with them. When an error stopped a
// confirmation, the list says so and offers "Confirm anyway".
import type { Glossary } from '@server/terminology/glossary.ts';
import { checkTerms } from '@server/terminology/term-qa.ts';
import { checkSegment, type QaIssue } from '@server/text/qa/qa-checks.ts';
import type { DocumentSegment } from '../../api/types.ts';
import { type ActiveText, useActiveText } from '../active-text.ts';
import { termsOfSource } from '../terms/term-choices.ts';
import { useDocumentGlossary } from '../terms/use-glossary.ts';

/** The issues of a target against its source (and the document's glossary, when it has one), errors first. */
export function qaIssues(
  segment: DocumentSegment,
  target: string,
  status?: string,
  glossary?: Glossary,
): QaIssue[] {
  const issues = checkSegment(segment.source, target, {
    srcLang: segment.srclang,
    trgLang: segment.trglang,
    status: status ?? segment.status,
  });
  if (glossary)
    issues.push(...checkTerms(glossary, segment.source, target, termsOfSource(glossary, segment.source)));
  return issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}

export function QaList({
  segment,
  text,
  blocked,
  onConfirmAnyway,
}: {
  segment: DocumentSegment;
  text: ActiveText;
  /** A confirmation was stopped by errors. */
  blocked: boolean;
  onConfirmAnyway: () => void;
}) {
  const current = useActiveText(text);
  const { glossary } = useDocumentGlossary(segment.document_id);
  const issues = qaIssues(segment, current, undefined, glossary);
  const errors = issues.filter((i) => i.severity === 'error').length;
  return (
    <div className="qa" lang="en">
      {issues.length > 0 && (
        <ul className="qa-list" aria-label={`QA issues of segment ${segment.position + 1}`}>
          {issues.map((issue) => (
            <li
              key={`${issue.code}-${issue.start ?? ''}-${issue.message}`}
              className={`qa-issue ${issue.severity}`}
            >
              <span className="qa-severity">{issue.severity === 'error' ? 'Error' : 'Warning'}</span>{' '}
              {issue.message}
            </li>
          ))}
        </ul>
      )}
      {blocked && errors > 0 && (
        <div className="qa-blocked" role="alert">
          <span>
            Not confirmed: {errors} QA {errors === 1 ? 'error' : 'errors'}.
          </span>
          <button
            type="button"
            className="button small"
            onMouseDown={(e) => e.preventDefault()}
            onClick={onConfirmAnyway}
          >
            Confirm anyway
          </button>
        </div>
      )}
    </div>
  );
}

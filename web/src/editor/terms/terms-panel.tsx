// Terms (the side bar): the active segment's terms recognized in its source, each with its target terms, their
// status in words and the definition; Alt+Shift+N (or a click) inserts the N-th term that is not forbidden.
import type { TermRecord } from '@server/terminology/glossary.ts';
import { tooltip } from '../../keyboard/shortcut-label.ts';
import type { PanelProps } from '../panels/side-panel.ts';
import { definitionOf, insertableTerms, STATUS_WORDS, termsOfSource } from './term-choices.ts';
import { useDocumentGlossary } from './use-glossary.ts';

export function TermsPanel({ context }: PanelProps) {
  const { segment, documentId } = context;
  const { glossary } = useDocumentGlossary(documentId);
  const found = segment ? termsOfSource(glossary, segment.source) : [];
  const numbered = insertableTerms(found);
  const numberOf = (t: TermRecord) => numbered.findIndex((n) => n.termId === t.termId) + 1;
  const number = segment ? segment.position + 1 : undefined;

  return (
    <section className="panel terms" aria-labelledby="terms-title">
      <h2 className="panel-title" id="terms-title">
        Terms
        {found.length > 0 && <span className="panel-count">{found.length}</span>}
      </h2>
      {!segment ? (
        <p className="muted">Select a segment.</p>
      ) : found.length === 0 ? (
        <p className="muted">No termbase term in segment {number}.</p>
      ) : (
        <ul className="term-list" aria-label={`Terms of segment ${number}`}>
          {found.map((r) => {
            const definition = definitionOf(r);
            return (
              <li key={`${r.start}-${r.end}`} className="term-entry">
                <div className="term-source" lang={segment.srclang}>
                  {segment.source.slice(r.start, r.end)}
                </div>
                {definition && <p className="term-definition">{definition}</p>}
                {r.targets.length === 0 ? (
                  <p className="muted">No translation in the termbase.</p>
                ) : (
                  <ul className="term-targets">
                    {r.targets.map((t) => {
                      const n = numberOf(t);
                      return (
                        <li key={t.termId} className={`term-target ${t.status}`}>
                          {n > 0 ? (
                            <button
                              type="button"
                              className="term-insert"
                              title={tooltip('insertTerm', n)}
                              onMouseDown={(e) => e.preventDefault()}
                              onClick={() => context.insertText(t.text)}
                            >
                              <span className="term-number" aria-hidden="true">
                                {n}
                              </span>{' '}
                              <span lang={segment.trglang}>{t.text}</span>
                            </button>
                          ) : (
                            <span className="term-text" lang={segment.trglang}>
                              {t.text}
                            </span>
                          )}{' '}
                          <span className="term-status">{STATUS_WORDS[t.status]}</span>
                          {t.partOfSpeech && <span className="muted"> · {t.partOfSpeech}</span>}
                        </li>
                      );
                    })}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

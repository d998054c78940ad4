// MT and the termbase, measured on the real en-es memory: how often Apertium renders a termbase term as the
// termbase says, without and with protect-and-substitute (src/modules/mt/termbase.ts), and chrF to the human
// reference both ways.
//
// The termbase is learned from the memory itself, as a terminologist would build one: the word aligner's term
// candidates (src/terminology/word-alignment.ts: frequent one- and two-word source phrases the memory
// translates one way in at least half of their sentences) trained on all but a held-out tenth, each made a
// concept with its consistent translation as the preferred Spanish term. The held-out sentences in which the
// termbase recognizes a term are translated both ways through the masking the engine applies.
//
// "Rendered as the termbase says": the concept's target term is found in the MT output by the termbase's own
// recognizer (stemmed, so "impresoras" counts for "impresora"), once per (sentence, concept). The reference's
// own share is reported too: where the memory's translator did not use the term, the termbase's rendering is
// not the reference's, which bounds what chrF can gain.
import { ApertiumProvider } from '../src/modules/mt/providers/apertium.ts';
import { makeTermbase, protectedSpans } from '../src/modules/mt/termbase.ts';
import { type Glossary, recognizeTerms, type TermRecord } from '../src/terminology/glossary.ts';
import { stemmerOf } from '../src/terminology/stemmers.ts';
import { stopwordsOf } from '../src/terminology/stopwords.ts';
import { WordAligner } from '../src/terminology/word-alignment.ts';
import { maskForMt, unmaskMt } from '../src/text/mt-masking.ts';
import { startApertium } from '../test/helpers/apertium.ts';
import { chrF } from './chrf.ts';
import { prng, readTmxPairs } from './corpus.ts';

export interface MtTermsWay {
  /** (sentence, concept) occurrences whose target term is in the output. */
  rendered: number;
  share: number;
  chrf: number;
  /** Outputs refused (an element lost): counted as empty. */
  refused: number;
}

export interface MtTermsBench {
  memory_entries: number;
  trained_on: number;
  termbase_concepts: number;
  sentences: number;
  occurrences: number;
  /** The human reference's own share of the termbase's renderings. */
  reference_share: number;
  without: MtTermsWay;
  with: MtTermsWay;
  seconds: number;
  examples: { source: string; without: string; with: string; reference: string }[];
  /** Occurrences still missed with protection: the source, the term expected, the output. */
  missed_with: { source: string; term: string; output: string }[];
}

/** The (sentence, concept) pairs whose concept's target term the text holds. */
function conceptsRendered(glossary: Glossary, text: string): Set<number> {
  const found = new Set<number>();
  // Every occurrence, overlaps included: a longer target term ("puede abrir") must not hide a shorter one.
  for (const m of glossary.target.find(text, { overlapping: true })) {
    for (const id of m.termIds) {
      const t = glossary.term(id);
      if (t) found.add(t.conceptId);
    }
  }
  return found;
}

export async function runMtTermsBench(options: {
  sentences: number;
  seed: number;
  apertiumUrl?: string;
  log: (line: string) => void;
}): Promise<MtTermsBench> {
  const { log } = options;
  const started = performance.now();
  const pairs = readTmxPairs('en-es.tmx.gz', 'en', 'es').filter(
    (p) => p.source.trim() !== '' && !p.source.includes('<'),
  );
  const random = prng(options.seed);
  const heldOut: typeof pairs = [];
  const training: typeof pairs = [];
  for (const p of pairs) (random() < 0.1 ? heldOut : training).push(p);

  const aligner = new WordAligner();
  aligner.train(training);
  const candidates = aligner.candidates({
    maxWords: 2,
    minCount: 10,
    limit: 400,
    stem: stemmerOf('es'),
    stopwords: stopwordsOf('en'),
  });
  const terms: TermRecord[] = [];
  for (const [i, c] of candidates.entries()) {
    terms.push({
      conceptId: i + 1,
      termId: 2 * i + 1,
      lang: 'en',
      text: c.source,
      status: 'preferred',
      caseSensitive: false,
    });
    terms.push({
      conceptId: i + 1,
      termId: 2 * i + 2,
      lang: 'es',
      text: c.target,
      status: 'preferred',
      caseSensitive: false,
    });
  }
  const termbase = makeTermbase(1, terms, 'en', 'es');
  log(`mt-terms: ${candidates.length} concepts learned from ${training.length} pairs`);

  const cases = heldOut
    .map((p) => ({
      ...p,
      concepts: new Set(
        recognizeTerms(termbase.glossary, p.source).flatMap((r) => r.terms.map((t) => t.conceptId)),
      ),
    }))
    .filter((c) => c.concepts.size > 0)
    .slice(0, options.sentences);
  log(`mt-terms: ${cases.length} held-out sentences holding a term (of ${heldOut.length} held out)`);

  const apertium = options.apertiumUrl ? null : await startApertium();
  const url = options.apertiumUrl ?? apertium?.url;
  if (!url) throw new Error('the mt-terms section needs apertium-apy (eng-spa) or --apertium-url');
  const provider = new ApertiumProvider(url);
  // What the engine does around a provider (engine.ts), with or without the termbase's spans.
  const translate = async (texts: string[], protect: boolean): Promise<(string | null)[]> => {
    const masks = texts.map((t) => maskForMt(t, protect ? protectedSpans(termbase, t) : []));
    const answers = await provider.translate(
      masks.map((m) => m.masked),
      'en',
      'es',
      AbortSignal.timeout(120_000),
    );
    return answers.map((a, i) => unmaskMt(texts[i], masks[i], a));
  };
  try {
    const outputs: { without: (string | null)[]; with: (string | null)[] } = { without: [], with: [] };
    for (let i = 0; i < cases.length; i += 25) {
      const batch = cases.slice(i, i + 25).map((c) => c.source);
      outputs.without.push(...(await translate(batch, false)));
      outputs.with.push(...(await translate(batch, true)));
    }
    const occurrences = cases.reduce((n, c) => n + c.concepts.size, 0);
    const count = (texts: string[]) =>
      cases.reduce((n, c, i) => {
        const found = conceptsRendered(termbase.glossary, texts[i]);
        return n + [...c.concepts].filter((k) => found.has(k)).length;
      }, 0);
    const way = (answers: (string | null)[]): MtTermsWay => {
      const texts = answers.map((a) => a ?? '');
      const rendered = count(texts);
      const chrf = texts.reduce((s, t, i) => s + chrF(t, cases[i].target), 0) / Math.max(1, cases.length);
      return {
        rendered,
        share: rendered / Math.max(1, occurrences),
        chrf,
        refused: answers.filter((a) => a === null).length,
      };
    };
    const referenceRendered = count(cases.map((c) => c.target));
    const examples = cases
      .map((c, i) => ({
        source: c.source,
        without: outputs.without[i] ?? '',
        with: outputs.with[i] ?? '',
        reference: c.target,
      }))
      .filter((e) => e.without !== e.with)
      .slice(0, 5);
    const missed: MtTermsBench['missed_with'] = [];
    for (const [i, c] of cases.entries()) {
      const found = conceptsRendered(termbase.glossary, outputs.with[i] ?? '');
      for (const k of c.concepts) {
        if (found.has(k) || missed.length >= 10) continue;
        const term = termbase.glossary.targetTerms(k)[0]?.text ?? '';
        missed.push({ source: c.source, term, output: outputs.with[i] ?? '(refused)' });
      }
    }
    return {
      missed_with: missed,
      memory_entries: pairs.length,
      trained_on: training.length,
      termbase_concepts: candidates.length,
      sentences: cases.length,
      occurrences,
      reference_share: referenceRendered / Math.max(1, occurrences),
      without: way(outputs.without),
      with: way(outputs.with),
      seconds: (performance.now() - started) / 1000,
      examples,
    };
  } finally {
    await apertium?.stop();
  }
}

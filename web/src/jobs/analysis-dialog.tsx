// A job's leverage analysis (POST /v2/jobs/{id}/stats): words by band — 101 % (context), 100 %, the fuzzy
// bands, repetitions, MT drafts, new — for each file of each language pair, the pair's and the job's totals,
// what machine translation could still draft per pair, the weighted words, the organization's weights (an
// admin edits them) and the CSV export.
import { ANALYSIS_BANDS } from '@server/matching/score-bands.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, Fragment, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { analysisWeightsKey, everyJobStatsKey, jobStatsKey } from '../api/keys/jobs.ts';
import { meKey } from '../api/keys/users.ts';
import type { Caller, Job, JobLeverage, LeverageBand } from '../api/types.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';

/** The bands, best first, with the titles CAT tools give them (the CSV's columns are the same). */
const BANDS = ANALYSIS_BANDS;

/** What the short headings stand for: their tooltips and the weights' accessible names. */
const SPELLED_OUT: Partial<Record<LeverageBand, string>> = {
  context: 'Context match',
  mt: 'Machine translation: a draft pre-translated by MT, not yet confirmed or edited',
};

const n = (v: number) => v.toLocaleString(undefined, { maximumFractionDigits: 1 });

type Counts = { sourceWords: number; bands: Record<LeverageBand, number>; weightedWords: number };

function Cells({ t }: { t: Counts }) {
  return (
    <>
      {BANDS.map(({ band }) => (
        <td key={band} className="num">
          {n(t.bands[band])}
        </td>
      ))}
      <td className="num">{n(t.sourceWords)}</td>
      <td className="num strong">{n(t.weightedWords)}</td>
    </>
  );
}

function LeverageTable({ stats }: { stats: JobLeverage }) {
  return (
    <div className="table-scroll">
      <table className="table compact leverage-table" aria-label="Leverage analysis">
        <thead>
          <tr>
            <th scope="col">File</th>
            {BANDS.map(({ band, label }) => (
              <th key={band} scope="col" className="num" title={SPELLED_OUT[band]}>
                {label}
              </th>
            ))}
            <th scope="col" className="num">
              Words
            </th>
            <th scope="col" className="num">
              Weighted
            </th>
          </tr>
        </thead>
        <tbody>
          {stats.projects.map((p) => (
            <Fragment key={p.id}>
              <tr className="group-row">
                <th scope="colgroup" colSpan={BANDS.length + 3}>
                  {p.srcLang} → {p.trgLang}
                </th>
              </tr>
              {p.files.map((f) => (
                <tr key={f.documentId}>
                  <th scope="row" className="file-name">
                    {f.name}
                  </th>
                  <Cells t={f} />
                </tr>
              ))}
              <tr className="strong">
                <th scope="row">All files, {`${p.srcLang} → ${p.trgLang}`}</th>
                <Cells t={p} />
              </tr>
            </Fragment>
          ))}
          {stats.projects.length > 1 && (
            <tr className="strong">
              <th scope="row">All language pairs</th>
              <Cells t={stats} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Per language pair: whether a machine translation engine serves it, and how many of its new words a TM + MT
 * pre-translation would draft (they would move to the MT band).
 */
function MtCoverage({ stats }: { stats: JobLeverage }) {
  return (
    <ul className="muted small mt-coverage" aria-label="Machine translation">
      {stats.projects.map((p) => (
        <li key={p.id}>
          {p.mtProvider === null
            ? `No machine translation engine serves ${p.srcLang} → ${p.trgLang}.`
            : p.mtAvailableWords === 0
              ? `${p.srcLang} → ${p.trgLang}: machine translation (${p.mtProvider}) has no new words left to draft.`
              : `${p.srcLang} → ${p.trgLang}: machine translation (${p.mtProvider}) can draft ${n(p.mtAvailableWords)} new words — pre-translate with TM + MT.`}
        </li>
      ))}
    </ul>
  );
}

/** The weights: a row of percentages an admin can change (saved for the organization) or reset. */
function WeightsForm({ weights, canEdit }: { weights: Record<LeverageBand, number>; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: analysisWeightsKey, queryFn: api.analysisWeights });
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: api.updateAnalysisWeights,
    onSuccess: (answer) => {
      setError(null);
      setSaved(answer.custom ? 'Weights saved.' : 'Weights reset to the defaults.');
      queryClient.setQueryData(analysisWeightsKey, answer);
      // Every analysis is weighed again with them.
      queryClient.invalidateQueries({ queryKey: everyJobStatsKey });
    },
    onError: (err) => setError(errorText(err)),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    save.mutate({
      weights: Object.fromEntries(BANDS.map(({ band }) => [band, Number(form.get(band))])) as Record<
        LeverageBand,
        number
      >,
    });
  }
  return (
    <form className="weights-form" onSubmit={submit} aria-label="Weights">
      <fieldset disabled={!canEdit || save.isPending}>
        <legend>
          Weights <span className="muted small">(% of a new word's price)</span>
        </legend>
        <div className="weights-row">
          {BANDS.map(({ band, label }) => (
            <label key={`${band}-${weights[band]}`} className="field weight">
              <span>{label}</span>
              <input
                name={band}
                type="number"
                min={0}
                max={1000}
                step="any"
                required
                defaultValue={weights[band]}
                aria-label={`Weight of ${
                  band === 'context' ? '101% (context)' : band === 'mt' ? 'MT (machine translation)' : label
                }`}
              />
            </label>
          ))}
        </div>
        {canEdit && (
          <div className="dialog-actions">
            <button
              type="button"
              className="button quiet"
              disabled={!current.data?.custom}
              onClick={() => save.mutate({ reset: true })}
            >
              Reset to defaults
            </button>
            <button type="submit" className="button">
              Save weights
            </button>
          </div>
        )}
      </fieldset>
      {!canEdit && <p className="muted small">An admin can change the weights.</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {saved && !error && (
        <p className="muted small" role="status">
          {saved}
        </p>
      )}
    </form>
  );
}

export function AnalysisDialog({ job, onClose }: { job: Job | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const caller = queryClient.getQueryData<Caller>(meKey);
  const [note, setNote] = useState<string | null>(null);
  const stats = useQuery({
    queryKey: jobStatsKey(job?.id),
    queryFn: () => api.jobStats(job!.id),
    enabled: job !== null,
  });
  const exportCsv = useMutation({
    mutationFn: () => api.downloadJobAnalysis(job!.id, `${job!.name}-analysis.csv`),
    onSuccess: (name) => setNote(`Downloaded ${name}.`),
    onError: (err) => setNote(errorText(err)),
  });
  const close = () => {
    setNote(null);
    onClose();
  };
  return (
    <ModalDialog title={`Analysis of ${job?.name ?? ''}`} open={job !== null} onClose={close} wide>
      {stats.isPending ? (
        <p className="muted">Analysing against the memories…</p>
      ) : stats.error ? (
        <p className="form-error" role="alert">
          {errorText(stats.error)}
        </p>
      ) : (
        <div className="stack analysis">
          <p className="muted small">
            Words by best match against each language pair's memory. 101% is a context match: the memory holds
            the sentence where it stands here. A sentence seen earlier in the job is a repetition. MT is a
            sentence without a match that holds a machine translation draft to post-edit.
          </p>
          <LeverageTable stats={stats.data} />
          <MtCoverage stats={stats.data} />
          <p className="analysis-total">
            <span>
              Weighted words: <strong>{n(stats.data.weightedWords)}</strong> of {n(stats.data.sourceWords)}
            </span>
          </p>
          <WeightsForm weights={stats.data.weights} canEdit={caller?.role === 'admin'} />
        </div>
      )}
      <div className="dialog-actions">
        {note && (
          <span className="muted small" role="status">
            {note}
          </span>
        )}
        <span className="spacer" />
        <button
          type="button"
          className="button"
          disabled={!stats.data || exportCsv.isPending}
          onClick={() => exportCsv.mutate()}
        >
          Export CSV
        </button>
        <button type="button" className="button" onClick={close}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}

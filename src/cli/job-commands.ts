// `tessera file …` and `tessera job …`: Lilt's Files and Jobs through the HTTP API (TESSERA_URL,
// TESSERA_API_KEY) — upload once, translate into several languages, analyse, deliver, download one zip.
import { createWriteStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { ANALYSIS_BANDS, type AnalysisBand } from '../matching/score-bands.ts';
import { ApiClient } from './api-client.ts';
import { fail } from './cli-support.ts';
import type { StateProgress } from './progress.ts';

interface SourceFile {
  id: number;
  name: string;
  detected_lang: string;
  file_hash: string;
  labels: string[];
}

interface Job {
  id: number;
  name: string;
  creationStatus: string;
  status: string;
  isProcessing: number;
  processingErrorMsg: string | null;
  stats: { sourceWords: number; projects: { trgLang: string; trgLocale: string | null }[] };
}

type Bands = Record<AnalysisBand, number>;

/** The columns of `job stats`: the analysis's bands but the context one (the web's table and the CSV show it). */
const STATS_BANDS = ANALYSIS_BANDS.filter((b) => b.band !== 'context');

interface Leverage {
  sourceWords: number;
  exactWords: number;
  fuzzyWords: number;
  newWords: number;
  bands: Bands;
  /** The new words the pair's MT engine can draft (0 when none serves it). */
  mtAvailableWords: number;
  projects: {
    srcLang: string;
    trgLang: string;
    sourceWords: number;
    bands: Bands;
    mtAvailableWords: number;
  }[];
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

const describeFile = (f: SourceFile) =>
  `${f.id}\t${f.name}\t${f.detected_lang}\t${f.file_hash}\t${f.labels.join(',')}`;

function describeJob(j: Job): string {
  const languages = j.stats.projects
    .map((p) => (p.trgLocale ? `${p.trgLang}-${p.trgLocale}` : p.trgLang))
    .join(',');
  return `${j.id}\t${j.name}\t${j.status}\t${j.creationStatus}\t${languages}\t${j.stats.sourceWords} words`;
}

/** Polls the job until `done`, its state drawn by `progress` (the job's line is the answer, on stdout). */
async function follow(
  api: ApiClient,
  id: number,
  progress: StateProgress,
  done: (j: Job) => boolean,
  state: (j: Job) => string,
) {
  for (;;) {
    const job = await api.request<Job>('GET', `/v2/jobs/${id}`);
    if (done(job)) {
      progress.finish();
      return job;
    }
    progress.update(state(job));
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function save(res: Response, file: string | undefined) {
  await pipeline(
    Readable.fromWeb(res.body as ReadableStream),
    file ? createWriteStream(file) : process.stdout,
  );
}

function registerFileCommands(program: Command) {
  const file = program
    .command('file')
    .description("source files for jobs (Lilt's Files, through the HTTP API)");
  file
    .command('upload <file>')
    .option('--labels <labels>', 'comma-separated labels')
    .option('--category <category>', 'API (default) or REFERENCE')
    .description('upload a source file; prints its id, name, detected language and MD5')
    .action(async (path: string, opts: { labels?: string; category?: string }) => {
      const { ByteProgress } = await import('./progress.ts');
      const name = basename(path);
      const upload = new ByteProgress(`${name} upload`);
      const created = await new ApiClient()
        .upload<SourceFile>(
          '/v2/files',
          path,
          { name, labels: opts.labels, category: opts.category },
          (sent, size) => upload.update(sent, size),
        )
        .finally(() => upload.finish());
      out(describeFile(created));
    });
  file
    .command('list')
    .option('--labels <labels>', 'only files carrying all these labels (comma separated)')
    .description('list source files')
    .action(async (opts: { labels?: string }) => {
      const query = opts.labels ? `?labels=${encodeURIComponent(opts.labels)}` : '';
      const files = await new ApiClient().request<SourceFile[]>('GET', `/v2/files${query}`);
      out('ID\tNAME\tLANGUAGE\tMD5\tLABELS');
      for (const f of files) out(describeFile(f));
    });
  file
    .command('download <id> [file]')
    .description('download a source file (to a file, or standard output)')
    .action(async (id: string, path?: string) =>
      save(await new ApiClient().fetch('GET', `/v2/files/download?id=${encodeURIComponent(id)}`), path),
    );
  file
    .command('delete <id>')
    .description('delete a source file')
    .action(async (id: string) => {
      await new ApiClient().request('DELETE', `/v2/files?id=${encodeURIComponent(id)}`);
      out(`deleted ${id}`);
    });
}

/** `de=3` → { trgLang: 'de', memoryId: 3 }; `de-DE=3` names the region as Lilt's trgLocale. */
function parsePair(spec: string, pairs: { trgLang: string; trgLocale?: string; memoryId: number }[]) {
  const match = /^([a-zA-Z]{2,3})(?:-([a-zA-Z0-9]{2,8}))?=(\d+)$/.exec(spec);
  if (!match) throw new Error(`--pair "${spec}": expected LANG=MEMORY_ID, e.g. de=3 or de-DE=3`);
  return [
    ...pairs,
    { trgLang: match[1], ...(match[2] ? { trgLocale: match[2] } : {}), memoryId: Number(match[3]) },
  ];
}

function registerJobCommands(program: Command) {
  const job = program
    .command('job')
    .description("jobs: one source, several target languages (Lilt's Jobs, through the HTTP API)");
  job
    .command('create <name>')
    .requiredOption('--files <ids>', 'comma-separated ids of uploaded source files')
    .requiredOption('--from <lang>', 'source language')
    .requiredOption(
      '--pair <lang=memory>',
      'a target language and the memory it uses (repeat for each)',
      parsePair,
      [],
    )
    .option('--pretranslate', 'pre-translate every pair from its memory')
    .option('--auto-accept', 'confirm exact matches (the same text as the source) when pre-translating')
    .option('--due <date>', 'due date (ISO 8601)')
    .description('create a job and wait until its documents are ready')
    .action(
      async (
        name: string,
        opts: {
          files: string;
          from: string;
          pair: object[];
          pretranslate?: boolean;
          autoAccept?: boolean;
          due?: string;
        },
      ) => {
        const { StateProgress } = await import('./progress.ts');
        const api = new ApiClient();
        const created = await api.request<Job>('POST', '/v2/jobs', {
          name,
          fileIds: opts.files.split(',').map((id) => Number(id.trim())),
          srcLang: opts.from,
          due: opts.due,
          languagePairs: opts.pair.map((p) => ({
            ...p,
            pretranslate: Boolean(opts.pretranslate),
            autoAccept: Boolean(opts.autoAccept),
          })),
        });
        const j = await follow(
          api,
          created.id,
          new StateProgress(name),
          (x) => x.creationStatus !== 'PENDING',
          () => 'creating',
        );
        if (j.creationStatus === 'FAILED') fail(`job ${j.id} could not be created: ${j.processingErrorMsg}`);
        out(describeJob(j));
      },
    );
  job
    .command('list')
    .option('--archived', 'archived jobs only')
    .option('--delivered', 'delivered jobs only')
    .description('list jobs')
    .action(async (opts: { archived?: boolean; delivered?: boolean }) => {
      const qs = new URLSearchParams();
      if (opts.archived) qs.set('isArchived', 'true');
      if (opts.delivered) qs.set('isDelivered', 'true');
      const jobs = await new ApiClient().request<Job[]>('GET', `/v2/jobs?${qs}`);
      out('ID\tNAME\tSTATUS\tCREATION\tLANGUAGES\tWORDS');
      for (const j of jobs) out(describeJob(j));
    });
  job
    .command('stats <id>')
    .description(
      'analyse the job against its memories: words by match band, per language pair, and the new words MT can draft',
    )
    .action(async (id: string) => {
      const stats = await new ApiClient().request<Leverage>(
        'POST',
        `/v2/jobs/${encodeURIComponent(id)}/stats`,
      );
      // Match bands as their score ranges (100%, 95-99%…), the others by name in capitals, as the other heads.
      const heads = STATS_BANDS.map((b) =>
        /\d/.test(b.label) ? b.label.replace('–', '-') : b.label.toUpperCase(),
      );
      // The last column: the new words machine translation can draft (a tm+mt pre-translation's).
      out(`PAIR\tWORDS\t${heads.join('\t')}\tMT-CAN-DRAFT`);
      const row = (label: string, words: number, b: Bands, draftable: number) =>
        out([label, words, ...STATS_BANDS.map(({ band }) => b[band]), draftable].join('\t'));
      for (const p of stats.projects) {
        row(`${p.srcLang}→${p.trgLang}`, p.sourceWords, p.bands, p.mtAvailableWords);
      }
      row('total', stats.sourceWords, stats.bands, stats.mtAvailableWords);
    });
  job
    .command('deliver <id>')
    .description('mark the job and its projects delivered')
    .action(async (id: string) =>
      out(
        describeJob(await new ApiClient().request<Job>('POST', `/v2/jobs/${encodeURIComponent(id)}/deliver`)),
      ),
    );
  job
    .command('export <id>')
    .option('--memory', "the pairs' memories as TMX (default: the translated files)")
    .description('prepare the zip of the job and wait until it is ready')
    .action(async (id: string, opts: { memory?: boolean }) => {
      const { StateProgress } = await import('./progress.ts');
      const api = new ApiClient();
      await api.request(
        'GET',
        `/v2/jobs/${encodeURIComponent(id)}/export?type=${opts.memory ? 'memory' : 'files'}`,
      );
      const j = await follow(
        api,
        Number(id),
        new StateProgress(`job ${id}`),
        (x) => x.isProcessing !== 1,
        () => 'exporting',
      );
      if (j.isProcessing === -2) fail(`export failed: ${j.processingErrorMsg}`);
      out(describeJob(j));
    });
  job
    .command('download <id> [file]')
    .description('download the zip the last export prepared (to a file, or standard output)')
    .action(async (id: string, path?: string) =>
      save(await new ApiClient().fetch('GET', `/v2/jobs/${encodeURIComponent(id)}/download`), path),
    );
}

export function registerFileAndJobCommands(program: Command) {
  registerFileCommands(program);
  registerJobCommands(program);
}

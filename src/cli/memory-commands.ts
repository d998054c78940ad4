// `tessera memory …`: thin clients of the HTTP API (TESSERA_URL, TESSERA_API_KEY).
import { createWriteStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { EXACT_SCORE, MIN_SCORE } from '../matching/score-bands.ts';
import { ApiClient } from './api-client.ts';
import { fail } from './cli-support.ts';
import type { ByteProgress } from './progress.ts';

interface Memory {
  id: number;
  name: string;
  srclang: string;
  trglang: string;
  num_segments: number;
  version: number;
}

interface Task {
  id: number;
  state: string;
  progress: { done: number; total: number };
  result: unknown;
  error: string | null;
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Follows a task to its end, its progress drawn by `progress`. */
async function followTask(api: ApiClient, jobId: number, progress: ByteProgress): Promise<Task> {
  for (;;) {
    const task = await api.request<Task>('GET', `/v2/tasks?id=${jobId}`);
    if (task.state === 'succeeded' || task.state === 'failed') {
      progress.finish(task.progress.done, task.progress.total, task.state);
      return task;
    }
    progress.update(task.progress.done, task.progress.total, task.state);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function registerMemoryCommands(program: Command) {
  const memory = program.command('memory').description('translation memories (through the HTTP API)');

  memory
    .command('create <name>')
    .requiredOption('--from <lang>', 'source language')
    .requiredOption('--to <lang>', 'target language')
    .description('create a memory')
    .action(async (name: string, opts: { from: string; to: string }) => {
      const created = await new ApiClient().request<Memory>('POST', '/v2/memories', {
        name,
        srclang: opts.from,
        trglang: opts.to,
      });
      out(`${created.id}\t${created.name}\t${created.srclang}→${created.trglang}`);
    });

  memory
    .command('list')
    .description('list memories')
    .action(async () => {
      const list = await new ApiClient().request<Memory[]>('GET', '/v2/memories');
      out('ID\tNAME\tPAIR\tSEGMENTS\tVERSION');
      for (const m of list)
        out(`${m.id}\t${m.name}\t${m.srclang}→${m.trglang}\t${m.num_segments}\t${m.version}`);
    });

  memory
    .command('import <id> <file>')
    .description('import a .tmx or .tmx.gz file and wait for the task')
    .action(async (id: string, file: string) => {
      const { ByteProgress } = await import('./progress.ts');
      const api = new ApiClient();
      const name = basename(file);
      // The server answers once it holds the whole file; its task then counts the bytes it has parsed.
      const upload = new ByteProgress(`${name} upload`);
      const started = await api
        .upload<{ task_id: number }>(
          '/v2/memories/import',
          file,
          { memory_id: Number(id), name },
          (sent, size) => upload.update(sent, size),
        )
        .finally(() => upload.finish());
      const task = await followTask(api, started.task_id, new ByteProgress(`${name} import`));
      if (task.state === 'failed') fail(`import failed: ${task.error}`);
      out(JSON.stringify(task.result));
    });

  memory
    .command('export <id> [file]')
    .description('export a memory as TMX (to a file, or standard output)')
    .action(async (id: string, file?: string) => {
      const res = await new ApiClient().fetch('GET', `/v2/memories/export?id=${encodeURIComponent(id)}`);
      const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
      await pipeline(body, file ? createWriteStream(file) : process.stdout);
    });

  memory
    .command('query <id> <text>')
    .option('-n <n>', 'most matches to show', '10')
    .option('--min-score <score>', `lowest score to show (${MIN_SCORE}–${EXACT_SCORE})`)
    .description('look a text up in a memory')
    .action(async (id: string, text: string, opts: { n: string; minScore?: string }) => {
      const qs = new URLSearchParams({ id, query: text, n: opts.n });
      if (opts.minScore) qs.set('min_score', opts.minScore);
      const matches = await new ApiClient().request<{ source: string; target: string; score: number }[]>(
        'GET',
        `/v2/memories/query?${qs}`,
      );
      for (const m of matches) out(`${m.score}\t${m.source}\t${m.target}`);
      if (matches.length === 0) process.stderr.write('no match at or above the threshold\n');
    });
}

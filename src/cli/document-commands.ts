// `tessera project …` and `tessera doc …`: thin clients of the HTTP API (TESSERA_URL, TESSERA_API_KEY).
import { createWriteStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { ApiClient } from './api-client.ts';

interface DocumentAnswer {
  id: number;
  name: string;
  import_in_progress: boolean;
  import_succeeded: boolean;
  import_error_message: string | null;
  is_pretranslating: boolean;
  status: { pretranslation: string };
  num_segments: number;
  num_confirmed: number;
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

function describe(d: DocumentAnswer): string {
  const state = d.import_in_progress
    ? 'importing'
    : !d.import_succeeded
      ? `import failed: ${d.import_error_message}`
      : d.is_pretranslating
        ? `pre-translation ${d.status.pretranslation}`
        : 'ready';
  return `${d.id}\t${d.name}\t${d.num_confirmed}/${d.num_segments} confirmed\t${state}`;
}

/** Polls the document until `done`; a bar on a terminal, a line every few seconds elsewhere. */
async function follow(api: ApiClient, id: number, label: string, done: (d: DocumentAnswer) => boolean) {
  const bar = process.stderr.isTTY
    ? new SingleBar({ format: `${label} {state}`, stream: process.stderr })
    : undefined;
  bar?.start(1, 0, { state: '…' });
  let last = 0;
  for (;;) {
    const doc = await api.request<DocumentAnswer>('GET', `/v2/documents?id=${id}`);
    const finished = done(doc);
    if (bar) bar.update(finished ? 1 : 0, { state: describe(doc) });
    else if (finished || Date.now() - last > 2000) {
      process.stderr.write(`${label}: ${describe(doc)}\n`);
      last = Date.now();
    }
    if (finished) {
      bar?.stop();
      return doc;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function registerDocumentCommands(program: Command, fail: (message: string) => never) {
  program
    .command('project')
    .description('projects (through the HTTP API)')
    .command('create <name>')
    .requiredOption('--memory <id>', 'the memory the project uses (gives the language pair)')
    .action(async (name: string, opts: { memory: string }) => {
      const p = await new ApiClient().request<{ id: number; name: string; srclang: string; trglang: string }>(
        'POST',
        '/v2/projects',
        { name, memory_id: Number(opts.memory) },
      );
      out(`${p.id}\t${p.name}\t${p.srclang}→${p.trglang}`);
    });

  const doc = program.command('doc').description('documents (through the HTTP API)');
  doc
    .command('upload <project> <file>')
    .option('--pretranslate', 'pre-translate from the project memory after parsing')
    .option('--auto-accept', 'confirm 100% matches when pre-translating')
    .description('upload a document and wait until it is parsed')
    .action(async (project: string, file: string, opts: { pretranslate?: boolean; autoAccept?: boolean }) => {
      const api = new ApiClient();
      const created = await api.upload<DocumentAnswer>('/v2/documents/files', file, {
        name: basename(file),
        project_id: Number(project),
        ...(opts.pretranslate ? { pretranslate: 'TM', auto_accept: Boolean(opts.autoAccept) } : {}),
      });
      const d = await follow(
        api,
        created.id,
        basename(file),
        (x) => !x.import_in_progress && !x.is_pretranslating,
      );
      if (!d.import_succeeded) fail(`import failed: ${d.import_error_message}`);
      out(describe(d));
    });

  doc
    .command('status <id>')
    .description("show a document's progress")
    .action(async (id: string) =>
      out(describe(await new ApiClient().request<DocumentAnswer>('GET', `/v2/documents?id=${id}`))),
    );

  doc
    .command('pretranslate <id>')
    .option('--auto-accept', 'confirm 100% matches')
    .description('pre-translate a document from its project memory and wait')
    .action(async (id: string, opts: { autoAccept?: boolean }) => {
      const api = new ApiClient();
      await api.request('POST', '/v2/documents/pretranslate', {
        id: [Number(id)],
        auto_accept: Boolean(opts.autoAccept),
      });
      out(describe(await follow(api, Number(id), `document ${id}`, (d) => !d.is_pretranslating)));
    });

  doc
    .command('export <id> [file]')
    .option('--original', 'the original format with translations merged (default: XLIFF 1.2)')
    .description('download a document (to a file, or standard output)')
    .action(async (id: string, file: string | undefined, opts: { original?: boolean }) => {
      const res = await new ApiClient().fetch(
        'GET',
        `/v2/documents/files?id=${id}&is_xliff=${!opts.original}`,
      );
      await pipeline(
        Readable.fromWeb(res.body as ReadableStream),
        file ? createWriteStream(file) : process.stdout,
      );
    });
}

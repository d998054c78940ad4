// `tessera project …` and `tessera doc …`: thin clients of the HTTP API (TESSERA_URL, TESSERA_API_KEY).
import { createWriteStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { ApiClient } from './api-client.ts';
import { fail } from './cli-support.ts';
import type { StateProgress } from './progress.ts';

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

function stateOf(d: DocumentAnswer): string {
  if (d.import_in_progress) return 'importing';
  if (!d.import_succeeded) return `import failed: ${d.import_error_message}`;
  return d.is_pretranslating ? `pre-translation ${d.status.pretranslation}` : 'ready';
}

function describe(d: DocumentAnswer): string {
  return `${d.id}\t${d.name}\t${d.num_confirmed}/${d.num_segments} confirmed\t${stateOf(d)}`;
}

/**
 * Polls the document until `done`, its state drawn by `progress`. The document's line itself is the
 * command's answer on stdout, so the progress shows only the state, and nothing once done.
 */
async function follow(
  api: ApiClient,
  id: number,
  progress: StateProgress,
  done: (d: DocumentAnswer) => boolean,
): Promise<DocumentAnswer> {
  for (;;) {
    const doc = await api.request<DocumentAnswer>('GET', `/v2/documents?id=${id}`);
    if (done(doc)) {
      progress.finish();
      return doc;
    }
    progress.update(stateOf(doc));
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function registerDocumentCommands(program: Command) {
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
    .option('--auto-accept', 'confirm exact matches (the same text as the source) when pre-translating')
    .description('upload a document and wait until it is parsed')
    .action(async (project: string, file: string, opts: { pretranslate?: boolean; autoAccept?: boolean }) => {
      const { ByteProgress, StateProgress } = await import('./progress.ts');
      const api = new ApiClient();
      const name = basename(file);
      const params = {
        name,
        project_id: Number(project),
        ...(opts.pretranslate ? { pretranslate: 'TM', auto_accept: Boolean(opts.autoAccept) } : {}),
      };
      const upload = new ByteProgress(`${name} upload`);
      const created = await api
        .upload<DocumentAnswer>('/v2/documents/files', file, params, (sent, size) =>
          upload.update(sent, size),
        )
        .finally(() => upload.finish());
      const d = await follow(
        api,
        created.id,
        new StateProgress(name),
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
    .option('--auto-accept', 'confirm exact matches (the same text as the source)')
    .description('pre-translate a document from its project memory and wait')
    .action(async (id: string, opts: { autoAccept?: boolean }) => {
      const { StateProgress } = await import('./progress.ts');
      const api = new ApiClient();
      await api.request('POST', '/v2/documents/pretranslate', {
        id: [Number(id)],
        auto_accept: Boolean(opts.autoAccept),
      });
      const progress = new StateProgress(`document ${id}`);
      out(describe(await follow(api, Number(id), progress, (d) => !d.is_pretranslating)));
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

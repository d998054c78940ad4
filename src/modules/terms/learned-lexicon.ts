// The lexicon learned from each memory's own pairs (word alignments, src/terminology/word-alignment.ts), for
// GET /v2/lexicon's words that are in no termbase and for the term candidates. Models live in one worker
// thread (lexicon-worker.ts); this side reads the memory's pairs in pages, hands them over and asks.
//
// When: the first question about a memory starts its training and is answered without learned translations
// (a memory of 70,000 pairs takes several seconds); later questions are answered from the model. A memory
// that has grown by a tenth (or by 1,000 entries) since is trained again in the background, the old model
// answering meanwhile. One training at a time: the others wait their turn.
import type { Worker } from 'node:worker_threads';
import type { Queryable } from '../../store/db.ts';
import { startThread } from '../../tasks/threads.ts';
import type { PhraseTranslation, TermCandidate, TrainingFigures } from '../../terminology/word-alignment.ts';
import { memoryPairPages } from '../memories/service.ts';

/** The memory as the lexicon needs it. */
export interface LexiconMemory {
  id: number;
  srclang: string;
  trglang: string;
  num_segments: number;
}

interface ModelState {
  /** Entries the memory held when the model (or the training under way) read it. */
  entries: number;
  ready: boolean;
  training: boolean;
  figures?: TrainingFigures;
  failure?: string;
}

/** Pairs sent to the worker per message. */
const BATCH = 5000;

export class LearnedLexicon {
  private worker: Worker | undefined;
  private readonly models = new Map<number, ModelState>();
  private queue: Promise<void> = Promise.resolve();
  private nextId = 1;
  // biome-ignore lint/suspicious/noExplicitAny: each question's answer has its own shape (translations, candidates)
  private readonly answers = new Map<number, (answer: any) => void>();
  private readonly trainedWaiters = new Map<number, (() => void)[]>();

  constructor(private readonly db: Queryable) {}

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread(new URL('./lexicon-worker.ts', import.meta.url), null);
    // The server may end while a model is learned: the thread must not keep it alive.
    worker.unref();
    worker.on('message', (m) => this.received(m));
    worker.on('error', () => this.lost());
    worker.on('exit', () => this.lost());
    this.worker = worker;
    return worker;
  }

  /** The thread ended (a crash, or close()): its models are gone; questions waiting get no answer. */
  private lost(): void {
    this.worker = undefined;
    this.models.clear();
    for (const answer of this.answers.values()) answer(null);
    this.answers.clear();
    // A training under way ends with the thread: its queue must not wait for it forever.
    for (const wakes of this.trainedWaiters.values()) for (const wake of wakes) wake();
    this.trainedWaiters.clear();
  }

  private received(
    m:
      | {
          type: 'answer';
          id: number;
          translations?: PhraseTranslation[] | null;
          candidates?: TermCandidate[] | null;
          held?: number[];
        }
      | { type: 'trained'; memoryId: number; figures: TrainingFigures }
      | { type: 'failed'; memoryId: number; message: string },
  ): void {
    if (m.type === 'answer') {
      this.answers.get(m.id)?.(m.translations ?? m.candidates ?? m.held ?? null);
      this.answers.delete(m.id);
      return;
    }
    const state = this.models.get(m.memoryId);
    // Its memory was deleted while the training ran or waited its turn: the model it left goes too.
    if (!state && m.type === 'trained') this.worker?.postMessage({ type: 'drop', memoryId: m.memoryId });
    if (state) {
      state.training = false;
      if (m.type === 'trained') {
        state.ready = true;
        state.figures = m.figures;
        state.failure = undefined;
      } else state.failure = m.message;
    }
    for (const wake of this.trainedWaiters.get(m.memoryId) ?? []) wake();
    this.trainedWaiters.delete(m.memoryId);
  }

  /** What the lexicon of a memory is: trained (with its figures), training, or not started. */
  state(memoryId: number): ModelState | undefined {
    return this.models.get(memoryId);
  }

  /**
   * The learned translations of a word or phrase, best first; null while the memory's model is not trained
   * (its training is started here when it is due).
   */
  async translations(memory: LexiconMemory, phrase: string, n: number): Promise<PhraseTranslation[] | null> {
    const state = this.models.get(memory.id);
    if (this.due(memory, state)) this.train(memory);
    if (!state?.ready || !this.worker) return null;
    const id = this.nextId++;
    const answer = new Promise<PhraseTranslation[] | null>((resolve) => this.answers.set(id, resolve));
    this.worker.postMessage({ type: 'query', id, memoryId: memory.id, phrase, n });
    return answer;
  }

  /**
   * Term candidates of a memory (WordAligner.candidates), leaving out the phrases in `exclude` (wordTokens'
   * forms joined by spaces); null while the memory's model is not trained (its training is started).
   */
  async candidates(memory: LexiconMemory, n: number, exclude: string[]): Promise<TermCandidate[] | null> {
    const state = this.models.get(memory.id);
    if (this.due(memory, state)) this.train(memory);
    if (!state?.ready || !this.worker) return null;
    const id = this.nextId++;
    const answer = new Promise<TermCandidate[] | null>((resolve) => this.answers.set(id, resolve));
    this.worker.postMessage({
      type: 'candidates',
      id,
      memoryId: memory.id,
      srcLang: memory.srclang,
      n,
      exclude,
    });
    return answer;
  }

  private due(memory: LexiconMemory, state: ModelState | undefined): boolean {
    if (!state) return memory.num_segments > 0;
    if (state.training) return false;
    const grown = memory.num_segments - state.entries;
    return grown >= 1000 || grown * 10 >= Math.max(state.entries, 10);
  }

  /** Starts (queues) a training of the memory's lexicon; resolves when it is trained or has failed. */
  train(memory: LexiconMemory): Promise<void> {
    const state: ModelState = this.models.get(memory.id) ?? { entries: 0, ready: false, training: false };
    state.training = true;
    state.entries = memory.num_segments;
    this.models.set(memory.id, state);
    const done = new Promise<void>((resolve) => {
      const list = this.trainedWaiters.get(memory.id) ?? [];
      list.push(resolve);
      this.trainedWaiters.set(memory.id, list);
    });
    this.queue = this.queue.then(() =>
      this.send(memory, done).catch((err: Error) =>
        this.received({ type: 'failed', memoryId: memory.id, message: err.message }),
      ),
    );
    return done;
  }

  /** Reads the memory's pairs into the worker and has it train; resolves once the model is in or failed. */
  private async send(memory: LexiconMemory, done: Promise<void>): Promise<void> {
    const worker = this.thread();
    let batch: { source: string; target: string }[] = [];
    for await (const page of memoryPairPages(this.db, memory.id)) {
      for (const p of page) batch.push(p);
      if (batch.length >= BATCH) {
        worker.postMessage({ type: 'pairs', memoryId: memory.id, pairs: batch });
        batch = [];
      }
    }
    worker.postMessage({ type: 'pairs', memoryId: memory.id, pairs: batch });
    worker.postMessage({ type: 'train', memoryId: memory.id, trgLang: memory.trglang });
    await done;
  }

  /** A deleted memory's model goes (memories' deleteMemory calls it through the hook app.ts gives it). */
  forget(memoryId: number): void {
    this.models.delete(memoryId);
    this.worker?.postMessage({ type: 'drop', memoryId });
  }

  /** The memories whose models the worker holds (what a test asks to see that a model went). */
  async held(): Promise<number[]> {
    if (!this.worker) return [];
    const id = this.nextId++;
    const answer = new Promise<number[] | null>((resolve) => this.answers.set(id, resolve));
    this.worker.postMessage({ type: 'held', id });
    return (await answer) ?? [];
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
  }
}

// The worker thread that holds the lexicons learned from memories (src/terminology/word-alignment.ts):
// training takes seconds to minutes of CPU and a few hundred megabytes for a large memory, neither of which
// may land on the server's own thread. Messages (learned-lexicon.ts sends them):
//   { type: 'pairs', memoryId, pairs }                       a page of the memory's pairs for the next training
//   { type: 'train', memoryId, trgLang }            trains on the pages received, replaces the model
//   { type: 'query', id, memoryId, phrase, n }               answers { type: 'answer', id, translations }
//   { type: 'candidates', id, memoryId, srcLang, n, exclude } answers { type: 'answer', id, candidates }
//   { type: 'drop', memoryId }                               forgets a memory's model
//   { type: 'held', id }                                     answers { type: 'answer', id, held }: the models' memories
import { parentPort } from 'node:worker_threads';
import { stemmerOf } from '../../terminology/stemmers.ts';
import { stopwordsOf } from '../../terminology/stopwords.ts';
import { WordAligner } from '../../terminology/word-alignment.ts';

interface Model {
  aligner: WordAligner;
  stem: ((word: string) => string) | undefined;
  usedAt: number;
}

/** Models kept at once; the least recently asked goes first (each holds its memory's text and links). */
const MODELS_KEPT = 6;

const models = new Map<number, Model>();
const pending = new Map<number, { source: string; target: string }[]>();

type Message =
  | { type: 'pairs'; memoryId: number; pairs: { source: string; target: string }[] }
  | { type: 'train'; memoryId: number; trgLang: string }
  | { type: 'query'; id: number; memoryId: number; phrase: string; n: number }
  | { type: 'candidates'; id: number; memoryId: number; srcLang: string; n: number; exclude: string[] }
  | { type: 'drop'; memoryId: number }
  | { type: 'held'; id: number };

parentPort!.on('message', (message: Message) => {
  switch (message.type) {
    case 'pairs': {
      const list = pending.get(message.memoryId) ?? [];
      for (const p of message.pairs) list.push(p);
      pending.set(message.memoryId, list);
      return;
    }
    case 'train': {
      const pairs = pending.get(message.memoryId) ?? [];
      pending.delete(message.memoryId);
      try {
        const aligner = new WordAligner();
        const figures = aligner.train(pairs);
        models.set(message.memoryId, { aligner, stem: stemmerOf(message.trgLang), usedAt: Date.now() });
        while (models.size > MODELS_KEPT) {
          const oldest = [...models].sort((a, b) => a[1].usedAt - b[1].usedAt)[0][0];
          models.delete(oldest);
        }
        parentPort!.postMessage({
          type: 'trained',
          memoryId: message.memoryId,
          figures,
        });
      } catch (err) {
        parentPort!.postMessage({
          type: 'failed',
          memoryId: message.memoryId,
          message: (err as Error).message,
        });
      }
      return;
    }
    case 'query': {
      const model = models.get(message.memoryId);
      if (model) model.usedAt = Date.now();
      const translations = model
        ? model.aligner.translations(message.phrase, { n: message.n, stem: model.stem })
        : null;
      parentPort!.postMessage({ type: 'answer', id: message.id, translations });
      return;
    }
    case 'candidates': {
      const model = models.get(message.memoryId);
      if (model) model.usedAt = Date.now();
      const candidates = model
        ? model.aligner.candidates({
            limit: message.n,
            stem: model.stem,
            stopwords: stopwordsOf(message.srcLang),
            exclude: new Set(message.exclude),
          })
        : null;
      parentPort!.postMessage({ type: 'answer', id: message.id, candidates });
      return;
    }
    case 'drop':
      models.delete(message.memoryId);
      pending.delete(message.memoryId);
      return;
    case 'held':
      parentPort!.postMessage({ type: 'answer', id: message.id, held: [...models.keys()] });
      return;
  }
});

// The learned lexicon's compositions of a two-word query through GET /v2/lexicon, on every store: a
// translation whose two words stand a word apart in the memory's sentences ("Dirección no válida"), and, where
// the sentences holding the phrase render it by nothing, a guess composed of its words' translations, counted
// in no sentence (frequency 0) — and none where they do.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { learned as learnedIn } from './helpers/lexicon.ts';
import { storeTargets } from './helpers/stores.ts';

// "Invalid address" is written "Dirección no válida" three times, at the start of the Spanish and the end of
// the English, so no span of linked words renders it (as in the unit test of word-alignment.ts).
const GAPPY = [
  ['The address is invalid', 'La dirección no es válida'],
  ['The name is invalid', 'El nombre no es válido'],
  ['Invalid name', 'Nombre no válido'],
  ['Invalid file', 'Archivo no válido'],
  ['The file is invalid', 'El archivo no es válido'],
  ['Open the address', 'Abra la dirección'],
  ['Copy the address', 'Copie la dirección'],
  ['Copy the name', 'Copie el nombre'],
  ['Open the file', 'Abra el archivo'],
  ['Not found', 'No encontrado'],
  ['The file was not found', 'El archivo no fue encontrado'],
  ['Do not copy the file', 'No copie el archivo'],
  ['Do not open the file', 'No abra el archivo'],
  ['The mail was returned', 'El correo fue devuelto'],
  ['The message was refused', 'El mensaje fue rechazado'],
  ['The server answered', 'El servidor respondió'],
  ['The file was returned', 'El archivo fue devuelto'],
  ['The server answered Invalid address', 'Dirección no válida, respondió el servidor'],
  ['The mail was returned with Invalid address', 'Dirección no válida: el correo fue devuelto'],
  ['A message was refused for Invalid address', 'Dirección no válida: un mensaje fue rechazado'],
];

// The one sentence holding "invalid status" renders it by nothing ("42"); "estado" and "inválido" are
// learned from the others, which write them together nowhere.
const UNSEEN = [
  ['The status is shown', 'Se muestra el estado'],
  ['Show the status', 'Muestre el estado'],
  ['The status of the file', 'El estado del archivo'],
  ['Invalid name', 'Nombre inválido'],
  ['Invalid file', 'Archivo inválido'],
  ['Invalid value', 'Valor inválido'],
  ['Invalid user', 'Usuario inválido'],
  ['Invalid port', 'Puerto inválido'],
  ['Invalid mode', 'Modo inválido'],
  ['Show the user', 'Muestre el usuario'],
  ['Show the port', 'Muestre el puerto'],
  ['Show the mode', 'Muestre el modo'],
  ['The name is invalid', 'El nombre es inválido'],
  ['The port is invalid', 'El puerto es inválido'],
  ['The user is invalid', 'El usuario es inválido'],
  ['The mode is invalid', 'El modo es inválido'],
  ['Invalid status 42', '42'],
  ['Error 42', '42'],
  ['Value 42', 'Valor 42'],
  ['The name is shown', 'Se muestra el nombre'],
  ['Show the file', 'Muestre el archivo'],
  ['Show the value', 'Muestre el valor'],
];

for (const target of await storeTargets()) {
  describe(`the learned lexicon's compositions on ${target.name}`, () => {
    let ctx: TestContext;
    let admin: ReturnType<typeof client>;
    const memories: Record<string, number> = {};

    before(async () => {
      ctx = await createContext(target);
      admin = client(ctx.app, ctx.adminKey);
      for (const [name, pairs] of [
        ['gappy', GAPPY],
        ['unseen', UNSEEN],
      ] as const) {
        memories[name] = (await admin.post('/v2/memories', { name, srclang: 'en', trglang: 'es' })).json().id;
        for (const [source, target] of pairs) {
          const res = await admin.post('/v2/segments', { memory_id: memories[name], source, target });
          assert.equal(res.statusCode, 200, res.body);
        }
      }
    });
    after(() => ctx.close());

    const learned = (memory: string, query: string) =>
      learnedIn(admin, memories[memory], query, 'srclang=en&trglang=es');

    test('two words a word apart in the sentences: the words between taken in', async () => {
      const [first] = await learned('gappy', 'invalid address');
      assert.deepEqual(first, {
        source: 'invalid address',
        target: 'Dirección no válida',
        frequency: 3,
        status: null,
        origin: 'memory',
        memory_id: memories.gappy,
      });
    });

    test('a phrase its sentences render by nothing: a guess counted in no sentence; none for one they render', async () => {
      const guess = await learned('unseen', 'invalid status');
      assert.deepEqual(
        guess.map((t) => [t.target, t.frequency, t.origin]),
        [['estado inválido', 0, 'memory']],
      );
      const rendered = await learned('unseen', 'invalid name');
      assert.equal(rendered[0].target, 'Nombre inválido');
      assert.ok(
        rendered.every((t) => t.frequency > 0),
        JSON.stringify(rendered),
      );
    });
  });
}

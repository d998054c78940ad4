import assert from 'node:assert/strict';
import { test } from 'node:test';
import { languageServes, providerServing } from './coverage.ts';

test("an engine's language serves the same tag, and without a region every region of it", () => {
  assert.equal(languageServes('es', 'es'), true);
  assert.equal(languageServes('es', 'es-MX'), true);
  assert.equal(languageServes('ES', 'es-mx'), true);
  assert.equal(languageServes('pt-BR', 'pt-BR'), true);
  assert.equal(languageServes('pt-BR', 'pt-PT'), false);
  assert.equal(languageServes('pt-BR', 'pt'), false);
  assert.equal(languageServes('es', 'en'), false);
  assert.equal(languageServes('e', 'es'), false);
});

test('the first provider whose pairs include the pair serves it; none configured, none serves', async () => {
  const engine = {
    configured: true,
    languages: async () => [
      { provider: 'down', pairs: [] },
      { provider: 'apertium', pairs: [{ source: 'en', target: 'es' }] },
      { provider: 'other', pairs: [{ source: 'en', target: 'es' }] },
    ],
  };
  assert.equal(await providerServing(engine, 'en-US', 'es'), 'apertium');
  assert.equal(await providerServing(engine, 'es', 'en'), null, 'a pair has a direction');
  assert.equal(await providerServing({ ...engine, configured: false }, 'en', 'es'), null);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectLanguage } from './language-detection.ts';

test('the language of a text, as ISO 639-1, with a confidence', () => {
  const en = detectLanguage(
    'The file could not be opened because another program is using it. Close the other program and try again.',
  );
  assert.equal(en.code, 'en');
  assert.ok(en.confidence > 0 && en.confidence <= 1);
  assert.equal(
    detectLanguage('Die Datei konnte nicht geöffnet werden, weil ein anderes Programm sie verwendet.').code,
    'de',
  );
  assert.equal(
    detectLanguage('ファイルを開けませんでした。別のプログラムが使用しています。もう一度お試しください。')
      .code,
    'ja',
  );
});

test('too little text to tell is undetermined', () => {
  assert.deepEqual(detectLanguage('OK'), { code: 'und', confidence: 0 });
  assert.deepEqual(detectLanguage('12345 67890 %s %d'), { code: 'und', confidence: 0 });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  catalogPluralRule,
  examplesForForm,
  knownPluralRule,
  MAX_PLURAL_FORMS,
  parsePluralForms,
} from './plural-forms.ts';

describe('plural forms', () => {
  it('parses a Plural-Forms header and refuses the template placeholder', () => {
    assert.deepEqual(parsePluralForms('nplurals=2; plural=(n > 1);'), { nplurals: 2, plural: '(n > 1)' });
    assert.equal(parsePluralForms('nplurals=INTEGER; plural=EXPRESSION;'), undefined);
    assert.equal(parsePluralForms('nplurals=2; plural=alert(1);'), undefined);
    assert.equal(parsePluralForms(undefined), undefined);
    // A header declaring more forms than any language has would multiply every plural message's units.
    assert.deepEqual(
      parsePluralForms(`nplurals=${MAX_PLURAL_FORMS}; plural=n%${MAX_PLURAL_FORMS};`)?.nplurals,
      MAX_PLURAL_FORMS,
    );
    assert.equal(
      parsePluralForms(`nplurals=${MAX_PLURAL_FORMS + 1}; plural=n%${MAX_PLURAL_FORMS + 1};`),
      undefined,
    );
    assert.equal(parsePluralForms('nplurals=100000; plural=n%100000;'), undefined);
    assert.equal(
      catalogPluralRule({ Language: 'de', 'Plural-Forms': 'nplurals=100000; plural=n%100000;' }, 'de')
        .nplurals,
      2,
    );
  });

  it('knows regional rules before the language rule', () => {
    assert.equal(knownPluralRule('pt-BR')?.plural, '(n > 1)');
    assert.equal(knownPluralRule('pt_PT')?.plural, '(n != 1)');
    assert.equal(knownPluralRule('zh-Hant')?.nplurals, 1);
    assert.equal(knownPluralRule('tlh'), undefined);
  });

  it("uses the catalog's own rule only when it is a catalog of the target language", () => {
    const headers = { Language: 'sl_SI', 'Plural-Forms': 'nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);' };
    assert.equal(catalogPluralRule(headers, 'sl').nplurals, 3);
    assert.equal(catalogPluralRule(headers, 'de').nplurals, 2);
    assert.equal(catalogPluralRule({ 'Plural-Forms': 'nplurals=3; plural=(n%3);' }, 'tlh').nplurals, 3);
    assert.deepEqual(catalogPluralRule({}, 'tlh'), { nplurals: 2, plural: '(n != 1)' });
  });

  it('lists the counts that select a form', () => {
    const ru = knownPluralRule('ru')!;
    assert.deepEqual(examplesForForm(ru, 0), [1, 21, 31, 41]);
    assert.deepEqual(examplesForForm(ru, 1), [2, 3, 4, 22]);
    assert.deepEqual(examplesForForm(ru, 2), [0, 5, 6, 7]);
    assert.deepEqual(examplesForForm(knownPluralRule('ar')!, 2, 2), [2]);
  });
});

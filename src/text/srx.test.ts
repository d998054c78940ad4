import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { segmentSentences } from './segment.ts';
import { builtInSrx, type SrxRules, srxCuts, srxFor, srxProblems } from './srx.ts';

const sentences = (text: string, lang: string, rules?: SrxRules) =>
  segmentSentences(text, lang, rules).map((s) => text.slice(s.start, s.end));

describe('SRX rules', () => {
  it('the first rule matching at a position decides; no rule, no cut', () => {
    const rules: SrxRules = {
      cascade: false,
      languageRules: [
        {
          name: 'Test',
          rules: [
            { break: false, before: 'Dr\\.', after: '\\s' },
            { break: true, before: '[.!?]', after: '\\s' },
          ],
        },
      ],
      mapRules: [{ pattern: '.*', name: 'Test' }],
    };
    assert.deepEqual(sentences('Dr. Who came. He left; then? Yes', 'en', rules), [
      'Dr. Who came.',
      'He left; then?',
      'Yes',
    ]);
    assert.deepEqual(srxCuts(srxFor(rules, 'en'), 'no cut here'), []);
  });

  it('map rules choose the language rules: cascading in order, or the first only', () => {
    const rules: SrxRules = {
      cascade: true,
      languageRules: [
        { name: 'German', rules: [{ break: false, before: 'z\\.\\s?B\\.', after: '\\s' }] },
        { name: 'Default', rules: [{ break: true, before: '\\.', after: '\\s' }] },
      ],
      mapRules: [
        { pattern: 'de.*', name: 'German' },
        { pattern: '.*', name: 'Default' },
      ],
    };
    assert.deepEqual(sentences('Etwa z.B. Äpfel. Ja.', 'de-AT', rules), ['Etwa z.B. Äpfel.', 'Ja.']);
    assert.deepEqual(sentences('Etwa z.B. Äpfel. Ja.', 'en', rules), ['Etwa z.B.', 'Äpfel.', 'Ja.']);
    assert.deepEqual(sentences('Etwa z.B. Äpfel. Ja.', 'de', { ...rules, cascade: false }), [
      'Etwa z.B. Äpfel. Ja.',
    ]);
  });

  it('the built-in rules written as SRX cut ordinary prose as the built-in engine does', () => {
    const rules = builtInSrx();
    assert.deepEqual(srxProblems(rules), []);
    for (const [text, lang] of [
      ['Dr. Smith came at 10. He left. See p. 5 now.', 'en'],
      ['Der 3. Versuch gelang, z. B. gestern. Dann kam Nr. 4. Ende!', 'de'],
      ['M. Dupont a dit « Bonjour. » Puis il est parti.', 'fr'],
      ['句子一。句子二！「はい。」と答えた。', 'ja'],
      ['Is it over? It is! Good.', 'es'],
    ] as const) {
      assert.deepEqual(sentences(text, lang, rules), sentences(text, lang), `${lang}: ${text}`);
    }
  });

  it('the built-in rules as SRX cut after a run of stops and its closing quotes, before whitespace only', () => {
    const rules = builtInSrx();
    assert.deepEqual(sentences('Wait.... Next one!!! "Really?!" Yes...no. End', 'en', rules), [
      'Wait....',
      'Next one!!!',
      '"Really?!"',
      'Yes...no.',
      'End',
    ]);
    assert.deepEqual(sentences(`Dots${'.'.repeat(5000)}x and more. Done`, 'en', rules).length, 2);
  });

  it('a rule that cuts at every space of a long run gives one cut for the run', () => {
    const rules: SrxRules = {
      cascade: false,
      languageRules: [{ name: 'Spaces', rules: [{ break: true, before: '\\s', after: '' }] }],
      mapRules: [{ pattern: '.*', name: 'Spaces' }],
    };
    assert.deepEqual(sentences('One   two \n three', 'en', rules), ['One', 'two', 'three']);
    const text = `First${' '.repeat(20000)}second`;
    assert.deepEqual(segmentSentences(text, 'en', rules), [
      { start: 0, end: 5 },
      { start: 20005, end: text.length },
    ]);
  });

  it('problems name the rule: limits, expressions JavaScript does not read, unknown names', () => {
    const rules: SrxRules = {
      cascade: false,
      languageRules: [{ name: 'Bad', rules: [{ break: true, before: '(', after: '' }] }],
      mapRules: [{ pattern: '.*', name: 'Missing' }],
    };
    const problems = srxProblems(rules);
    assert.match(problems[0], /language rule "Bad", rule 1: beforebreak is not a regular expression/);
    assert.match(problems[1], /names language rule "Missing", which is not defined/);
    const many: SrxRules = {
      cascade: false,
      languageRules: [{ name: 'Many', rules: Array(2001).fill({ break: true, before: 'a', after: '' }) }],
      mapRules: [],
    };
    assert.match(srxProblems(many)[0], /2001 rules; at most 2000/);
    const long: SrxRules = {
      cascade: false,
      languageRules: [{ name: 'Long', rules: [{ break: true, before: 'a'.repeat(1001), after: '' }] }],
      mapRules: [],
    };
    assert.match(srxProblems(long)[0], /1001 characters long/);
  });
});

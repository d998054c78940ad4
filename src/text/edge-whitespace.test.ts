import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitEdges, splitUnitEdges, withoutEdges } from './edge-whitespace.ts';

describe('segment-edge whitespace', () => {
  it('splits the edges off and keeps what is inside', () => {
    assert.deepEqual(splitEdges('  Usage: app\n  -h  help\n'), {
      lead: '  ',
      core: 'Usage: app\n  -h  help',
      trail: '\n',
    });
    assert.deepEqual(splitEdges('Exiting.'), { lead: '', core: 'Exiting.', trail: '' });
    assert.deepEqual(splitEdges('\u00a0\tA\u3000\r\n'), { lead: '\u00a0\t', core: 'A', trail: '\u3000\r\n' });
    assert.deepEqual(splitEdges(' \n '), { lead: ' \n ', core: '', trail: '' });
    assert.deepEqual(splitEdges(''), { lead: '', core: '', trail: '' });
  });

  it('agrees with String.prototype.trim on every edge character', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      assert.equal(withoutEdges(`${ch}x${ch}`), `${ch}x${ch}`.trim(), `U+${c.toString(16)}`);
    }
  });

  it('leaves tags at the edges alone: only the text outside them is whitespace', () => {
    assert.equal(withoutEdges(' <g id="1"> A </g>\n'), '<g id="1"> A </g>');
  });

  it('in a document unit, a line break or tab written as a tag at an edge is edge whitespace too', () => {
    const tab = '<x id="1" ctype="x-tab"/>';
    const br = '<x id="2" ctype="lb"/>';
    assert.deepEqual(splitUnitEdges(` ${tab} Done.${br}\n`), {
      lead: ` ${tab} `,
      core: 'Done.',
      trail: `${br}\n`,
    });
    assert.deepEqual(splitUnitEdges(`<ph id="1" ctype="lb">&lt;br/&gt;</ph>A`), {
      lead: '<ph id="1" ctype="lb">&lt;br/&gt;</ph>',
      core: 'A',
      trail: '',
    });
    // Inside the text, and tags that are not whitespace, stay; a unit of nothing else keeps them.
    assert.deepEqual(splitUnitEdges(`A${br}B`), { lead: '', core: `A${br}B`, trail: '' });
    assert.deepEqual(splitUnitEdges('<x id="1" ctype="image"/>A'), {
      lead: '',
      core: '<x id="1" ctype="image"/>A',
      trail: '',
    });
    assert.deepEqual(splitUnitEdges(`<g id="1">${br}A</g>`), {
      lead: '',
      core: `<g id="1">${br}A</g>`,
      trail: '',
    });
    assert.deepEqual(splitUnitEdges(` ${br} `), { lead: ' ', core: br, trail: ' ' });
  });
});

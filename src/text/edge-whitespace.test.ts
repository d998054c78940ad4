import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitEdges, withoutEdges } from './edge-whitespace.ts';

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
});

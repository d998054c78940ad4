import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutProblem } from './segment-cut.ts';

describe('where a segment may be cut', () => {
  const tagged = 'Click <g id="1">Save now</g> please.<x id="2"/> Then wait.';
  it('between words, before or after a tag pair, after a standalone tag', () => {
    assert.equal(cutProblem(tagged, tagged.indexOf(' please')), null);
    assert.equal(cutProblem(tagged, tagged.indexOf('<g')), null);
    assert.equal(cutProblem(tagged, tagged.indexOf(' Then')), null);
  });
  it('never inside a tag, between a pair, or leaving a part without text', () => {
    assert.match(cutProblem(tagged, tagged.indexOf('<g') + 3)!, /inside the tag <g id="1">/);
    assert.match(cutProblem(tagged, tagged.indexOf('now'))!, /between <g id="1"> and its closing tag/);
    assert.match(cutProblem(tagged, tagged.indexOf('Save'))!, /between/);
    assert.match(cutProblem(tagged, 0)!, /inside the text/);
    assert.match(cutProblem(tagged, tagged.length)!, /inside the text/);
    assert.match(cutProblem('Text <x id="1"/>', 5)!, /each part must hold text/);
  });
  it('bpt and ept codes pair by their i', () => {
    const codes = 'A <bpt i="1">&lt;b&gt;</bpt>bold<ept i="1">&lt;/b&gt;</ept> word. Next.';
    assert.match(cutProblem(codes, codes.indexOf('bold') + 2)!, /between <bpt/);
    assert.equal(cutProblem(codes, codes.indexOf(' Next')), null);
  });
});

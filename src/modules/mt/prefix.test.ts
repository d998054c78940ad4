import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { completeAfterPrefix, continuesPrefix } from './prefix.ts';

describe('completeAfterPrefix', () => {
  it('keeps a translation that already starts with the prefix, whatever its spacing', () => {
    assert.equal(completeAfterPrefix('La casa', 'La casa roja es pequeña.'), 'La casa roja es pequeña.');
    assert.equal(completeAfterPrefix('La  casa', 'La casa roja.'), 'La casa roja.');
    assert.equal(completeAfterPrefix('', 'La casa.'), 'La casa.');
  });

  it('continues after the word the prefix’s last word replaces', () => {
    assert.equal(
      completeAfterPrefix('El edificio', 'La casa roja es pequeña.'),
      'El edificio roja es pequeña.',
    );
    assert.equal(
      completeAfterPrefix('La vivienda roja', 'La casa roja es pequeña.'),
      'La vivienda roja es pequeña.',
    );
  });

  it('aligns a prefix that drops or adds a word', () => {
    assert.equal(completeAfterPrefix('Casa roja', 'La casa roja es pequeña.'), 'Casa roja es pequeña.');
    assert.equal(
      completeAfterPrefix('La gran casa roja', 'La casa roja es pequeña.'),
      'La gran casa roja es pequeña.',
    );
  });

  it('completes a word still being typed, and keeps a trailing space typed', () => {
    assert.equal(completeAfterPrefix('La casa ro', 'La casa roja es pequeña.'), 'La casa roja es pequeña.');
    assert.equal(completeAfterPrefix('El hogar r', 'La casa roja es pequeña.'), 'El hogar roja es pequeña.');
    assert.equal(completeAfterPrefix('El hogar ', 'La casa roja es pequeña.'), 'El hogar roja es pequeña.');
  });

  it('no punctuation lost or doubled: a prefix of every word ends at the translation’s last mark', () => {
    assert.equal(completeAfterPrefix('La casa es grande', 'La casa es pequeña.'), 'La casa es grande.');
  });

  it('aligns within the translation’s first 2n + 1 words: a far better match later is no cut', () => {
    // Two typed words: aligning to the translation's 6th word or later costs more than aligning to none.
    const far = 'x y z w v la casa es roja';
    assert.equal(completeAfterPrefix('la casa', far), 'la casa z w v la casa es roja');
    assert.equal(completeAfterPrefix('la casa', 'x la casa es roja'), 'la casa es roja');
    // At the API's limit (5,000 characters of prefix, as many words of translation): answered, same reading.
    assert.equal(completeAfterPrefix('.'.repeat(5000), `a${' .'.repeat(5000)}`), '.'.repeat(5000));
  });

  it('moves the tags of the replaced part to where the continuation starts, well nested', () => {
    const completed = completeAfterPrefix('Pulse', 'Haga <g id="1">clic</g> aquí <x id="2"/>.');
    assert.equal(completed, 'Pulse <g id="1">clic</g> aquí <x id="2"/>.');
    const moved = completeAfterPrefix('Pulse el botón', '<g id="1">Haga clic</g> aquí.');
    assert.ok(continuesPrefix(moved, 'Pulse el botón'), moved);
    assert.match(moved, /<g id="1">.*<\/g>/);
  });
});

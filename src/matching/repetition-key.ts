// What makes two segments repetitions of each other: the same source after the normalisation under which the
// scorer calls two texts identical (score.ts: 100 only for texts identical after NFC), inline tags included,
// so that a repetition's confirmed target fits the other's tags as it is. The leverage analysis, the marks
// and filter of the editor, and propagation on confirm all key on this one function.
export function repetitionKey(source: string): string {
  return source.normalize('NFC');
}

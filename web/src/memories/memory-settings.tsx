// A memory's setting of one or several translations per source (docs/MATCHING.md §2.7), as the New memory and
// Memory settings dialogs ask it.
import { useId } from 'react';

/** The checkbox, named multiple_translations in its form; its hint says what either choice does. */
export function MultipleTranslationsField({ defaultChecked }: { defaultChecked: boolean }) {
  const hint = useId();
  return (
    <div className="field">
      <label className="check">
        <input
          type="checkbox"
          name="multiple_translations"
          defaultChecked={defaultChecked}
          aria-describedby={hint}
        />{' '}
        Keep several translations per source
      </label>
      <span id={hint} className="hint">
        Off: a corrected confirmation replaces the entry of its source in that context, and the entry keeps
        its history. On: every different translation is kept as an entry of its own.
      </span>
    </div>
  );
}

// Go to segment (Alt+G): a segment number, found in the list whatever its filter.
import type { FormEvent } from 'react';
import { ModalDialog } from '../../ui/modal-dialog.tsx';

export function GoToDialog({
  open,
  total,
  onGo,
  onClose,
}: {
  open: boolean;
  total: number;
  onGo: (n: number) => void;
  onClose: () => void;
}) {
  return (
    <ModalDialog title="Go to segment" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const n = Number(new FormData(e.currentTarget).get('n'));
          onClose();
          if (n >= 1) onGo(n);
        }}
      >
        <label className="field">
          <span>Segment number</span>
          <input name="n" type="number" min={1} max={total} required autoFocus />
        </label>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary">
            Go
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

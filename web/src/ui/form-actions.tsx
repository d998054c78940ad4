// The foot of a dialog's form, the same everywhere: the server's refusal (if any) as an alert the screen reader
// announces, then Cancel and the submit button, disabled while the request runs.
export function FormActions({
  error,
  onCancel,
  submit,
  busy,
}: {
  error: string | null;
  onCancel: () => void;
  submit: string;
  busy: boolean;
}) {
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {submit}
        </button>
      </div>
    </>
  );
}

// The `?` overlay: every action of the key table with its keys, grouped as the table groups them.
import { ACTIONS, type Action } from '../../keyboard/actions.ts';
import { keysText } from '../../keyboard/shortcut-label.ts';
import { ModalDialog } from '../../ui/modal-dialog.tsx';

export function ShortcutHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const groups = new Map<Action['group'], Action[]>();
  for (const action of ACTIONS) {
    const list = groups.get(action.group) ?? [];
    if (!list.some((a) => a.id === action.id)) list.push(action);
    groups.set(action.group, list);
  }
  return (
    <ModalDialog title="Keyboard shortcuts" open={open} onClose={onClose} wide>
      <div className="shortcut-groups">
        {[...groups].map(([group, actions]) => (
          <section key={group}>
            <h3>{group}</h3>
            <dl className="shortcuts">
              {actions.map((a) => (
                <div key={a.id} className="shortcut">
                  <dt>
                    {keysText(a.id)
                      .split(' or ')
                      .map((k, i) => (
                        <span key={k}>
                          {i > 0 && ' or '}
                          <kbd>{k}</kbd>
                        </span>
                      ))}
                  </dt>
                  <dd>{a.label}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}

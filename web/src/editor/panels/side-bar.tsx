// The editor's side bar ("Translation aids"): the panels of side-panels.tsx that show now, in their order.
import type { PanelContext } from './side-panel.ts';
import { SIDE_PANELS } from './side-panels.tsx';

export function SideBar({ context }: { context: PanelContext }) {
  return (
    <aside className="side" aria-label="Translation aids">
      {SIDE_PANELS.filter((panel) => panel.when?.(context) ?? true).map(({ id, Panel }) => (
        <Panel key={id} context={context} />
      ))}
    </aside>
  );
}

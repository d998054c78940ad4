// What a panel of the editor's side bar is, and what the editor tells every panel: a new panel (terminology,
// machine translation, comments…) is one file exporting a component of PanelProps, and one line in
// side-panels.tsx.
import type { ComponentType } from 'react';
import type { DocumentSegment, MemoryMatch } from '../../api/types.ts';
import type { ActiveText } from '../active-text.ts';
import type { ConcordanceRequest } from '../commands/use-commands.ts';

export interface PanelContext {
  documentId: number;
  /** The project's memory, once the project is read. */
  memoryId: number | undefined;
  /** The active segment, once its page is read. */
  segment: DocumentSegment | undefined;
  /** The active segment's target as it is being typed. */
  text: ActiveText;
  /** What the last command has to say (a tag that found no place, nothing left to confirm…), or null. */
  notice: string | null;
  /** The last concordance search asked from the keyboard. */
  concordance: ConcordanceRequest | null;
  /** Puts a memory match into the target, its tags mapped (what Alt+N does). */
  insertMatch: (match: MemoryMatch) => void;
  /** Puts the machine translation into the target (what Alt+0 does); its tags are the source's already. */
  insertMt: (target: string) => void;
  /** Puts a fuzzy match repaired by MT into the target (what Alt+R does for the first). */
  insertRepair: (target: string) => void;
  /** Puts text at the cursor of the target, in place of its selection (a term of the Terms panel). */
  insertText: (text: string) => void;
  /** A panel changed a segment on the server (a version restored): the editor shows the change. */
  segmentChanged: (segment: DocumentSegment) => void;
  /** Bumped each time the comment key is pressed: the Comments panel focuses its box. */
  commentRequest: number;
  /** Opens "Send back" for the active segment (what its key does); absent where the caller may not send it back. */
  sendBack?: () => void;
  /** Whether the editor is in review mode (docs/EDITOR.md, Review mode). */
  reviewMode: boolean;
}

export interface PanelProps {
  context: PanelContext;
}

export interface SidePanel {
  /** Unique in the side bar: the panel's React key. */
  id: string;
  /** Whether the panel shows now; without it, always. */
  when?: (context: PanelContext) => boolean;
  Panel: ComponentType<PanelProps>;
}

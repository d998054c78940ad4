// What the documents module asks of the projects module, which sits above it (a Project embeds its documents):
// src/app.ts hands the projects service's functions over, so that no import cycle forms.
import type { Queryable } from '../../store/db.ts';
import type { Segmentation } from '../../text/segmentation-modes.ts';

/**
 * What documents ask of the projects they belong to, answered by the projects module's service. Projects sit
 * above documents (a Project embeds its documents), so documents do not import it: app.ts hands it over.
 */
export interface ProjectsOfDocuments {
  /**
   * The organization's project of this id, with the language pair its documents take and how they are
   * segmented (its own rules as SRX JSON, or null).
   */
  findProject(
    db: Queryable,
    id: number,
    organizationId: number,
  ): Promise<
    | {
        id: number;
        srclang: string;
        trglang: string;
        segmentation: Segmentation;
        segmentation_rules: string | null;
        trglocale: string | null;
      }
    | undefined
  >;
  /** The memory of a project: its documents are pre-translated from it and confirm into it. */
  memoryOfProject(db: Queryable, projectId: number): Promise<number | undefined>;
}

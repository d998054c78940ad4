// An organization's engines as the MT engine asks them: each stored row made into a provider of its kind
// (providers/registry.ts) with its secrets opened, kept per row and made again only when the row's version
// changes — a change made through another server process sharing the store is seen at the next call, since
// the rows (a few, one indexed query) are read on every call.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../store/db.ts';
import type { MtProvider } from './provider.ts';
import { createProvider, KINDS, type ProviderKind, type ProviderSettings } from './providers/registry.ts';
import type { SecretBox } from './secret-box.ts';
import { type EngineRow, enginesOf } from './settings-repository.ts';

/** One engine as the MT engine asks it: an organization's row, or the operator's default (id 0). */
export interface EngineSlot {
  /** The row's id; 0 for the operator's default. */
  engineId: number;
  kind: string;
  /** What its suggestions are labelled with, and its usage counted under. */
  label: string;
  /** Pauses are kept per key: a changed row (a fixed key) starts unpaused. */
  pauseKey: string;
  /** The cache's key: the engine and what changes its output (its kind and plain settings, not its secrets). */
  cacheKey: string;
  /** The provider, or null when the row cannot make one (`broken` says why). */
  provider: MtProvider | null;
  broken: string | null;
  monthlyLimit: number | null;
}

/** The context a row's secrets are sealed for: its organization (secret-box.ts). */
export function secretContext(organizationId: number): string {
  return `mt-engine:${organizationId}`;
}

/** A row's plain settings and opened secrets, or null when the secrets cannot be opened with this key. */
export function settingsOfRow(box: SecretBox, row: EngineRow): ProviderSettings | null {
  const plain = JSON.parse(row.settings) as ProviderSettings;
  if (row.secrets === null) return plain;
  const opened = box.open(row.secrets, secretContext(row.organization_id));
  if (opened === null) return null;
  return { ...plain, ...(JSON.parse(opened) as ProviderSettings) };
}

export function isKind(kind: string): kind is ProviderKind {
  return Object.hasOwn(KINDS, kind);
}

/** The provider of a row, or why there is none. Never says anything of the secrets' values. */
export function providerOfRow(
  box: SecretBox,
  row: EngineRow,
): { provider: MtProvider; broken: null } | { provider: null; broken: string } {
  if (!isKind(row.kind))
    return { provider: null, broken: `“${row.label}” is of an unknown kind ${row.kind}` };
  const settings = settingsOfRow(box, row);
  if (settings === null) {
    return {
      provider: null,
      broken: `the stored secrets of “${row.label}” cannot be read (was TESSERA_SECRET_KEY changed?)`,
    };
  }
  try {
    return { provider: createProvider(row.kind, settings), broken: null };
  } catch {
    // The provider's own message might quote a setting: keep to the label.
    return { provider: null, broken: `“${row.label}” cannot be set up from its settings` };
  }
}

function cacheKeyOf(row: EngineRow): string {
  const plain = JSON.parse(row.settings) as ProviderSettings;
  const canonical = JSON.stringify(
    Object.keys(plain)
      .sort()
      .map((k) => [k, plain[k]]),
  );
  const digest = createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
  return `engine:${row.id}:${row.kind}:${digest}`;
}

export class OrganizationEngines {
  private readonly built = new Map<number, { organizationId: number; version: number; slot: EngineSlot }>();

  constructor(private readonly box: SecretBox) {}

  /** The organization's enabled engines, in order. */
  async enabledOf(db: Queryable, organizationId: number): Promise<EngineSlot[]> {
    const rows = await enginesOf(db, organizationId);
    // Rows removed (here or by another process) leave nothing behind.
    const present = new Set(rows.map((r) => r.id));
    for (const [id, known] of this.built) {
      if (known.organizationId === organizationId && !present.has(id)) this.built.delete(id);
    }
    const out: EngineSlot[] = [];
    for (const row of rows) {
      if (row.enabled !== 1) continue;
      const known = this.built.get(row.id);
      if (known && known.version === row.version) {
        out.push(known.slot);
        continue;
      }
      const made = providerOfRow(this.box, row);
      const slot: EngineSlot = {
        engineId: row.id,
        kind: row.kind,
        label: row.label,
        pauseKey: `engine:${row.id}:${row.version}`,
        cacheKey: cacheKeyOf(row),
        provider: made.provider,
        broken: made.broken,
        monthlyLimit: row.monthly_limit,
      };
      this.built.set(row.id, { organizationId, version: row.version, slot });
      out.push(slot);
    }
    return out;
  }
}

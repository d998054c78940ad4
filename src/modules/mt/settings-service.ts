// An organization's machine translation settings, as its admins manage them: its engines (added from the
// kinds of providers/registry.ts, ordered, tested, enabled or not, removed), and the monthly character limits.
// Secret fields are sealed (secret-box.ts) before they are stored and never leave: an answer says which are
// set. The engine (engine.ts) reads the rows at its next call.
import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db, Queryable } from '../../store/db.ts';
import type { MtEngine } from './engine.ts';
import { isKind, providerOfRow, secretContext, settingsOfRow } from './organization-engines.ts';
import { MtFailure } from './provider.ts';
import {
  KINDS,
  type ProviderKind,
  type ProviderKindInfo,
  type ProviderSettings,
} from './providers/registry.ts';
import { monthOf, monthUsageOf } from './repository.ts';
import type { SecretBox } from './secret-box.ts';
import * as repo from './settings-repository.ts';

export interface MtSettingsDeps {
  db: Db;
  mt: MtEngine;
  box: SecretBox;
  /** Milliseconds a test of an engine may take in all. */
  timeoutMs: number;
}

/** A field that holds an address is checked as one here, whatever its kind: the provider reads it later. */
const ADDRESS_FIELD = /url|endpoint/i;

function kindOf(kind: string): ProviderKind {
  if (!isKind(kind)) {
    throw errors.badParameter(
      `Parameter "kind" must be one of ${Object.keys(KINDS).join(', ')}; got "${kind.slice(0, 100)}"`,
    );
  }
  return kind;
}

/**
 * The plain and secret values for a kind from what was sent, over what was stored: unknown fields are
 * refused, an empty or absent secret keeps the stored one, and every required field must end up set.
 */
export function splitSettings(
  info: ProviderKindInfo,
  sent: Record<string, string>,
  stored: { plain: ProviderSettings; secrets: ProviderSettings },
): { plain: ProviderSettings; secrets: ProviderSettings } {
  const byName = new Map(info.fields.map((f) => [f.name, f]));
  for (const name of Object.keys(sent)) {
    if (!byName.has(name)) {
      throw errors.badParameter(
        `Parameter "settings.${name.slice(0, 100)}" is not a field of ${info.label} (its fields: ${info.fields.map((f) => f.name).join(', ')})`,
      );
    }
  }
  const plain: ProviderSettings = {};
  const secrets: ProviderSettings = {};
  for (const field of info.fields) {
    const value = Object.hasOwn(sent, field.name) ? sent[field.name].trim() : undefined;
    if (field.secret) {
      const kept = value ? value : stored.secrets[field.name];
      if (kept) secrets[field.name] = kept;
    } else {
      const kept = value !== undefined ? value : stored.plain[field.name];
      if (kept) plain[field.name] = kept;
    }
    const set = field.secret ? secrets[field.name] : plain[field.name];
    if (field.required && !set) {
      throw errors.badParameter(`Parameter "settings.${field.name}" is required for ${info.label}`);
    }
    if (set && !field.secret && ADDRESS_FIELD.test(field.name) && !isHttpUrl(set)) {
      throw errors.badParameter(
        `Parameter "settings.${field.name}" must be an http:// or https:// address, got "${set.slice(0, 200)}"`,
      );
    }
  }
  return { plain, secrets };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function sealed(deps: MtSettingsDeps, organizationId: number, secrets: ProviderSettings): string | null {
  return Object.keys(secrets).length === 0
    ? null
    : deps.box.seal(JSON.stringify(secrets), secretContext(organizationId));
}

/** A row's stored values split again into plain and secret (the secrets empty when they cannot be opened). */
function storedOf(deps: MtSettingsDeps, row: repo.EngineRow) {
  const plain = JSON.parse(row.settings) as ProviderSettings;
  const all = settingsOfRow(deps.box, row) ?? plain;
  const secrets: ProviderSettings = {};
  for (const [k, v] of Object.entries(all)) if (!Object.hasOwn(plain, k)) secrets[k] = v;
  return { plain, secrets };
}

function answerOf(deps: MtSettingsDeps, row: repo.EngineRow, usedThisMonth: number) {
  const info = isKind(row.kind) ? KINDS[row.kind] : undefined;
  const { plain, secrets } = storedOf(deps, row);
  return {
    id: row.id,
    kind: row.kind,
    kind_label: info?.label ?? row.kind,
    label: row.label,
    position: row.position,
    enabled: row.enabled === 1,
    settings: plain,
    // When the secrets cannot be opened, the row still says it holds some: it has a sealed value.
    secrets_set:
      row.secrets !== null && Object.keys(secrets).length === 0
        ? (info?.fields.filter((f) => f.secret).map((f) => f.name) ?? [])
        : Object.keys(secrets),
    monthly_limit: row.monthly_limit,
    used_this_month: usedThisMonth,
    paused: deps.mt.pausedReason(`engine:${row.id}:${row.version}`, row.label),
    broken: providerOfRow(deps.box, row).broken,
    updated_at: row.updated_at,
  };
}

async function requireEngine(db: Queryable, principal: Principal, id: number) {
  const row = await repo.findEngine(db, principal.organizationId, id);
  if (!row) throw errors.notFound('Machine translation engine', id);
  return row;
}

async function usedOf(deps: MtSettingsDeps, organizationId: number) {
  await deps.mt.flushUsage();
  const month = monthOf(Date.now());
  const usage = await monthUsageOf(deps.db, organizationId, month);
  const byEngine = new Map<number, number>();
  for (const u of usage) byEngine.set(u.engine_id, (byEngine.get(u.engine_id) ?? 0) + u.characters);
  return { month, usage, byEngine, total: usage.reduce((n, u) => n + u.characters, 0) };
}

export async function getEngine(deps: MtSettingsDeps, principal: Principal, id: number) {
  const row = await requireEngine(deps.db, principal, id);
  const { byEngine } = await usedOf(deps, principal.organizationId);
  return answerOf(deps, row, byEngine.get(row.id) ?? 0);
}

export async function listEngines(deps: MtSettingsDeps, principal: Principal) {
  const rows = await repo.enginesOf(deps.db, principal.organizationId);
  const { month, usage, byEngine, total } = await usedOf(deps, principal.organizationId);
  return {
    engines: rows.map((row) => answerOf(deps, row, byEngine.get(row.id) ?? 0)),
    defaults: deps.mt.defaultEngines.map((d) => ({ ...d, paused: deps.mt.pausedReason(d.label) })),
    kinds: Object.values(KINDS).map((k) => ({ kind: k.kind, label: k.label, fields: k.fields })),
    limit: {
      monthly_limit: await repo.organizationLimit(deps.db, principal.organizationId),
      used_this_month: total,
      month,
    },
    usage,
  };
}

export interface CreateEngineInput {
  kind: string;
  label?: string;
  settings?: Record<string, string>;
  enabled?: boolean;
  monthly_limit?: number | null;
}

export async function createEngine(deps: MtSettingsDeps, principal: Principal, input: CreateEngineInput) {
  const kind = kindOf(input.kind);
  const { plain, secrets } = splitSettings(KINDS[kind], input.settings ?? {}, {
    plain: {},
    secrets: {},
  });
  const id = await repo.insertEngine(deps.db, {
    organization_id: principal.organizationId,
    kind,
    label: input.label?.trim() || KINDS[kind].label,
    enabled: input.enabled === false ? 0 : 1,
    settings: JSON.stringify(plain),
    secrets: sealed(deps, principal.organizationId, secrets),
    monthly_limit: input.monthly_limit ?? null,
  });
  return getEngine(deps, principal, id);
}

export async function updateEngine(
  deps: MtSettingsDeps,
  principal: Principal,
  id: number,
  input: Omit<CreateEngineInput, 'kind'>,
) {
  const row = await requireEngine(deps.db, principal, id);
  const kind = kindOf(row.kind);
  const { plain, secrets } = splitSettings(KINDS[kind], input.settings ?? {}, storedOf(deps, row));
  // Secrets that cannot be opened (another key) are kept sealed as they are unless new ones were sent.
  const unreadable = row.secrets !== null && settingsOfRow(deps.box, row) === null;
  const sentSecret = KINDS[kind].fields.some((f) => f.secret && input.settings?.[f.name]?.trim());
  await repo.updateEngine(deps.db, principal.organizationId, id, {
    label: input.label?.trim() || row.label,
    enabled: input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0,
    settings: JSON.stringify(plain),
    secrets: unreadable && !sentSecret ? row.secrets : sealed(deps, principal.organizationId, secrets),
    monthly_limit: input.monthly_limit === undefined ? row.monthly_limit : input.monthly_limit,
  });
  return getEngine(deps, principal, id);
}

export async function deleteEngine(deps: MtSettingsDeps, principal: Principal, id: number) {
  await requireEngine(deps.db, principal, id);
  await repo.deleteEngine(deps.db, principal.organizationId, id);
  return { id, deleted: true };
}

/** Puts the organization's engines in the order given: every one of them, each once. */
export async function orderEngines(deps: MtSettingsDeps, principal: Principal, ids: number[]) {
  const rows = await repo.enginesOf(deps.db, principal.organizationId);
  const known = new Set(rows.map((r) => r.id));
  const foreign = ids.find((id) => !known.has(id));
  if (foreign !== undefined) throw errors.notFound('Machine translation engine', foreign);
  if (new Set(ids).size !== ids.length || ids.length !== rows.length) {
    throw errors.badParameter(
      `Parameter "ids" must name every engine of the organization once (${rows.length}), in the new order`,
    );
  }
  await deps.db.transaction(async (tx) => {
    for (const [i, id] of ids.entries()) await repo.setPosition(tx, principal.organizationId, id, i + 1);
  });
  return listEngines(deps, principal);
}

export async function setLimit(deps: MtSettingsDeps, principal: Principal, limit: number | null) {
  await repo.setOrganizationLimit(deps.db, principal.organizationId, limit);
  return (await listEngines(deps, principal)).limit;
}

const SAMPLE = 'The house is small.';

/**
 * Asks an engine for its pairs and translates a short sample, under the engine timeout: whether the stored
 * settings work. The answer never quotes a secret: a provider's message that holds one has it cut out.
 */
export async function testEngine(deps: MtSettingsDeps, principal: Principal, id: number) {
  const row = await requireEngine(deps.db, principal, id);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const made = providerOfRow(deps.box, row);
  if (!made.provider) return { ok: false, pairs: 0, error: made.broken, elapsed_ms: elapsed() };
  const secrets = Object.values(storedOf(deps, row).secrets).filter((s) => s.length >= 4);
  const clean = (message: string) => secrets.reduce((m, s) => m.split(s).join('[secret]'), message);
  const signal = AbortSignal.timeout(deps.timeoutMs);
  let pairs: { source: string; target: string }[] = [];
  try {
    pairs = await made.provider.languages(signal);
    const pair = pairs.find((p) => p.source.split('-')[0] === 'en') ??
      pairs[0] ?? { source: 'en', target: 'de' };
    const [translation] = await made.provider.translate([SAMPLE], pair.source, pair.target, signal);
    return {
      ok: true,
      pairs: pairs.length,
      sample: { source_lang: pair.source, target_lang: pair.target, source: SAMPLE, translation },
      error: null,
      elapsed_ms: elapsed(),
    };
  } catch (err) {
    const message = signal.aborted
      ? `${row.label} did not answer within ${deps.timeoutMs} ms`
      : err instanceof MtFailure
        ? err.message
        : `${row.label} failed: ${(err as Error).message}`;
    return { ok: false, pairs: pairs.length, error: clean(message), elapsed_ms: elapsed() };
  }
}

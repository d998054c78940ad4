// The bench's one table: figure | Tessera | brute force | target | met?, printed and written as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import type { Percentiles } from './engine-bench.ts';

/** A target: the figure must be at least, at most or exactly `value`. */
export interface Target {
  op: '>=' | '<=' | '==';
  value: number;
}

export interface Row {
  figure: string;
  /** The measured figure; null when it could not be measured (see `note`). */
  value: number | null;
  unit: string;
  /** The brute-force scan's figure, where the comparison means something. */
  bruteForce?: number | null;
  target?: Target;
  /** Shown instead of a number target (a target that is a judgement, like "bounded"). */
  targetText?: string;
  /** For targetText rows: the judgement, made where the figure was measured. */
  metText?: 'yes' | 'no';
  note?: string;
}

export interface Machine {
  cores: number;
  cpu: string;
  node: string;
  platform: string;
  /** 1-minute load average when the bench started and ended: other work on the machine skews latencies. */
  load: [number, number];
}

export function machine(loadAtStart: number): Machine {
  const list = cpus();
  return {
    cores: list.length,
    cpu: list[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    load: [loadAtStart, loadavg()[0]],
  };
}

/** Nearest-rank percentiles (as bench/engine-bench.ts computes them, so the two compare). */
export function percentiles(ms: readonly number[]): Percentiles {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

export function met(row: Row): 'yes' | 'no' | '' {
  if (row.metText) return row.metText;
  if (!row.target || row.value === null) return '';
  const { op, value } = row.target;
  const ok = op === '>=' ? row.value >= value : op === '<=' ? row.value <= value : row.value === value;
  return ok ? 'yes' : 'no';
}

function formatNumber(x: number): string {
  const abs = Math.abs(x);
  if (abs >= 1000) return Math.round(x).toLocaleString('en-US');
  if (abs >= 100) return x.toFixed(0);
  if (abs >= 10) return x.toFixed(1);
  if (abs >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

function withUnit(x: number | null | undefined, unit: string): string {
  if (x === null || x === undefined) return '';
  if (unit === '%') return `${formatNumber(x)} %`;
  return unit ? `${formatNumber(x)} ${unit}` : formatNumber(x);
}

function targetText(row: Row): string {
  if (row.targetText) return row.targetText;
  if (!row.target) return '';
  const op = row.target.op === '>=' ? '≥' : row.target.op === '<=' ? '≤' : '=';
  return `${op} ${withUnit(row.target.value, row.unit)}`;
}

/** The table as text lines, with the machine line first and notes after. */
export function formatTable(rows: readonly Row[], m: Machine, heading: string): string {
  const cells = rows.map((r) => [
    r.figure,
    r.value === null ? 'n/a' : withUnit(r.value, r.unit),
    withUnit(r.bruteForce, r.unit),
    targetText(r),
    met(r),
  ]);
  const header = ['figure', 'Tessera', 'brute force', 'target', 'met?'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join(' | ');
  const notes = rows.filter((r) => r.note).map((r) => `  ${r.figure}: ${r.note}`);
  return [
    heading,
    `machine: ${m.cores} cores (${m.cpu}), Node ${m.node}, ${m.platform}; load average ${m.load[0].toFixed(2)} at start, ${m.load[1].toFixed(2)} at end`,
    '',
    line(header),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...cells.map(line),
    ...(notes.length ? ['', 'notes:', ...notes] : []),
  ].join('\n');
}

/** The same rows as JSON, with each row's verdict, and whatever detail the sections measured. */
export function writeResults(
  file: string,
  rows: readonly Row[],
  m: Machine,
  extra: Record<string, unknown>,
): void {
  mkdirSync(dirname(file), { recursive: true });
  const json = {
    machine: m,
    ...extra,
    rows: rows.map((r) => ({
      figure: r.figure,
      value: r.value,
      unit: r.unit,
      brute_force: r.bruteForce ?? null,
      target: r.target ? { op: r.target.op, value: r.target.value } : (r.targetText ?? null),
      met: met(r) || null,
      note: r.note ?? null,
    })),
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

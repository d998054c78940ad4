#!/usr/bin/env node
// What holds the event loop: reads a V8 CPU profile (node --cpu-prof) and lists every stretch of busy
// samples longer than a threshold (the event loop gave nothing else a turn meanwhile, as far as samples
// tell), with the frames that took its time. Used to find why /healthz waits behind a job.
//   node scripts/long-tasks.mjs PROFILE.cpuprofile [min-ms=30] [frames=8]
import { readFileSync } from 'node:fs';

const [file, minArg = '30', framesArg = '8'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/long-tasks.mjs PROFILE.cpuprofile [min-ms] [frames]');
  process.exit(2);
}
const minMs = Number(minArg);
const topFrames = Number(framesArg);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const label = (n) => {
  const f = n.callFrame;
  const where = f.url ? `${f.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
};
const idle = (id) => {
  const name = byId.get(id).callFrame.functionName;
  return name === '(idle)' || name === '(program)';
};

/** Every frame on the sample's stack, innermost first. */
function stack(id) {
  const out = [];
  for (let at = id; at !== undefined; at = parent.get(at)) out.push(at);
  return out;
}

const stretches = [];
let t = profile.startTime;
let current = null;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  const id = profile.samples[i];
  const dt = profile.timeDeltas[i + 1] ?? 0;
  if (idle(id)) {
    if (current && current.ms >= minMs) stretches.push(current);
    current = null;
    continue;
  }
  // A task's samples share their outermost frame (processImmediate, listOnTimeout, an I/O callback...):
  // where it changes, the event loop has turned.
  const frames = stack(id);
  const root = label(byId.get(frames[Math.max(0, frames.length - 2)]));
  if (current && current.root !== root) {
    if (current.ms >= minMs) stretches.push(current);
    current = null;
  }
  current ??= { start: t, ms: 0, root, self: new Map(), inclusive: new Map() };
  current.ms += dt / 1000;
  const selfLabel = label(byId.get(frames[0]));
  current.self.set(selfLabel, (current.self.get(selfLabel) ?? 0) + dt / 1000);
  for (const f of new Set(frames.map((x) => label(byId.get(x))))) {
    current.inclusive.set(f, (current.inclusive.get(f) ?? 0) + dt / 1000);
  }
}
if (current && current.ms >= minMs) stretches.push(current);

const top = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topFrames)
    .map(([k, v]) => `    ${v.toFixed(1).padStart(7)} ms  ${k}`)
    .join('\n');
console.log(`${stretches.length} busy stretches of ${minMs} ms or more`);
for (const s of stretches.sort((a, b) => b.ms - a.ms).slice(0, 15)) {
  console.log(
    `\n${s.ms.toFixed(1)} ms at +${((s.start - profile.startTime) / 1e6).toFixed(2)} s in ${s.root}`,
  );
  console.log('  self:');
  console.log(top(s.self));
  console.log('  inclusive (deepest application frames matter most):');
  console.log(
    top(
      new Map(
        [...s.inclusive].filter(
          ([k]) => k.includes('src/') || k.includes('node_modules/') || k.includes('(garbage'),
        ),
      ),
    ),
  );
}

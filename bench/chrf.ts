// The two distances the repair section measures a suggestion by against the reference translation.

/** Levenshtein distance over code points: the characters a translator would type or delete. */
export function charEditDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  if (x.length === 0) return y.length;
  let prev = new Int32Array(y.length + 1);
  let cur = new Int32Array(y.length + 1);
  for (let j = 0; j <= y.length; j++) prev[j] = j;
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length];
}

function ngrams(chars: string[], n: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + n <= chars.length; i++) {
    const g = chars.slice(i, i + n).join('');
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

/**
 * Sentence-level chrF (Popović 2015) as sacrebleu computes it by default: character n-grams of orders 1 to
 * 6, whitespace removed, β = 2, the F-score of each order averaged over the orders both texts have n-grams
 * of; 0–100.
 */
export function chrF(hypothesis: string, reference: string, maxOrder = 6, beta = 2): number {
  const h = [...hypothesis.replace(/\s+/gu, '')];
  const r = [...reference.replace(/\s+/gu, '')];
  if (h.length === 0 && r.length === 0) return 100;
  const factor = beta * beta;
  let sum = 0;
  let orders = 0;
  for (let n = 1; n <= maxOrder; n++) {
    const hg = ngrams(h, n);
    const rg = ngrams(r, n);
    const hTotal = Math.max(0, h.length - n + 1);
    const rTotal = Math.max(0, r.length - n + 1);
    if (hTotal === 0 || rTotal === 0) continue;
    let match = 0;
    for (const [g, count] of hg) match += Math.min(count, rg.get(g) ?? 0);
    const precision = match / hTotal;
    const recall = match / rTotal;
    const denominator = factor * precision + recall;
    sum += denominator > 0 ? ((1 + factor) * precision * recall) / denominator : 0;
    orders++;
  }
  return orders === 0 ? 0 : (100 * sum) / orders;
}

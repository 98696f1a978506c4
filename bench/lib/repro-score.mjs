// The reproduced benchmark's scoring (bench/explain-repro.mjs), apart so that it is tested: rows of
// { label, secondary?, first (the first cause, undefined for none), top3 } in, figures out.
/**
 * Per-class precision/recall/F1 of the first cause; macro-F1 over the labels present; top-3; "nothing"; the
 * confusion matrix (rows: labels; columns: the labels, then other causes named, then 'none').
 */
export function scoreRows(rows) {
  const labels = [...new Set(rows.map((r) => r.label))].sort();
  const predicted = [...new Set(rows.map((r) => r.first ?? 'none'))].filter((p) => !labels.includes(p)).sort();
  const cols = [...labels, ...predicted.filter((p) => p !== 'none'), 'none'];
  const matrix = Object.fromEntries(labels.map((l) => [l, Object.fromEntries(cols.map((c) => [c, 0]))]));
  for (const r of rows) matrix[r.label][r.first ?? 'none']++;
  const perClass = {};
  for (const l of labels) {
    const tp = matrix[l][l];
    const support = Object.values(matrix[l]).reduce((a, v) => a + v, 0);
    const predictedAs = labels.reduce((a, x) => a + matrix[x][l], 0);
    const precision = predictedAs === 0 ? 0 : tp / predictedAs;
    const recall = support === 0 ? 0 : tp / support;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    const top3 = rows.filter((r) => r.label === l && r.top3.includes(l)).length / support;
    perClass[l] = { support, precision, recall, f1, top3 };
  }
  const n = rows.length;
  const macroF1 = labels.reduce((a, l) => a + perClass[l].f1, 0) / Math.max(1, labels.length);
  const accuracy = rows.filter((r) => r.first === r.label).length / Math.max(1, n);
  const top3 = rows.filter((r) => r.top3.includes(r.label)).length / Math.max(1, n);
  const nothing = rows.filter((r) => r.first === undefined).length / Math.max(1, n);
  // where a log cannot tell two causes apart (a sidecar's `secondary`), the first cause naming either
  const lenient =
    rows.filter((r) => r.first === r.label || (r.secondary && r.first === r.secondary)).length / Math.max(1, n);
  return { n, classes: labels.length, macroF1, accuracy, lenient, top3, nothing, perClass, columns: cols, matrix };
}

// `fleet --html FILE`: one self-contained page (inline CSS, no scripts, no network). Every value comes from
// snapshot files that anyone on the fleet could have written, so every value is escaped.
import type { FleetResult } from './merge.js';

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const e = escapeHtml;
const shown = (v: string | null) => (v === null ? '<em>(not set)</em>' : e(v));
/** Machine lists can hold thousands of names: the first ones shown, all in a <details>. */
function machines(names: readonly string[]): string {
  if (names.length <= 10) return e(names.join(', '));
  return `${e(names.slice(0, 10).join(', '))} <details><summary>all ${names.length}</summary>${e(names.join(', '))}</details>`;
}

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1b1b1b;max-width:1200px}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f4}code{font-family:ui-monospace,monospace;font-size:.95em}
.critical,.error{color:#b00020;font-weight:600}.high,.warn{color:#a15c00;font-weight:600}.medium,.low,.info{color:#555}
.n{text-align:right;white-space:nowrap}details{display:inline}`;

export function renderFleetHtml(r: FleetResult, o: { generatedAt: string; tool: string }): string {
  const out: string[] = [];
  out.push('<!doctype html>', '<html lang="en"><head><meta charset="utf-8">', `<title>Fleet: ${r.machines} machines</title>`);
  out.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  out.push(`<style>${CSS}</style></head><body>`);
  out.push(`<h1>Fleet: ${r.machines} machines</h1>`);
  out.push(`<p>${r.inputs.files} files read, ${r.inputs.skipped.length} skipped · ${r.groups.length} configurations · ${r.outliers.length} outliers · generated ${e(o.generatedAt)} by ${e(o.tool)}</p>`);
  if (r.inputs.skipped.length > 0) {
    out.push('<h2>Skipped files</h2><table><tr><th>file</th><th>why</th></tr>');
    for (const s of r.inputs.skipped) out.push(`<tr><td><code>${e(s.file)}</code></td><td>${e(s.reason)}</td></tr>`);
    out.push('</table>');
  }

  out.push('<h2>Configurations</h2><table><tr><th class="n">machines</th><th>configuration</th><th>which</th></tr>');
  for (const g of r.groups) out.push(`<tr><td class="n">${g.size}</td><td>${e(g.key)}</td><td>${machines(g.machines)}</td></tr>`);
  out.push('</table>');

  out.push('<h2>Outliers</h2>');
  if (r.outliers.length === 0) out.push('<p>None: every machine has the fleet\'s usual value of every fact.</p>');
  else {
    out.push('<table><tr><th>machine</th><th>impact</th><th>fact</th><th>value</th><th>usual</th></tr>');
    for (const m of r.outliers) {
      m.differs.forEach((d, i) => {
        const first = i === 0 ? `<td rowspan="${m.differs.length}"><code>${e(m.machine)}</code></td>` : '';
        out.push(`<tr>${first}<td class="${d.impact}">${d.impact}</td><td><code>${e(d.fact)}</code></td><td>${shown(d.value)}</td><td>${shown(d.usual)}</td></tr>`);
      });
    }
    out.push('</table>');
  }

  if (r.splits.length > 0) {
    out.push('<h2>Split facts</h2><p>No value is held by two thirds of the fleet.</p><table><tr><th>fact</th><th>values (machines)</th></tr>');
    for (const s of r.splits) out.push(`<tr><td><code>${e(s.fact)}</code></td><td>${s.values.map((v) => `${shown(v.value)} (${v.machines})`).join('<br>')}</td></tr>`);
    out.push('</table>');
  }

  out.push('<h2>Findings across the fleet</h2>');
  if (r.findings.length === 0) out.push('<p>No check reported a problem on any machine.</p>');
  else {
    out.push('<table><tr><th>severity</th><th>check</th><th class="n">machines</th><th>message</th><th>which</th></tr>');
    for (const f of r.findings) {
      out.push(`<tr><td class="${f.severity}">${f.severity}</td><td><code>${e(f.check)}</code></td><td class="n">${f.count}</td><td>${e(f.message)}</td><td>${machines(f.machines)}</td></tr>`);
    }
    out.push('</table>');
  }
  out.push('</body></html>');
  return `${out.join('\n')}\n`;
}

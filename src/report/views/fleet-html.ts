// `fleet --html FILE`: one self-contained page (inline CSS, no scripts, no network). Every value comes from
// snapshot files that anyone on the fleet could have written, so every value is escaped.
import type { FleetResult } from '../../judge/fleet/merge.js';
import { getLang, t } from '../../base/i18n/index.js';

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const e = escapeHtml;
const shown = (v: string | null) => (v === null ? `<em>${t('fleet.html.notSet')}</em>` : e(v));
/** Machine lists can hold thousands of names: the first ones shown, all in a <details>. */
function machines(names: readonly string[]): string {
  if (names.length <= 10) return e(names.join(', '));
  return `${e(names.slice(0, 10).join(', '))} <details><summary>${t('fleet.html.all', { n: names.length })}</summary>${e(names.join(', '))}</details>`;
}

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1b1b1b;max-width:1200px}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f4}code{font-family:ui-monospace,monospace;font-size:.95em}
.critical,.error{color:#b00020;font-weight:600}.high,.warn{color:#a15c00;font-weight:600}.medium,.low,.info{color:#555}
.n{text-align:right;white-space:nowrap}details{display:inline}
td{overflow-wrap:anywhere}
@media (max-width:640px){body{margin:1em}table,tbody,tr,td,th{display:block;width:auto}tr:first-child{display:none}td{border:0;border-bottom:1px solid #ddd;padding:2px 0}tr{border:1px solid #ddd;margin:0 0 8px;padding:6px}}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}h2,td,th,tr{border-color:#30363d}th{background:#161b22}.medium,.low,.info{color:#9198a1}.critical,.error{color:#ff7b72}.high,.warn{color:#e3b341}}`;

export function renderFleetHtml(r: FleetResult, o: { generatedAt: string; tool: string }): string {
  const out: string[] = [];
  out.push(
    '<!doctype html>',
    `<html lang="${getLang() === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${t('fleet.html.title', { n: r.machines })}</title>`,
  );
  out.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  out.push(`<style>${CSS}</style></head><body>`);
  out.push(`<h1>${t('fleet.html.title', { n: r.machines })}</h1>`);
  out.push(
    `<p>${t('fleet.html.meta', { files: r.inputs.files, skipped: r.inputs.skipped.length, groups: r.groups.length, outliers: r.outliers.length, at: e(o.generatedAt), tool: e(o.tool) })}</p>`,
  );
  if (r.inputs.skipped.length > 0) {
    out.push(
      `<h2>${t('fleet.html.skippedFiles')}</h2><table><tr><th>${t('fleet.html.file')}</th><th>${t('fleet.html.why')}</th></tr>`,
    );
    for (const s of r.inputs.skipped) out.push(`<tr><td><code>${e(s.file)}</code></td><td>${e(s.reason)}</td></tr>`);
    out.push('</table>');
  }

  out.push(
    `<h2>${t('fleet.html.configurations')}</h2><table><tr><th class="n">${t('fleet.html.machines')}</th><th>${t('fleet.html.configuration')}</th><th>${t('fleet.html.which')}</th></tr>`,
  );
  for (const g of r.groups)
    out.push(`<tr><td class="n">${g.size}</td><td>${e(g.key)}</td><td>${machines(g.machines)}</td></tr>`);
  out.push('</table>');

  out.push(`<h2>${t('fleet.html.outliers')}</h2>`);
  if (r.outliers.length === 0) out.push(`<p>${t('fleet.html.noOutliers')}</p>`);
  else {
    out.push(
      `<table><tr><th>${t('fleet.html.machine')}</th><th>${t('fleet.html.impact')}</th><th>${t('fleet.html.fact')}</th><th>${t('fleet.html.value')}</th><th>${t('fleet.html.usual')}</th></tr>`,
    );
    for (const m of r.outliers) {
      m.differs.forEach((d, i) => {
        const first = i === 0 ? `<td rowspan="${m.differs.length}"><code>${e(m.machine)}</code></td>` : '';
        out.push(
          `<tr>${first}<td class="${d.impact}">${t(`diff.impact.${d.impact}`)}</td><td><code>${e(d.fact)}</code></td><td>${shown(d.value)}</td><td>${shown(d.usual)}</td></tr>`,
        );
      });
    }
    out.push('</table>');
  }

  if (r.splits.length > 0) {
    out.push(
      `<h2>${t('fleet.html.splits')}</h2><p>${t('fleet.html.splitsNote')}</p><table><tr><th>${t('fleet.html.fact')}</th><th>${t('fleet.html.values')}</th></tr>`,
    );
    for (const s of r.splits)
      out.push(
        `<tr><td><code>${e(s.fact)}</code></td><td>${s.values.map((v) => `${shown(v.value)} (${v.machines})`).join('<br>')}</td></tr>`,
      );
    out.push('</table>');
  }

  out.push(`<h2>${t('fleet.html.findings')}</h2>`);
  if (r.findings.length === 0) out.push(`<p>${t('fleet.html.noFindings')}</p>`);
  else {
    out.push(
      `<table><tr><th>${t('fleet.html.severity')}</th><th>${t('fleet.html.check')}</th><th class="n">${t('fleet.html.machines')}</th><th>${t('fleet.html.message')}</th><th>${t('fleet.html.which')}</th></tr>`,
    );
    for (const f of r.findings) {
      out.push(
        `<tr><td class="${f.severity}">${t(`severity.${f.severity}`)}</td><td><code>${e(f.check)}</code></td><td class="n">${f.count}</td><td>${e(f.message)}</td><td>${machines(f.machines)}</td></tr>`,
      );
    }
    out.push('</table>');
  }
  out.push('</body></html>');
  return `${out.join('\n')}\n`;
}

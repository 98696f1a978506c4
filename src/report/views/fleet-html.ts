// `fleet --html FILE`: one self-contained page (inline CSS, no scripts, no network). Every value comes from
// snapshot files that anyone on the fleet could have written, so every value is escaped.
import type { FleetResult } from '../../judge/fleet/merge.js';
import type { Words } from '../../base/i18n/words.js';
import { CSS } from '../html/style.js';

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const e = escapeHtml;
const shown = (words: Words, v: string | null) => (v === null ? `<em>${words.t('fleet.html.notSet')}</em>` : e(v));
/** Machine lists can hold thousands of names: the first ones shown, all in a <details>. */
function machines(words: Words, names: readonly string[]): string {
  if (names.length <= 10) return e(names.join(', '));
  return (
    `${e(names.slice(0, 10).join(', '))} ` +
    `<details><summary>${words.t('fleet.html.all', { n: names.length })}</summary>${e(names.join(', '))}</details>`
  );
}

// The other reports' stylesheet (light, dark, phone, print), and on a phone each table row as a card of
// labelled cells: a fleet table has up to five columns of long values, which no phone shows side by side.
const FLEET_CSS =
  `${CSS}
td.n,th.n{text-align:right;white-space:nowrap}details{display:inline}
table.stack td{overflow-wrap:anywhere}
@media (max-width:640px){table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:auto}
table.stack thead{display:none}table.stack tr{border:1px solid var(--line);border-radius:6px;margin:0 0 .5rem;` +
  `padding:.3rem .5rem}
table.stack td{border:0;padding:.1rem 0;text-align:left}table.stack td[data-label]::before{content:attr(data-label) ` +
  `": ";color:var(--muted)}}
.impact-critical{color:var(--fail);font-weight:600}.impact-high{color:var(--warn);font-weight:600}.impact-medium,` +
  `.impact-low,.impact-noise{color:var(--muted)}`;

/** a severity as the other reports show it: the mark, its word as the title */
function severityMark(words: Words, sev: string): string {
  const m = sev === 'error' ? 'fail' : sev === 'warn' ? 'warn' : 'ok';
  const symbol = m === 'fail' ? '✗' : m === 'warn' ? '!' : 'i';
  return `<span class="mark ${m}" title="${e(words.t(`mark.${m}`))}">${symbol}</span> ${e(words.t(`mark.${m}`))}`;
}

/** a table that becomes cards on a phone: the header row, then rows of cells labelled by their column */
function table(head: readonly { label: string; n?: boolean }[], rows: readonly string[][]): string {
  const th = head.map((h) => `<th${h.n ? ' class="n"' : ''}>${h.label}</th>`).join('');
  const body = rows
    .map(
      (r) =>
        `<tr>${r
          .map(
            (cell, i) =>
              `<td ` + `data-label="${e(stripTags(head[i]!.label))}"${head[i]!.n ? ' class="n"' : ''}>${cell}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('\n');
  return (
    `<div class="table-wrap"><table ` +
    `class="stack"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></div>`
  );
}

function stripTags(s: string): string {
  return s.replace(/<[^>]*>/g, '');
}

export function renderFleetHtml(words: Words, r: FleetResult, o: { generatedAt: string; tool: string }): string {
  const out: string[] = [];
  const errors = r.findings.filter((f) => f.severity === 'error').length;
  const warnings = r.findings.filter((f) => f.severity === 'warn').length;
  const verdict = errors > 0 ? 'fail' : warnings > 0 || r.outliers.length > 0 ? 'warn' : 'ok';
  out.push(
    '<!DOCTYPE html>',
    `<html lang="${words.lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${words.t('fleet.html.title', { n: r.machines })}</title>`,
    `<style>${FLEET_CSS}</style></head><body>`,
    '<header>',
    `<h1>${words.t('fleet.html.title', { n: r.machines })}</h1>`,
    `<p ` +
      (`class="meta">` +
        words.t('fleet.html.meta', {
          files: r.inputs.files,
          skipped: r.inputs.skipped.length,
          groups: r.groups.length,
          outliers: r.outliers.length,
          at: e(o.generatedAt),
          tool: e(o.tool),
        }) +
        `</p>`),
    `<p class="verdict ${verdict}" ` +
      (`id="verdict">` +
        e(
          words.t('fleet.summary', {
            machines: r.machines,
            groups: r.groups.length,
            outliers: r.outliers.length,
            errors,
            skipped: r.inputs.skipped.length,
          }),
        ) +
        `</p>`),
    '</header>',
  );
  if (r.inputs.skipped.length > 0) {
    out.push(`<section id="skipped"><h2>${words.t('fleet.html.skippedFiles')}</h2>`);
    out.push(
      table(
        [{ label: words.t('fleet.html.file') }, { label: words.t('fleet.html.why') }],
        r.inputs.skipped.map((s) => [`<code>${e(s.file)}</code>`, e(s.reason)]),
      ),
      '</section>',
    );
  }

  out.push(`<section id="configurations"><h2>${words.t('fleet.html.configurations')}</h2>`);
  out.push(
    table(
      [
        { label: words.t('fleet.html.machines'), n: true },
        { label: words.t('fleet.html.configuration') },
        { label: words.t('fleet.html.which') },
      ],
      r.groups.map((g) => [String(g.size), e(g.key), machines(words, g.machines)]),
    ),
    '</section>',
  );

  out.push(`<section id="outliers"><h2>${words.t('fleet.html.outliers')}</h2>`);
  if (r.outliers.length === 0) out.push(`<p>${words.t('fleet.html.noOutliers')}</p>`);
  else
    out.push(
      table(
        [
          { label: words.t('fleet.html.machine') },
          { label: words.t('fleet.html.impact') },
          { label: words.t('fleet.html.fact') },
          { label: words.t('fleet.html.value') },
          { label: words.t('fleet.html.usual') },
        ],
        r.outliers.flatMap((m) =>
          m.differs.map((d) => [
            `<code>${e(m.machine)}</code>`,
            `<span class="impact-${d.impact}">${words.t(`diff.impact.${d.impact}`)}</span>`,
            `<code>${e(d.fact)}</code>`,
            shown(words, d.value),
            shown(words, d.usual),
          ]),
        ),
      ),
    );
  out.push('</section>');

  if (r.splits.length > 0) {
    out.push(
      `<section id="splits"><h2>${words.t('fleet.html.splits')}</h2><p ` +
        `class="meta">${words.t('fleet.html.splitsNote')}</p>`,
    );
    out.push(
      table(
        [{ label: words.t('fleet.html.fact') }, { label: words.t('fleet.html.values') }],
        r.splits.map((s) => [
          `<code>${e(s.fact)}</code>`,
          s.values.map((v) => `${shown(words, v.value)} (${v.machines})`).join('<br>'),
        ]),
      ),
      '</section>',
    );
  }

  out.push(`<section id="findings"><h2>${words.t('fleet.html.findings')}</h2>`);
  if (r.findings.length === 0) out.push(`<p><span class="mark ok">✓</span> ${words.t('fleet.html.noFindings')}</p>`);
  else
    out.push(
      table(
        [
          { label: words.t('fleet.html.severity') },
          { label: words.t('fleet.html.check') },
          { label: words.t('fleet.html.machines'), n: true },
          { label: words.t('fleet.html.message') },
          { label: words.t('fleet.html.which') },
        ],
        r.findings.map((f) => [
          severityMark(words, f.severity),
          `<code>${e(f.check)}</code>`,
          String(f.count),
          e(f.message),
          machines(words, f.machines),
        ]),
      ),
    );
  out.push('</section>');
  out.push(`<footer class="meta">${e(o.tool)} · ${words.t('fleet.html.selfContained')}</footer>`);
  out.push('</body></html>');
  return `${out.join('\n')}\n`;
}

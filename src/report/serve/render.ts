// The live page as HTML: the whole page (a complete static page that reloads itself when scripts are off),
// and the two parts the event stream replaces (#status and #main). Pure, from the page model. Every value
// goes through esc(); the only script is client.ts, allowed by its hash; there are no inline handlers and no
// style attributes, so the Content-Security-Policy can forbid both.
import { fmtMiB } from '../../base/format.js';
import type { Words } from '../../base/i18n/words.js';
import { esc, num } from '../html/escape.js';
import { CSS } from '../html/style.js';
import { CLIENT_JS } from './client.js';
import { timeUnits as TIME_UNITS } from './model.js';
import { DEFAULT_HISTORY, type HistoryPoint } from './history.js';
import {
  agoText,
  clock,
  secs,
  verdictWord,
  type FindingItem,
  type GpuView,
  type PageModel,
  type ProcView,
} from './model.js';

export interface RenderOptions {
  now: number;
  /** "" or "?token=…" (already URL-encoded): appended to the page's own links and its event stream */
  query: string;
  /** without scripts the page reloads itself every this many seconds */
  refreshS: number;
  tool: string;
  historyWindowMs: number;
}

const SERVE_CSS =
  `
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:.2rem 1rem}
header h1{flex:1 1 auto}
.status{margin:.3rem 0;padding:.45rem .7rem;border-radius:6px;background:var(--card);border-left:5px solid var(--muted)}
.status.ok{border-color:var(--ok)}.status.waiting{border-color:var(--unk)}.status.hanging,` +
  `.status.failed{border-color:var(--fail);font-weight:600}
.conn{margin:.3rem 0;font-size:.85rem}.conn.warn{color:var(--warn)}.conn.fail{color:var(--fail);font-weight:600}
.gpu{border:1px solid var(--line);border-radius:8px;padding:.6rem .8rem;margin:.9rem 0}
.gpu h2{margin:0 0 .3rem;border:0;padding:0;display:flex;flex-wrap:wrap;gap:.1rem .8rem;align-items:baseline}
.gpu h2 .sub{font-weight:400;font-size:.9rem;color:var(--muted)}
.badge{display:inline-block;font-size:.78rem;font-weight:600;padding:.05rem .45rem;border-radius:999px;border:1px ` +
  `solid var(--line)}
.badge.free{color:var(--ok);border-color:var(--ok)}.badge.busy{color:var(--muted)}
svg.bar{height:1.9rem}
svg.bar rect{stroke:var(--bg);stroke-width:2px;vector-effect:non-scaling-stroke}
.g-stale{fill:var(--fail);background:var(--fail)}.g-stale.s1{fill:#e5534b;background:#e5534b}
.g-active{fill:var(--job);background:var(--job)}.g-active.s1{fill:#4493f8;background:#4493f8}
.g-other{fill:var(--o0);background:var(--o0)}.g-other.s1{fill:var(--o4);background:var(--o4)}
.g-invisible{fill:var(--o3);background:var(--o3)}.g-invisible.s1{fill:var(--o1);background:var(--o1)}
.g-unknown{fill:var(--unk);background:var(--unk)}.g-unknown.s1{fill:var(--o2);background:var(--o2)}
.g-unattributed{fill:var(--un);background:var(--un)}.g-free{fill:var(--free);background:var(--free)}
td .sw{margin-right:.2rem}
table.procs th,table.procs td.nw{white-space:nowrap}
table.procs td.cmd{min-width:12rem}
.verdict-stale{color:var(--fail);font-weight:600}.verdict-other,.verdict-invisible{color:var(--warn)}` +
  `.verdict-unknown{color:var(--unk)}.verdict-active{color:var(--ok)}
.reason{display:block;color:var(--muted);font-size:.8rem}
.cmd{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8rem;overflow-wrap:anywhere}
.fw{font-weight:600}.fw-ev{display:block;color:var(--muted);font-size:.75rem}
.policy{font-size:.88rem;margin:.4rem 0;padding:.35rem .6rem;border-left:3px solid var(--o2);background:var(--card)}
.policy .src{font-size:.75rem}
.free-line{font-size:.95rem}
figure.tl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .4rem;margin:.6rem 0 0}
figure.tl figcaption{grid-column:1/-1}
.tl-y{display:flex;flex-direction:column;justify-content:space-between;font-size:.72rem;color:var(--muted);` +
  `text-align:right;line-height:1}
.tl-x{display:flex;justify-content:space-between;font-size:.72rem;color:var(--muted)}
svg.timeline{width:100%;height:5rem;max-width:none;margin:0;border-left:1px solid var(--line);border-bottom:1px ` +
  `solid var(--line)}
svg.timeline line,svg.timeline polyline{vector-effect:non-scaling-stroke}
.muted{color:var(--muted)}
ul.findings{list-style:none;padding:0;margin:.3rem 0}ul.findings li{margin:.5rem 0}
ul.findings .cmds{margin:.2rem 0 0 1.6rem}
@media (max-width:640px){
header{display:block}
table.procs thead{display:none}
table.procs,table.procs tbody,table.procs tr,table.procs td{display:block;width:100%}
table.procs tr{border-bottom:1px solid var(--line);padding:.35rem 0}
table.procs td{border:0;padding:.05rem .1rem}
table.procs td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.8rem}
.gpu{padding:.5rem}
}
`;

/** The stylesheet of the page: the HTML report's, plus the live page's own. Its hash goes into the CSP. */
export const PAGE_CSS = CSS + SERVE_CSS;

/**
 * The start of both live pages (this machine's and the fleet's), up to the body: no referrer, light and dark, a
 * refresh without JavaScript, the stylesheet whose hash the CSP allows, and the event stream's URL for the script.
 */
export function pageHead(words: Words, title: string, o: RenderOptions): string {
  return `<!DOCTYPE html>
<html lang="${words.lang === 'zh' ? 'zh-CN' : 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<noscript><meta http-equiv="refresh" content="${o.refreshS};url=/${esc(o.query)}"></noscript>
<title>${esc(title)}</title>
<link rel="icon" href="data:,">
<style>${PAGE_CSS}</style>
</head>
<body data-events="${esc(`/events${o.query}`)}" data-units="${esc(TIME_UNITS(words))}">
`;
}

export function renderPage(words: Words, m: PageModel, o: RenderOptions): string {
  return (
    `${pageHead(words, m.title, o)}<header>
<h1>${esc(m.title)}</h1>
<p class="meta">gpu-env-doctor serve · ${words.t('serve.readOnly')}</p>
</header>
<div id="status">${renderStatus(words, m, o.now)}</div>
<p id="conn" class="conn" hidden></p>
<noscript><p class="meta">${words.t('serve.noScript', { s: o.refreshS })}</p></noscript>
<main id="main">${renderMain(words, m, o)}</main>
<footer>${esc(o.tool)} · ${words.t('serve.footer', {
      link: `<a href="/state.json${esc(o.query)}">state.json` + `</a>`,
    })}` +
    (m.redacted ? words.t('serve.redacted') : '') +
    `${m.othersHidden !== undefined ? words.t('serve.othersHidden') : ''}</footer>
<script>${CLIENT_JS}</script>
</body>
</html>
`
  );
}

/** An element whose text is "N s" since `t`, counted on by the page's script. */
function ago(words: Words, at: number, now: number): string {
  return `<span data-ago="${Math.round(at)}">${esc(agoText(words, now - at))}</span>`;
}

export function renderStatus(words: Words, m: PageModel, now: number): string {
  const s = m.status;
  const figures =
    s.updatedAt !== null
      ? words.t('serve.figures', { clock: esc(clock(s.updatedAt)), ago: ago(words, s.updatedAt, now) })
      : '';
  switch (s.kind) {
    case 'ok':
      return (
        `<p class="status ok" data-kind="ok"><span class="mark ok">✓</span> ` +
        `${words.t('serve.live', { ago: ago(words, s.updatedAt!, now), every: esc(secs(words, m.intervalMs)) })}</p>`
      );
    case 'waiting':
      return (
        `<p class="status waiting" data-kind="waiting"><span class="mark unknown">?</span> ` +
        (words.t('serve.waiting', {
          asked: s.since !== undefined,
          ago: s.since !== undefined ? ago(words, s.since, now) : '',
        }) +
          `</p>`)
      );
    case 'hanging':
      return (
        `<p class="status hanging" data-kind="hanging" role="alert"><span class="mark fail">✗</span> ` +
        `${words.t('serve.hanging', { ago: ago(words, s.since!, now) })}${figures}</p>`
      );
    case 'failed':
      return (
        `<p class="status failed" data-kind="failed" role="alert"><span class="mark fail">✗</span> ` +
        (words.t('serve.failed', {
          failure: esc(s.failure ?? words.t('serve.itFailed')),
          ago: ago(words, s.since!, now),
        }) +
          `${figures}</p>`)
      );
  }
}

export function renderMain(words: Words, m: PageModel, o: RenderOptions): string {
  return [
    freeSection(words, m),
    ...m.gpus.map((g) => gpuSection(words, g, o)),
    holdersSection(words, m),
    findingsSection(words, m, o.now),
    m.note ? `<p class="meta" id="note">${esc(m.note)}</p>` : '',
  ]
    .filter((x) => x !== '')
    .join('\n');
}

function freeSection(words: Words, m: PageModel): string {
  const parts: string[] = [];
  if (!m.free.known) {
    parts.push(
      `<p class="free-line"><span class="mark unknown">?</span> ` +
        `${words.t('serve.freeUnknown', { old: m.gpus.length > 0 })}</p>`,
    );
  } else if (m.free.indexes.length === 0) {
    parts.push(
      `<p class="free-line"><span class="mark warn">!</span> ${words.t('serve.noneFree', { n: m.gpus.length })}</p>`,
    );
  } else {
    parts.push(
      `<p class="free-line"><span class="mark ok">✓</span> ${words.t('serve.freeNow', {
        gpus: esc(
          words.joinList(
            m.free.indexes.map((i) => `GPU ${i}`),
            'comma',
          ),
        ),
        n: m.gpus.length,
      })}</p>`,
    );
    // the same command as check's fix, then the job: one spelling of the free GPU on the page
    parts.push(`<pre id="free-line">${esc(m.free.line ?? '')}\npython train.py</pre>`);
    if (m.free.allLine)
      parts.push(`<p class="meta">${words.t('serve.allOfThem', { line: `<code>${esc(m.free.allLine)}</code>` })}</p>`);
    parts.push(
      `<p ` +
        (`class="meta">` +
          words.t(m.free.line?.includes('CUDA_DEVICE_ORDER') ? 'serve.deviceOrder' : 'serve.byUuid') +
          `</p>`),
    );
  }
  if (m.stale > 0) {
    parts.push(
      `<p><span class="mark fail">✗</span> ${words.t('serve.stale', { n: m.stale, host: esc(m.host) })}</p><pre>$ ` +
        `gpu-env-doctor fix</pre><p class="meta">${words.t('serve.staleNote')}</p>`,
    );
  }
  return `<section id="free" class="card">${parts.join('')}</section>`;
}

function gpuSection(words: Words, g: GpuView, o: RenderOptions): string {
  const badge = g.free
    ? `<span class="badge free">${words.t('serve.badgeFree')}</span>`
    : g.freeNote
      ? `<span class="badge busy">${words.t('serve.badgeNotOffered')}</span>`
      : '';
  const head =
    `<h2>GPU ${g.index} <span class="sub">${esc(g.name)}</span> ${badge}<span ` +
    (`class="sub">` +
      esc(words.t('serve.gpuUsage', { used: fmtMiB(g.usedMiB), total: fmtMiB(g.totalMiB), free: fmtMiB(g.freeMiB) })) +
      `</span></h2>`);
  const note = g.freeNote ? `<p class="meta">${esc(g.freeNote)}</p>` : '';
  const procs =
    g.procs.length === 0
      ? `<p class="meta">${words.t('serve.noProcess')}</p>`
      : procTable(words, g.procs, `gpu-${g.index}`);
  const policies = g.policies
    .map(
      (p) =>
        `<p class="policy" data-framework="${esc(p.framework)}" ` +
        `data-pid="${p.pid}">${words.t('serve.policy', {
          pid: p.pid,
          summary: esc(p.summary),
          remedy: `<span ` + `class="muted">${esc(capital(p.remedy))}${words.t('serve.period')}</span>`,
        })}</p>`,
    )
    .join('');
  return (
    `<section class="gpu" id="gpu-${g.index}" data-gpu="${g.index}" data-used-mib="${num(g.usedMiB)}" ` +
    `data-free="${g.free}">
${head}${note}
${bar(words, g)}
${procs}${policies}
${timeline(words, g, o)}
</section>`
  );
}

function bar(words: Words, g: GpuView): string {
  const W = 1000;
  const H = 28;
  const total = Math.max(
    1,
    g.totalMiB,
    g.segments.reduce((a, s) => a + s.miB, 0),
  );
  let x = 0;
  const shade = new Map<string, number>();
  const rects = g.segments.map((s) => {
    const w = (s.miB / total) * W;
    const cls = segClass(s.kind === 'proc' ? (s.group ?? 'unknown') : s.kind, shade);
    const r =
      `<rect class="${cls}" data-kind="${esc(s.kind)}"${s.pid !== undefined ? ` data-pid="${s.pid}"` : ''} ` +
      `data-mib="${num(s.miB)}" x="${num(x)}" y="0" width="${num(w)}" ` +
      `height="${H}"><title>${esc(`${s.label}${words.t('facts.colon')}${fmtMiB(s.miB)}`)}</title></rect>`;
    x += w;
    return r;
  });
  const label = words.t('serve.barLabel', {
    index: g.index,
    segments: words.joinList(
      g.segments.map((s) => `${s.label} ${fmtMiB(s.miB)}`),
      'comma',
    ),
  });
  return (
    `<svg class="bar" role="img" aria-label="${esc(label)}" viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" ` +
    `width="100%" height="${H}">${rects.join('')}</svg>`
  );
}

/** Neighbours of the same colour alternate between two shades, so two processes never merge into one block. */
function segClass(group: string, shade: Map<string, number>): string {
  if (group === 'free' || group === 'unattributed') return `seg g-${group}`;
  const n = shade.get(group) ?? 0;
  shade.set(group, n + 1);
  return `seg g-${group}${n % 2 === 1 ? ' s1' : ''}`;
}

function procTable(words: Words, procs: ProcView[], idPrefix: string): string {
  const shade = new Map<string, number>();
  const rows = procs.map((p) => {
    const fw = p.framework
      ? `<span ` +
        `class="fw">${esc(p.framework.label)}</span>${
          p.framework.evidence.length > 0
            ? `<span ` + `class="fw-ev">${esc(p.framework.evidence.slice(0, 2).join('; '))}</span>`
            : ''
        }`
      : '<span class="muted">–</span>';
    const sw =
      p.miB !== null
        ? `<span class="sw ${segClass(p.group, shade).replace('seg ', '')}" aria-hidden="true"></span>`
        : '';
    return (
      `<tr data-pid="${p.pid}" data-verdict="${esc(p.verdict)}">
<td data-label="PID" class="nw">${sw}${p.pid}</td><td data-label="${words.t('serve.col.user')}" ` +
      `class="nw">${esc(p.user)}</td><td data-label="${words.t('serve.col.memory')}" ` +
      `class="nw">${esc(p.miB === null ? words.t('serve.deviceFile') : fmtMiB(p.miB))}</td><td ` +
      `data-label="${words.t('serve.col.framework')}">${fw}</td>` +
      `<td data-label="${words.t('serve.col.verdict')}"><span ` +
      `class="verdict-${p.group}">${esc(verdictWord(words, p.verdict))}</span><span ` +
      `class="reason">${esc(p.reason)}</span></td><td data-label="${words.t('serve.col.age')}" ` +
      `class="nw">${esc(p.age)}</td><td data-label="${words.t('serve.col.command')}" class="cmd" ` +
      `title="${esc(p.commandFull)}">${esc(p.command)}</td>
</tr>`
    );
  });
  return (
    `<div class="table-wrap"><table class="procs" ` +
    `id="${esc(idPrefix)}-procs"><thead><tr><th>PID</th><th>${words.t('serve.col.user')}</th>` +
    `<th>${words.t('serve.col.memory')}</th><th>${words.t('serve.col.framework')}</th>` +
    `<th>${words.t('serve.col.verdict')}</th><th>${words.t('serve.col.age')}</th>` +
    `<th>${words.t('serve.col.command')}</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  );
}

/**
 * The last hour of memory in use: a line (broken where nothing was read), the total dashed, now at the right.
 * The plot stretches to any width (its strokes do not); the labels are HTML around it, so they keep their size
 * on a phone and on a wide screen.
 */
function timeline(words: Words, g: GpuView, o: RenderOptions): string {
  const W = 1000;
  const H = 100;
  // The right edge moves one bucket at a time, so the drawing does not change between two readings of a bucket.
  const bucketMs = o.historyWindowMs / DEFAULT_HISTORY.buckets;
  const t0 = Math.ceil(o.now / bucketMs) * bucketMs - o.historyWindowMs;
  const yMax = Math.max(1, g.totalMiB, ...g.history.map((p) => p.usedMiB));
  const X = (t: number) => (Math.min(Math.max(t - t0, 0), o.historyWindowMs) / o.historyWindowMs) * W;
  const Y = (m: number) => H - (m / yMax) * (H - 2) - 1;
  const parts: string[] = [`<line class="grid" x1="0" x2="${W}" y1="${num(Y(yMax / 2))}" y2="${num(Y(yMax / 2))}"/>`];
  parts.push(
    `<line class="total" x1="0" x2="${W}" y1="${num(Y(g.totalMiB))}" ` +
      `y2="${num(Y(g.totalMiB))}"><title>${esc(words.t('serve.total', { total: fmtMiB(g.totalMiB) }))}</title></line>`,
  );
  for (const run of runs(g.history, o.historyWindowMs / 120)) {
    const pts = run.map((p) => `${num(X(p.t))},${num(Y(p.usedMiB))}`);
    if (run.length === 1) pts.push(`${num(X(run[0]!.t) + 3)},${num(Y(run[0]!.usedMiB))}`);
    parts.push(`<polyline class="line-used" data-count="${run.length}" points="${pts.join(' ')}"/>`);
  }
  const minutes = Math.round(o.historyWindowMs / 60000);
  const peak = g.history.reduce((a, p) => Math.max(a, p.usedMiB), 0);
  const label = words.t('serve.timelineLabel', {
    index: g.index,
    minutes,
    any: g.history.length > 0,
    peak: fmtMiB(peak),
    total: fmtMiB(g.totalMiB),
  });
  const svg =
    `<svg class="timeline" role="img" aria-label="${esc(label)}" data-points="${g.history.length}" ` +
    `viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" width="100%" height="${H}">${parts.join('')}</svg>`;
  const y =
    `<div class="tl-y" ` +
    `aria-hidden="true"><span>${esc(fmtMiB(yMax))}</span><span>${esc(fmtMiB(yMax / 2))}</span><span>0</span></div>`;
  const x =
    `<div class="tl-x" ` +
    `aria-hidden="true"><span>${esc(words.t('serve.minAgo', { n: minutes }))}</span>` +
    `<span>${esc(words.t('serve.minAgo', { n: Math.round(minutes / 2) }))}</span>` +
    `<span>${words.t('serve.now')}</span></div>`;
  return (
    `<figure class="tl">${y}${svg}<span></span>${x}<figcaption ` +
    (`class="meta">` +
      words.t('serve.timelineCaption', {
        minutes,
        any: g.history.length > 0,
        peak: esc(fmtMiB(peak)),
        bucket: esc(secs(words, bucketMs)),
      }) +
      `</figcaption></figure>`)
  );
}

/** Splits points into runs without gaps longer than `gapMs`. */
function runs(points: HistoryPoint[], gapMs: number): HistoryPoint[][] {
  const out: HistoryPoint[][] = [];
  let cur: HistoryPoint[] = [];
  for (const p of points) {
    const last = cur[cur.length - 1];
    if (last && p.t - last.t > gapMs) {
      out.push(cur);
      cur = [];
    }
    cur.push(p);
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

function holdersSection(words: Words, m: PageModel): string {
  if (m.deviceHolders.length === 0) return '';
  return (
    `<section id="device-holders"><h2>${words.t('serve.holdersTitle')}</h2><p ` +
    `class="meta">${words.t('serve.holdersNote')}</p>${procTable(words, m.deviceHolders, 'device')}</section>`
  );
}

const SYMBOL: Record<FindingItem['mark'], string> = { fail: '✗', warn: '!', unknown: '?' };

function findingsSection(words: Words, m: PageModel, now: number): string {
  const c = m.checks;
  if (c.everyMs === 0)
    return (
      `<section id="findings"><h2>${words.t('serve.findingsTitle')}</h2><p ` +
      `class="meta">${words.t('serve.checksOff')}</p></section>`
    );
  const when =
    c.at !== null
      ? words.t('serve.checked', { ago: ago(words, c.at, now), every: esc(secs(words, c.everyMs)) })
      : words.t('serve.every', { every: esc(secs(words, c.everyMs)) });
  const head =
    `<h2>${words.t('serve.findingsTitle')}</h2><p ` +
    `class="meta">${when}${c.count > 0 ? ` · ${esc(words.t('summary.checks', { n: c.count }))}` : ''}</p>`;
  const note = c.note ? `<p class="meta">${esc(c.note)}</p>` : '';
  let body = '';
  if (c.at !== null && c.items.length === 0)
    body = `<p><span class="mark ok">✓</span> ${words.t('label.noProblems')}</p>`;
  else if (c.items.length > 0) {
    body = `<ul class="findings">${c.items
      .map((f) => {
        const cmds = [
          ...f.commands.map((x) => `$ ${x}`),
          ...f.manual.map((x) => `${words.t('label.byHand')}${words.t('label.gap')}${x}`),
        ];
        return (
          `<li data-check="${esc(f.check)}"><span class="mark ${f.mark}">${SYMBOL[f.mark]}</span> ` +
          `${esc(f.message)}${
            f.fixText
              ? `<div class="fix ` +
                (
                  `cmds">${words.t('label.fix')}${words.t('label.gap')}${esc(f.fixText)}` +
                    (cmds.length > 0 ? `<pre>${esc(cmds.join('\n'))}</pre>` : '') +
                    `</div>`
                )
              : ''
          }</li>`
        );
      })
      .join('')}</ul>`;
  }
  return `<section id="findings">${head}${note}${body}</section>`;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** What the event stream sends: the two replaced parts, the title, and the server's clock. */
export function eventData(words: Words, m: PageModel, o: RenderOptions): string {
  return JSON.stringify({
    now: o.now,
    title: m.title,
    status: renderStatus(words, m, o.now),
    main: renderMain(words, m, o),
  });
}

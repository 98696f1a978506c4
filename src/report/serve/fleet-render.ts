// The fleet page (`serve --fleet DIR`): one row per machine. Same page frame, script, headers and rules as
// the single-machine page (render.ts); on a phone each row becomes a card.
import { fmtMiB } from '../../base/format.js';
import type { Words } from '../../base/i18n/words.js';
import { esc } from '../html/escape.js';
import { CLIENT_JS } from './client.js';
import type { FleetPageModel, MachineRow } from './fleet-model.js';
import { agoText, clock, secs } from './model.js';
import { verdictWord } from './model.js';
import { pageHead, type RenderOptions } from './render.js';

function ago(words: Words, at: number, now: number): string {
  return `<span data-ago="${Math.round(at)}">${esc(agoText(words, now - at))}</span>`;
}

export function renderFleetPage(words: Words, m: FleetPageModel, o: RenderOptions): string {
  return `${pageHead(words, m.title, o)}<header>
<h1>GPU fleet</h1>
<p class="meta">gpu-env-doctor serve --fleet · ${words.t('serve.readOnly')}</p>
</header>
<div id="status">${renderFleetStatus(words, m, o.now)}</div>
<p id="conn" class="conn" hidden></p>
<noscript><p class="meta">${words.t('serve.noScript', { s: o.refreshS })}</p></noscript>
<main id="main">${renderFleetMain(words, m, o.now)}</main>
<footer>${esc(o.tool)} · ${words.t('serve.footer', {
    link: `<a href="/state.json${esc(o.query)}">state.json` + `</a>`,
  })}${m.redacted ? words.t('serve.fleet.redacted') : ''}</footer>
<script>${CLIENT_JS}</script>
</body>
</html>
`;
}

export function renderFleetStatus(words: Words, m: FleetPageModel, now: number): string {
  if (m.readAt === null)
    return (
      `<p class="status waiting" data-kind="waiting"><span class="mark unknown">?</span> ` +
      `${words.t('serve.fleet.reading', { dir: esc(m.dir) })}</p>`
    );
  const tot = m.totals;
  const skipped = m.skipped.length > 0 ? words.t('serve.fleet.skipped', { n: m.skipped.length }) : '';
  return (
    `<p class="status ok" data-kind="ok"><span class="mark ok">✓</span> ` +
    (words.t('serve.fleet.status', {
      n: tot.machines,
      dir: esc(m.dir),
      ago: ago(words, m.readAt, now),
      every: esc(secs(words, m.intervalMs)),
    }) +
      `${skipped}</p>`)
  );
}

export function renderFleetMain(words: Words, m: FleetPageModel, now: number): string {
  const tot = m.totals;
  const summary =
    `<section id="fleet-summary" class="card"><p><span ` +
    `class="mark ${tot.free > 0 ? 'ok' : 'warn'}">${tot.free > 0 ? '✓' : '!'}</span>` +
    ` ${esc(words.t('serve.fleet.free', { free: tot.free, n: tot.gpus }))} · <span ` +
    `class="mark ${tot.stale > 0 ? 'fail' : 'ok'}">${tot.stale > 0 ? '✗' : '✓'}</span>` +
    ` ${esc(words.t('serve.fleet.staleHolders', { n: tot.stale }))} ` +
    `· ${esc(words.t('serve.fleet.outlierMachines', { n: tot.outliers }))}${
      tot.old > 0
        ? ` · <span ` +
          (
            `class="mark warn">!</span> ` +
              esc(words.t('serve.fleet.old', { n: tot.old, age: secs(words, m.oldAfterMs) }))
          )
        : ''
    }</p>${
      m.mergedAt !== null
        ? `<p class="meta">${words.t('serve.fleet.outliersNote', { ago: ago(words, m.mergedAt, now) })}</p>`
        : ''
    }</section>`;
  const rows = m.machines.map((r) => machineRow(words, r, m, now)).join('');
  const table =
    m.machines.length === 0
      ? `<p ` +
        `class="meta">${words.t('serve.fleet.empty', {
          dir: esc(m.dir),
          command: `<code>gpu-env-doctor snapshot &gt; ` + `${esc(m.dir)}/$(hostname).json</code>`,
        })}</p>`
      : `<div class="table-wrap"><table class="procs fleet" ` +
        `id="machines"><thead><tr><th>${words.t('serve.fleet.col.machine')}</th>` +
        `<th>${words.t('serve.fleet.col.snapshot')}</th><th>${words.t('serve.fleet.col.gpus')}</th>` +
        `<th>${words.t('serve.fleet.col.free')}</th><th>${words.t('serve.fleet.col.stale')}</th>` +
        `<th>${words.t('serve.fleet.col.differs')}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  const skipped =
    m.skipped.length === 0
      ? ''
      : `<section ` +
        `id="skipped"><h2>${words.t('serve.fleet.filesSkipped')}</h2><ul>${m.skipped
          .map((s) => `<li>` + `<code>${esc(s.file)}</code>${words.t('facts.colon')}${esc(s.reason)}</li>`)
          .join('')}</ul></section>`;
  return `${summary}\n${table}\n${skipped}`;
}

function machineRow(words: Words, r: MachineRow, m: FleetPageModel, now: number): string {
  const old = r.collectedMs === null || now - r.collectedMs > m.oldAfterMs;
  const when =
    r.collectedMs !== null
      ? words.t('serve.fleet.ago', { ago: ago(words, r.collectedMs, now) })
      : esc(r.collectedAt ?? '?');
  const snap =
    `${old ? '<span class="mark warn">!</span> ' : ''}` +
    `${when}${r.collectedMs !== null ? ` <span ` + `class="reason">${esc(clock(r.collectedMs))}</span>` : ''}` +
    (r.problem
      ? `<span ` + `class="reason">${esc(words.t('serve.fleet.unreadable', { problem: r.problem }))}</span>`
      : '');
  const free =
    r.free === null
      ? `<span class="mark unknown">?</span> ${esc(words.t('serve.fleet.noSmi', { failure: r.nvidiaFailure ?? '?' }))}`
      : r.free.length === 0
        ? `<span class="muted">${words.t('fleet.none')}</span>`
        : `${esc(r.free.map((i) => `GPU ${i}`).join(', '))}<code class="reason">${esc(r.freeLine ?? '')}</code>`;
  const stale =
    r.stale.length === 0
      ? `<span class="muted">${words.t('fleet.none')}</span>`
      : r.stale
          .map(
            (s) =>
              `<div data-pid="${s.pid}"><span class="verdict-stale">${esc(verdictWord(words, s.verdict))}</span> ` +
              (esc(
                words.t('serve.fleet.staleRow', {
                  pid: s.pid,
                  user: s.user,
                  mib: fmtMiB(s.miB),
                  gpus: s.gpus.join(',') || '?',
                }),
              ) +
                `<span `) +
              `class="reason cmd">${esc(s.command)}</span></div>`,
          )
          .join('');
  const outliers =
    r.outliers.length === 0
      ? '<span class="muted">–</span>'
      : r.outliers
          .slice(0, 6)
          .map(
            (d) =>
              `<div><span ` +
              (`class="verdict-` +
                (d.impact === 'critical' || d.impact === 'high' ? 'stale' : 'other') +
                `">${esc(d.fact)}</span> `) +
              `${esc(d.value ?? words.t('diff.notSet'))} <span ` +
              (`class="reason">` +
                esc(words.t('serve.fleet.usual', { usual: d.usual ?? words.t('diff.notSet') })) +
                `</span></div>`),
          )
          .join('') +
        (r.outliers.length > 6
          ? `<span class="reason">${esc(words.t('fleet.more', { n: r.outliers.length - 6 }))}</span>`
          : '');
  return (
    `<tr data-host="${esc(r.host)}" data-stale="${r.stale.length}" data-free="${r.free?.length ?? -1}">
<td data-label="${words.t('serve.fleet.col.machine')}"><b>${esc(r.host)}</b><span ` +
    (`class="reason">${esc(r.file)}</span></td><td data-label="` +
      words.t('serve.fleet.col.snapshot') +
      `">${snap}</td><td `) +
    `data-label="${words.t('serve.fleet.col.gpus')}">${esc(
      r.gpus > 0 ? `${r.gpus} × ` + `${r.gpuName ?? '?'}` : '0',
    )}</td><td data-label="${words.t('serve.fleet.col.free')}">${free}</td><td ` +
    `data-label="${words.t('serve.fleet.col.stale')}">${stale}</td><td ` +
    `data-label="${words.t('serve.fleet.col.differsShort')}">${outliers}</td>
</tr>`
  );
}

export function fleetEventData(words: Words, m: FleetPageModel, now: number): string {
  return JSON.stringify({
    now,
    title: m.title,
    status: renderFleetStatus(words, m, now),
    main: renderFleetMain(words, m, now),
  });
}

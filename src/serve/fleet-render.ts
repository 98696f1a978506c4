// The fleet page (`serve --fleet DIR`): one row per machine. Same page frame, script, headers and rules as
// the single-machine page (render.ts); on a phone each row becomes a card.
import { fmtMiB, plural } from '../core/format.js';
import { esc } from '../reporters/html/escape.js';
import { CLIENT_JS } from './client.js';
import type { FleetPageModel, MachineRow } from './fleet.js';
import { agoText, clock, secs } from './model.js';
import { pageHead, type RenderOptions } from './render.js';

function ago(t: number, now: number): string {
  return `<span data-ago="${Math.round(t)}">${esc(agoText(now - t))}</span>`;
}

export function renderFleetPage(m: FleetPageModel, o: RenderOptions): string {
  return `${pageHead(m.title, o)}<header>
<h1>GPU fleet</h1>
<p class="meta">gpu-env-doctor serve --fleet · read-only</p>
</header>
<div id="status">${renderFleetStatus(m, o.now)}</div>
<p id="conn" class="conn" hidden></p>
<noscript><p class="meta">Scripts are off: this page reloads itself every ${o.refreshS} s.</p></noscript>
<main id="main">${renderFleetMain(m, o.now)}</main>
<footer>${esc(o.tool)} · this page only reads: nothing on it ends a process. Its data as JSON: <a href="/state.json${esc(o.query)}">state.json</a>.${m.redacted ? ' User names, host names and command lines are hidden (--redact).' : ''}</footer>
<script>${CLIENT_JS}</script>
</body>
</html>
`;
}

export function renderFleetStatus(m: FleetPageModel, now: number): string {
  if (m.readAt === null) return `<p class="status waiting" data-kind="waiting"><span class="mark unknown">?</span> Reading the snapshots in ${esc(m.dir)}…</p>`;
  const t = m.totals;
  const skipped = m.skipped.length > 0 ? ` · ${esc(plural(m.skipped.length, 'file'))} skipped` : '';
  return `<p class="status ok" data-kind="ok"><span class="mark ok">✓</span> ${esc(plural(t.machines, 'machine'))} from ${esc(m.dir)}, read ${ago(m.readAt, now)} ago (every ${esc(secs(m.intervalMs))})${skipped}</p>`;
}

export function renderFleetMain(m: FleetPageModel, now: number): string {
  const t = m.totals;
  const summary = `<section id="fleet-summary" class="card"><p><span class="mark ${t.free > 0 ? 'ok' : 'warn'}">${t.free > 0 ? '✓' : '!'}</span> ${esc(`${t.free} of ${plural(t.gpus, 'GPU')} free`)} · <span class="mark ${t.stale > 0 ? 'fail' : 'ok'}">${t.stale > 0 ? '✗' : '✓'}</span> ${esc(plural(t.stale, 'stale holder'))} · ${esc(plural(t.outliers, 'outlier machine'))}${t.old > 0 ? ` · <span class="mark warn">!</span> ${esc(`${plural(t.old, 'snapshot')} older than ${secs(m.oldAfterMs)}`)}` : ''}</p>${
    m.mergedAt !== null ? `<p class="meta">Outliers: machines whose driver, libraries or frameworks differ from what two thirds of the fleet has; compared ${ago(m.mergedAt, now)} ago.</p>` : ''
  }</section>`;
  const rows = m.machines.map((r) => machineRow(r, m, now)).join('');
  const table =
    m.machines.length === 0
      ? `<p class="meta">No snapshot in ${esc(m.dir)} yet. Each node writes one with: <code>gpu-env-doctor snapshot &gt; ${esc(m.dir)}/$(hostname).json</code></p>`
      : `<div class="table-wrap"><table class="procs fleet" id="machines"><thead><tr><th>machine</th><th>snapshot</th><th>GPUs</th><th>free</th><th>stale holders</th><th>differs from the fleet</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  const skipped =
    m.skipped.length === 0
      ? ''
      : `<section id="skipped"><h2>Files skipped</h2><ul>${m.skipped.map((s) => `<li><code>${esc(s.file)}</code>: ${esc(s.reason)}</li>`).join('')}</ul></section>`;
  return `${summary}\n${table}\n${skipped}`;
}

function machineRow(r: MachineRow, m: FleetPageModel, now: number): string {
  const old = r.collectedMs === null || now - r.collectedMs > m.oldAfterMs;
  const when = r.collectedMs !== null ? `${ago(r.collectedMs, now)} ago` : esc(r.collectedAt ?? '?');
  const snap = `${old ? '<span class="mark warn">!</span> ' : ''}${when}${r.collectedMs !== null ? ` <span class="reason">${esc(clock(r.collectedMs))}</span>` : ''}${r.problem ? `<span class="reason">${esc(`unreadable now: ${r.problem}`)}</span>` : ''}`;
  const free =
    r.free === null
      ? `<span class="mark unknown">?</span> ${esc(`nvidia-smi could not answer there: ${r.nvidiaFailure ?? '?'}`)}`
      : r.free.length === 0
        ? '<span class="muted">none</span>'
        : `${esc(r.free.map((i) => `GPU ${i}`).join(', '))}<code class="reason">${esc(r.freeLine ?? '')}</code>`;
  const stale =
    r.stale.length === 0
      ? '<span class="muted">none</span>'
      : r.stale
          .map(
            (s) =>
              `<div data-pid="${s.pid}"><span class="verdict-stale">${esc(s.verdict)}</span> ${esc(`PID ${s.pid} (${s.user}) ${fmtMiB(s.miB)} on GPU ${s.gpus.join(',') || '?'}`)}<span class="reason cmd">${esc(s.command)}</span></div>`,
          )
          .join('');
  const outliers =
    r.outliers.length === 0
      ? '<span class="muted">–</span>'
      : r.outliers
          .slice(0, 6)
          .map((d) => `<div><span class="verdict-${d.impact === 'critical' || d.impact === 'high' ? 'stale' : 'other'}">${esc(d.fact)}</span> ${esc(d.value ?? '(not set)')} <span class="reason">usual: ${esc(d.usual ?? '(not set)')}</span></div>`)
          .join('') + (r.outliers.length > 6 ? `<span class="reason">${esc(`… ${r.outliers.length - 6} more`)}</span>` : '');
  return `<tr data-host="${esc(r.host)}" data-stale="${r.stale.length}" data-free="${r.free?.length ?? -1}">
<td data-label="machine"><b>${esc(r.host)}</b><span class="reason">${esc(r.file)}</span></td><td data-label="snapshot">${snap}</td><td data-label="GPUs">${esc(r.gpus > 0 ? `${r.gpus} × ${r.gpuName ?? '?'}` : '0')}</td><td data-label="free">${free}</td><td data-label="stale holders">${stale}</td><td data-label="differs">${outliers}</td>
</tr>`;
}

export function fleetEventData(m: FleetPageModel, now: number): string {
  return JSON.stringify({ now, title: m.title, status: renderFleetStatus(m, now), main: renderFleetMain(m, now) });
}

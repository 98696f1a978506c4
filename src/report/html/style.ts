// The report's inline stylesheet: readable on a phone (one column, tables that scroll sideways, wrapping
// code), in print (no backgrounds wasted, bars keep their colours, sections not cut), and in dark mode.
export const CSS =
  `
:root{--fg:#1d2430;--muted:#5b6472;--bg:#fff;--card:#f6f7f9;--line:#d9dde3;--ok:#1a7f37;--warn:#9a6700;` +
  `--fail:#cf222e;--unk:#8250df;
--job:#0969da;--un:#8c959f;--free:#e6e9ed;--o0:#d4a72c;--o1:#bf3989;--o2:#1b7c83;--o3:#a475f9;--o4:#e16f24}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#161b22;--line:#30363d;` +
  `--free:#2d333b;--un:#6e7681}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:64rem;padding:1rem;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;` +
  `color:var(--fg);background:var(--bg);overflow-wrap:anywhere}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line);` +
  `padding-bottom:.2rem}
h3{font-size:1rem;margin:.8rem 0 .3rem}
.meta{color:var(--muted);font-size:.85rem}
.verdict{padding:.6rem .8rem;border-radius:6px;background:var(--card);border-left:5px solid var(--muted);` +
  `font-weight:600}
.verdict.ok{border-color:var(--ok)}.verdict.warn{border-color:var(--warn)}.verdict.fail{border-color:var(--fail)}` +
  `.verdict.unknown{border-color:var(--unk)}
.mark{font-weight:700;display:inline-block;min-width:1.2em;text-align:center}
.mark.ok{color:var(--ok)}.mark.skip{color:var(--muted)}.mark.warn{color:var(--warn)}.mark.fail{color:var(--fail)}` +
  `.mark.unknown{color:var(--unk)}
section{break-inside:avoid-page}
.card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;margin:.6rem 0;` +
  `break-inside:avoid}
.card h3{margin-top:0}
.tag{font-size:.78rem;color:var(--muted);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
pre{white-space:pre-wrap;word-break:break-word;background:var(--bg);border:1px solid var(--line);border-radius:4px;` +
  `padding:.4rem .6rem;margin:.3rem 0;max-width:100%;overflow-x:auto}
ul.evidence{margin:.3rem 0;padding-left:1.1rem}ul.evidence li{font-family:ui-monospace,SFMono-Regular,Menlo,` +
  `Consolas,monospace;font-size:.82rem}
.src{color:var(--muted)}
.fix{margin-top:.4rem}.fix b{color:var(--job)}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.88rem}
th,td{text-align:left;vertical-align:top;overflow-wrap:normal;border-bottom:1px solid var(--line);padding:.3rem .45rem}
th{background:var(--card)}td.mono{overflow-wrap:anywhere}table.libraries td.path{overflow-wrap:normal;` +
  `word-break:normal}table.libraries td.name{white-space:nowrap}table.libraries td:not(.mono){white-space:nowrap}
svg{display:block;max-width:100%}
svg.bar{border-radius:4px;border:1px solid var(--line);height:2.2rem}
.seg-job{fill:var(--job);background:var(--job)}.seg-unattributed{fill:var(--un);background:var(--un)}` +
  `.seg-reserved{fill:var(--line);background:var(--line)}.seg-free{fill:var(--free);background:var(--free)}
.seg-other-0{fill:var(--o0);background:var(--o0)}.seg-other-1{fill:var(--o1);background:var(--o1)}` +
  `.seg-other-2{fill:var(--o2);background:var(--o2)}.seg-other-3{fill:var(--o3);background:var(--o3)}` +
  `.seg-other-4{fill:var(--o4);background:var(--o4)}
ul.legend{list-style:none;padding:0;margin:.35rem 0;display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:.85rem}
.sw{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.35em;vertical-align:-.05em;` +
  `border:1px solid var(--line)}
svg.timeline{height:auto;margin:.3rem 0;max-width:44rem}
svg.timeline .grid{stroke:var(--line);stroke-width:1}
svg.timeline .total{stroke:var(--muted);stroke-dasharray:4 3;stroke-width:1}
svg.timeline .axis{fill:var(--muted);font-size:12px}
svg.timeline polyline{fill:none;stroke-width:2;stroke-linejoin:round}
svg.timeline .line-used{stroke:var(--o4)}svg.timeline .line-job{stroke:var(--job)}
svg.timeline .failure line{stroke:var(--fail);stroke-width:2}svg.timeline .failure text{fill:var(--fail);` +
  `font-size:12px;font-weight:700}
.key{font-size:.85rem;color:var(--muted)}.key i{display:inline-block;width:1.2em;height:3px;vertical-align:middle;` +
  `margin:0 .3em}
ol.log{list-style:none;margin:.3rem 0;padding:.4rem .6rem;background:var(--bg);border:1px solid var(--line);` +
  `border-radius:4px;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8rem;overflow-x:auto}
ol.log li{white-space:pre-wrap;word-break:break-word}
ol.log li .n{color:var(--muted);display:inline-block;min-width:3.5em;user-select:none}
ol.log li.hit{background:rgba(207,34,46,.12)}ol.log li.stderr .n{color:var(--fail)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem .8rem;font-size:.88rem}dl.facts ` +
  `dt{color:var(--muted)}dl.facts dd{margin:0}
.conf{display:inline-block;height:.55rem;background:var(--job);border-radius:3px;vertical-align:middle;` +
  `margin-right:.4rem}
footer{margin-top:2rem;color:var(--muted);font-size:.8rem}
@media (max-width:600px){body{padding:.6rem;font-size:14px}dl.facts{grid-template-columns:1fr}dl.facts ` +
  `dt{margin-top:.3rem}th,td{padding:.25rem .3rem}}
@media print{body{max-width:none;padding:0;font-size:10.5pt;color:#000;background:#fff}
.card,pre,ol.log{background:#fff}h2{break-after:avoid}
svg.bar rect,.sw,.conf{-webkit-print-color-adjust:exact;print-color-adjust:exact}
a{color:inherit;text-decoration:none}}
`;

// What the server sends, built from the collector's state: the page model (redacted with --redact), the
// page, the JSON and the event data. Built at most once per change and second, whatever the number of
// readers: 100 open pages cost one rendering per update, not a hundred.
import type { LiveCollector } from './live.js';
import { buildPageModel, type PageModel } from '../../report/serve/model.js';
import type { ModelRedactor } from '../../report/serve/redact-model.js';
import { eventData, renderPage, type RenderOptions } from '../../report/serve/render.js';
import type { PageSource } from './server.js';
import { applyCommandPolicy, type CommandPolicy } from './visibility.js';
import type { Words } from '../../base/i18n/words.js';

export interface ViewOptions {
  collector: LiveCollector;
  redactor: ModelRedactor | null;
  /** which command lines are shown, secrets replaced (absent: as collected, for tests of the model alone) */
  commands?: CommandPolicy;
  now(): number;
  refreshS: number;
  tool: string;
  historyWindowMs: number;
}

export function liveView(words: Words, o: ViewOptions): PageSource & { model(): PageModel } {
  let key = '';
  let cached: { model: PageModel; event: string; json: string } | null = null;
  let observed = -1;
  const build = () => {
    const now = o.now();
    const k = `${o.collector.version}:${Math.floor(now / 1000)}`;
    if (cached && k === key) return { ...cached, now };
    const st = o.collector.state(o.redactor !== null);
    let model = buildPageModel(words, st);
    if (o.commands) model = applyCommandPolicy(model, st, o.commands);
    if (o.redactor) {
      if (observed !== o.collector.version) {
        for (const s of [st.good?.snapshot, st.latest?.snapshot]) if (s) o.redactor.observe(s);
        observed = o.collector.version;
      }
      model = o.redactor.apply(model);
    }
    const ropts = opts(now, '');
    cached = {
      model,
      event: eventData(words, model, ropts),
      json: JSON.stringify({ schemaVersion: 1, generatedAt: new Date(now).toISOString(), ...model }),
    };
    key = k;
    return { ...cached, now };
  };
  const opts = (now: number, query: string): RenderOptions => ({
    now,
    query,
    refreshS: o.refreshS,
    tool: o.tool,
    historyWindowMs: o.historyWindowMs,
  });
  return {
    model: () => build().model,
    page: (query) => {
      const b = build();
      return renderPage(words, b.model, opts(b.now, query));
    },
    json: (server) => `${build().json.slice(0, -1)},"server":${JSON.stringify(server)}}`,
    eventData: () => build().event,
  };
}

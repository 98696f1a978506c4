import { flag, str, type ParsedArgs } from '../cli/args.js';
import type { Context } from '../ports/context.js';
import { ALL_CHECKS } from '../judge/checks/index.js';
import { runChecks } from '../judge/checks/run-checks.js';
import { UsageError } from '../base/errors.js';
import { createFileSystem, readTextOr } from '../ports/fs.js';
import { endChildrenInFlight } from '../ports/runner.js';
import { DEFAULT_PROBE_OPTIONS, type ProbeEnv } from '../gather/probe-env.js';
import { collectSnapshot } from '../gather/snapshot/collect.js';
import { cspHash, CLIENT_JS_HASH } from '../report/serve/client.js';
import { FleetWatcher } from '../act/serve/fleet.js';
import { fleetEventData, renderFleetPage } from '../report/serve/fleet-render.js';
import { DEFAULT_HISTORY, MemoryHistory } from '../report/serve/history.js';
import { LiveCollector } from '../act/serve/live.js';
import { FleetRedactor, ModelRedactor } from '../report/serve/redact-model.js';
import { redactorFor } from './shared/redaction.js';
import { PAGE_CSS } from '../report/serve/render.js';
import { baseFacts, takeSample } from '../act/serve/sample.js';
import { contentSecurityPolicy, isLoopbackHost, MIN_TOKEN_LENGTH, newToken } from '../act/serve/security.js';
import { startServer, type PageSource, type RunningServer } from '../act/serve/server.js';
import { liveView } from '../act/serve/view.js';
import { procHidesOthers, scrubFleetCommands } from '../act/serve/visibility.js';
import { createSecretRedactor } from '../report/redact.js';
import { TOOL_NAME, TOOL_VERSION } from '../base/tool-version.js';
import type { Command } from '../cli/registry.js';
import { optionSpec } from '../cli/options.js';
import { t } from '../base/i18n/index.js';

export const DEFAULT_PORT = 5810;
export const DEFAULT_INTERVAL_S = 2;
export const DEFAULT_FLEET_INTERVAL_S = 30;
export const DEFAULT_CHECK_INTERVAL_S = 60;

export const command: Command = {
  name: 'serve',
  get summary() {
    return t('cmd.serve.summary');
  },
  synopsis: 'serve [--port N] [--host ADDR] [--interval SECONDS] [--fleet DIR] [OPTIONS]',
  get description() {
    return t('cmd.serve.description', { minToken: MIN_TOKEN_LENGTH });
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor serve', t('cmd.serve.example1', { port: DEFAULT_PORT })],
      ['gpu-env-doctor serve --host 0.0.0.0 --token-file ~/.gpu-page-token', t('cmd.serve.example2')],
      ['gpu-env-doctor serve --fleet /shared/gpu-snapshots', t('cmd.serve.example3')],
    ];
  },
  get exitCodes() {
    return t('cmd.serve.exitCodes');
  },
  options: optionSpec('serve'),
  async run(ctx, args, words) {
    const o = serveOptions(ctx, args);
    const csp = contentSecurityPolicy({ scriptHash: CLIENT_JS_HASH, styleHash: cspHash(PAGE_CSS) });
    const tool = `${TOOL_NAME} ${TOOL_VERSION}`;
    const refreshS = Math.max(5, Math.round(o.intervalMs / 1000));
    let source: PageSource;
    let stopSource: () => void;
    let onChange = () => undefined as void;
    // --redact: one redactor for the whole run (this machine's accounts and the invoker known from the start)
    const redactor = redactorFor(ctx, args);
    // without --redact: secrets in command lines replaced; other users' command lines only as /proc shows them
    const secrets = createSecretRedactor();
    const hideOthers =
      !flag(args, 'show-all') && procHidesOthers(readTextOr(ctx.fs, '/proc/self/mountinfo', 1024 * 1024) ?? '');
    if (o.fleet !== undefined) {
      const fleetRedactor = redactor ? new FleetRedactor(redactor) : null;
      const watcher = new FleetWatcher({
        fs: createFileSystem('/'),
        cwd: ctx.cwd,
        dir: o.fleet,
        now: ctx.now,
        intervalMs: o.intervalMs,
        mergeEveryMs: Math.max(o.intervalMs, 300_000),
        oldAfterMs: Math.max(600_000, o.intervalMs * 4),
        onChange: () => onChange(),
      });
      let key = -1;
      let cached: { model: ReturnType<FleetWatcher['model']>; at: number } | null = null;
      const model = () => {
        const now = ctx.now();
        if (!cached || key !== watcher.version || now - cached.at > 1000) {
          const m = watcher.model();
          cached = { model: fleetRedactor ? fleetRedactor.apply(m) : scrubFleetCommands(m, secrets), at: now };
          key = watcher.version;
        }
        return cached.model;
      };
      source = {
        page: (query) =>
          renderFleetPage(words, model(), {
            now: ctx.now(),
            query,
            refreshS,
            tool,
            historyWindowMs: DEFAULT_HISTORY.windowMs,
          }),
        json: (server) =>
          JSON.stringify({ schemaVersion: 1, generatedAt: new Date(ctx.now()).toISOString(), ...model(), server }),
        eventData: () => fleetEventData(words, model(), ctx.now()),
      };
      watcher.start();
      stopSource = () => watcher.stop();
    } else {
      const penv: ProbeEnv = {
        fs: ctx.fs,
        runner: ctx.runner,
        env: ctx.env,
        now: ctx.now,
        pid: ctx.pid,
        options: { ...DEFAULT_PROBE_OPTIONS, timeoutMs: o.timeoutMs },
      };
      const collector = new LiveCollector({
        base: baseFacts(penv),
        sample: (prev, base) => takeSample(penv, base, prev),
        check: async () => {
          const snapshot = await collectSnapshot(penv);
          return { snapshot, findings: runChecks(ALL_CHECKS, snapshot).flatMap((r) => r.findings) };
        },
        now: ctx.now,
        intervalMs: o.intervalMs,
        checkEveryMs: o.checkEveryMs,
        // nvidia-smi answers in 0.1-0.2 s on one GPU and within a second or two on big machines
        hangAfterMs: Math.max(3000, Math.min(2 * o.intervalMs, o.timeoutMs)),
        maxBackoffMs: Math.max(o.intervalMs, 30_000),
        history: new MemoryHistory(DEFAULT_HISTORY),
        onChange: () => onChange(),
      });
      source = liveView(words, {
        collector,
        redactor: redactor ? new ModelRedactor(redactor) : null,
        commands: { secrets, hideOthers },
        now: ctx.now,
        refreshS,
        tool,
        historyWindowMs: DEFAULT_HISTORY.windowMs,
      });
      collector.start();
      stopSource = () => collector.stop();
    }

    let server: RunningServer;
    try {
      server = await startServer({ host: o.host, port: o.port, token: o.token, loopback: o.loopback, csp, source });
    } catch (err) {
      stopSource();
      throw listenError(err, o.host, o.port);
    }
    onChange = () => server.push();
    ctx.stdout.write(`${TOOL_NAME} serve: ${server.url}\n`);
    if (o.token !== null && o.tokenMade) ctx.stderr.write(`${t('serve.cli.token', { token: o.token })}\n`);
    if (!o.loopback) ctx.stderr.write(`${t('serve.cli.listening', { host: o.host })}\n`);
    ctx.stderr.write(`${t('serve.cli.readOnly')}\n`);

    await untilStopped();
    stopSource();
    // the calls still in flight (a hung nvidia-smi, a wrapper's sleep) end with us, their groups too
    endChildrenInFlight();
    await server.close();
    // A child stuck in the kernel (a hung nvidia-smi that SIGKILL cannot end) would keep Node alive: the
    // server is closed, so leave anyway.
    setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
    return 0;
  },
};

interface ServeOptions {
  host: string;
  port: number;
  loopback: boolean;
  token: string | null;
  tokenMade: boolean;
  intervalMs: number;
  checkEveryMs: number;
  timeoutMs: number;
  fleet?: string;
}

function serveOptions(ctx: Context, args: ParsedArgs): ServeOptions {
  if (args.positionals.length > 0) throw new UsageError(t('usage.serve.noArgs', { arg: args.positionals[0] ?? '' }));
  const host = str(args, 'host') ?? '127.0.0.1';
  if (host.trim() === '' || /[\s/]/.test(host)) throw new UsageError(t('usage.serve.host', { value: host }));
  const portText = str(args, 'port') ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(t('usage.serve.port', { value: portText }));
  const fleet = str(args, 'fleet');
  if (fleet !== undefined && fleet.trim() === '') throw new UsageError(t('usage.serve.fleetEmpty'));
  if (fleet !== undefined && !ctx.files.exists(fleet))
    throw new UsageError(t('usage.serve.fleetMissing', { dir: fleet }));
  const intervalMs =
    seconds(args, 'interval', fleet !== undefined ? DEFAULT_FLEET_INTERVAL_S : DEFAULT_INTERVAL_S, 0.5, 86_400) * 1000;
  const checkS = seconds(args, 'check-interval', DEFAULT_CHECK_INTERVAL_S, 0, 86_400);
  if (checkS > 0 && checkS < 5) throw new UsageError(t('usage.serve.checkInterval'));
  const timeoutMs = seconds(args, 'timeout', DEFAULT_PROBE_OPTIONS.timeoutMs / 1000, 0.5, 3600) * 1000;
  const loopback = isLoopbackHost(host);
  const tokenFile = str(args, 'token-file');
  let token: string | null = null;
  let tokenMade = false;
  if (tokenFile !== undefined) {
    token = ctx.files.readText(tokenFile, 4096).trim();
    if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token))
      throw new UsageError(t('serve.tokenShort', { file: tokenFile, min: MIN_TOKEN_LENGTH }));
  } else if (!loopback) {
    token = newToken();
    tokenMade = true;
  }
  return {
    host,
    port,
    loopback,
    token,
    tokenMade,
    intervalMs,
    checkEveryMs: checkS * 1000,
    timeoutMs,
    ...(fleet !== undefined ? { fleet } : {}),
  };
}

function seconds(args: ParsedArgs, name: string, dflt: number, min: number, max: number): number {
  const text = str(args, name);
  if (text === undefined) return dflt;
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || n < min || n > max)
    throw new UsageError(t('usage.serve.seconds', { name, min, max, value: text }));
  return n;
}

function listenError(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new UsageError(t('usage.serve.portInUse', { host, port }));
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new UsageError(t('usage.serve.noAddress', { host }));
  if (code === 'EACCES') return new UsageError(t('usage.serve.denied', { host, port }));
  return err instanceof Error ? err : new Error(String(err));
}

function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

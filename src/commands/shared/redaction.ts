// --redact in a command: the one redactor (src/report/redact.ts), seeded with what the command is about to show, with
// whoever runs it ($USER, $HOME), and with the people among this machine's accounts (/etc/passwd under --root: their
// names and the home folders that are not named after them, which snapshots do not carry). A command redacts its model
// once, before any format renders it, so terminal, JSON, Markdown, HTML and Prometheus output agree by construction.
import { flag, type ParsedArgs } from '../../cli/args.js';
import type { Context } from '../../ports/context.js';
import { readTextOr } from '../../ports/fs.js';
import { createRedactor, knownFromPasswd, redactDeep, type Known, type Redactor } from '../../report/redact.js';

/** The redactor for this invocation, or null without --redact. `seed`: the model(s) about to be shown. */
export function redactorFor(
  ctx: Context,
  args: ParsedArgs,
  seed?: unknown,
  extra: readonly Known[] = [],
): Redactor | null {
  if (!flag(args, 'redact')) return null;
  return createRedactor(seed, [
    ...extra,
    ...invoker(ctx.env),
    ...knownFromPasswd(readTextOr(ctx.fs, '/etc/passwd', 16 * 1024 * 1024) ?? ''),
  ]);
}

/** Whoever runs the tool (also with --no-machine, and where /etc/passwd does not list them: LDAP, containers). */
function invoker(env: Record<string, string | undefined>): Known[] {
  const user = env.USER ?? env.LOGNAME;
  if (!user) return [];
  return [
    { kind: 'user', value: user },
    ...(env.HOME ? [{ kind: 'home' as const, value: env.HOME, owner: user }] : []),
  ];
}

/** `value` as it may be shown: redacted when there is a redactor. */
export function shown<T>(r: Redactor | null, value: T): T {
  return r ? redactDeep(value, r) : value;
}

/** One line of text as it may be shown (a file name we echo, a message we print). */
export function shownText(r: Redactor | null, s: string): string {
  return r ? r.text(s) : s;
}

// Which environment settings a diagnosis calls for, taken from the findings: the `export NAME=VALUE` /
// `unset NAME` lines checks put in their fix commands, and the default remedy of a root cause.
// Only the allocation-policy variables in env-settings.json are written to the env file; anything else
// (LD_LIBRARY_PATH, CUDA_VISIBLE_DEVICES, ...) changes what runs, so it stays a printed suggestion. Pure.
import type { Finding } from '../finding.js';
import table from '../../knowledge/fix/env-settings.json' with { type: 'json' };

export interface EnvSetting {
  name: string;
  /** null: unset it */
  value: string | null;
  /** the check that asked for it, and why, for the comment in the file */
  check: string;
  why: string;
}

const ALLOWED = new Map(table.variables.map((v) => [v.name, new RegExp(v.value)]));

export function isAllowedSetting(name: string, value: string | null): boolean {
  const re = ALLOWED.get(name);
  return re !== undefined && (value === null || re.test(value));
}

/** `export NAME=VALUE` (VALUE bare or in one kind of quotes) or `unset NAME`; anything else is not a setting. */
export function parseSettingCommand(cmd: string): { name: string; value: string | null } | null {
  const t = cmd.trim();
  const ex = /^export\s+([A-Za-z_][A-Za-z0-9_]*)=(?:'([^']*)'|"([^"$`\\]*)"|([^\s'"$`\\;&|<>()]*))$/.exec(t);
  if (ex) return { name: ex[1]!, value: ex[2] ?? ex[3] ?? ex[4] ?? '' };
  const un = /^unset\s+([A-Za-z_][A-Za-z0-9_]*)$/.exec(t);
  if (un) return { name: un[1]!, value: null };
  return null;
}

/** The settings one finding asks for: its allowed fix commands, else its root cause's default remedy. */
export function settingsFor(f: Finding): EnvSetting[] {
  const why = f.message.length > 100 ? `${f.message.slice(0, 99)}…` : f.message;
  const fromCommands: EnvSetting[] = [];
  for (const c of f.fix?.commands ?? []) {
    const s = parseSettingCommand(c);
    if (s && isAllowedSetting(s.name, s.value)) fromCommands.push({ ...s, check: f.check, why });
  }
  if (fromCommands.length > 0) return fromCommands;
  const fw = f.affects?.framework;
  return table.byRootCause
    .filter((r) => r.rootCause === f.rootCause && (fw === undefined || r.framework === fw))
    .map((r) => ({ name: r.name, value: r.value, check: f.check, why }));
}

/** The commands of a finding that are settings fix writes to the env file (not shown again as "run yourself"). */
export function isAbsorbedCommand(cmd: string): boolean {
  const s = parseSettingCommand(cmd);
  return s !== null && isAllowedSetting(s.name, s.value);
}

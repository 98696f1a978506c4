// Fix actions in the syntax of the shell that will run them. A fix says what to do (set a variable, end a
// process, put a folder on the library search path, install a package); bash, cmd and PowerShell each write
// it differently, and a line in the wrong syntax does something else or nothing:
//   cmd keeps quotes and a trailing "# comment" in a value (`set X=1  # note` sets X to "1  # note"),
//   PowerShell's `where` is Where-Object (where.exe is the program), single quotes do not quote in cmd,
//   Windows finds DLLs through PATH (LD_LIBRARY_PATH means nothing there), and `kill` is not a cmd command.
// Pure: no I/O. Also reads back the bash forms the tool itself writes, so existing fixes can be re-rendered.

export type Shell = 'bash' | 'cmd' | 'powershell';
/** Where the fix runs: a Linux shell, WSL (a Linux shell whose GPU driver lives in Windows), native Windows. */
export type Platform = 'linux' | 'wsl' | 'windows';

export type FixAction =
  | { kind: 'set-env'; name: string; value: string }
  | { kind: 'unset-env'; name: string }
  | { kind: 'show-env'; name: string }
  | { kind: 'end-process'; pid: number }
  | { kind: 'show-process'; pid: number }
  | { kind: 'prepend-library-path'; dir: string }
  | { kind: 'install'; tool: 'pip' | 'conda'; args: string[] }
  | { kind: 'find-library'; name: string };

/** The shells whose lines a fix shows on a platform: native Windows gets cmd (Anaconda Prompt) and PowerShell. */
export function shellsFor(p: Platform): Shell[] {
  return p === 'windows' ? ['cmd', 'powershell'] : ['bash'];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function bashQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

/** cmd: `set "NAME=value"` protects & | < > ^ and spaces; the quotes are not part of the value in this form. */
function cmdSet(name: string, value: string): string {
  return /^[\w@+=:,./\\-]*$/.test(value) ? `set ${name}=${value}` : `set "${name}=${value.replace(/"/g, '')}"`;
}

/** PowerShell double-quoted strings expand $ and backticks: escape them (and ") with a backtick. */
function psString(s: string): string {
  return `"${s.replace(/[`$"]/g, (c) => `\`${c}`)}"`;
}

/**
 * An argument for pip/conda: quoted when it holds [ ] < > * or spaces (brackets are globs in bash, < > redirect
 * everywhere).
 */
function argQuote(a: string, shell: Shell): string {
  if (/^[\w@+=:,./\\-]+$/.test(a) || /^-/.test(a)) return a;
  return shell === 'bash' ? bashQuote(a) : `"${a.replace(/"/g, '')}"`;
}

/** One action as one line of `shell`. */
export function render(a: FixAction, shell: Shell): string {
  switch (a.kind) {
    case 'set-env':
      if (!NAME.test(a.name)) throw new Error(`not a variable name: ${a.name}`);
      return shell === 'bash'
        ? `export ${a.name}=${bashQuote(a.value)}`
        : shell === 'cmd'
          ? cmdSet(a.name, a.value)
          : `$env:${a.name}=${psString(a.value)}`;
    case 'unset-env':
      if (!NAME.test(a.name)) throw new Error(`not a variable name: ${a.name}`);
      return shell === 'bash' ? `unset ${a.name}` : shell === 'cmd' ? `set ${a.name}=` : `Remove-Item Env:${a.name}`;
    case 'show-env':
      if (!NAME.test(a.name)) throw new Error(`not a variable name: ${a.name}`);
      return shell === 'bash'
        ? `echo "${a.name}=$${a.name}"`
        : shell === 'cmd'
          ? `echo ${a.name}=%${a.name}%`
          : `echo "${a.name}=$env:${a.name}"`;
    case 'end-process':
      // taskkill without /F only asks a window to close: a console python.exe ignores that
      return shell === 'bash' ? `kill ${a.pid}` : `taskkill /PID ${a.pid} /F`;
    case 'show-process':
      return shell === 'bash' ? `ps -o pid,user,etime,cmd -p ${a.pid}` : `tasklist /V /FI "PID eq ${a.pid}"`;
    case 'prepend-library-path':
      if (shell === 'bash') return `export LD_LIBRARY_PATH=${bashQuote(a.dir)}\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}`;
      return shell === 'cmd'
        ? `set "PATH=${a.dir.replace(/"/g, '')};%PATH%"`
        : `$env:PATH=${psString(a.dir).slice(0, -1)};$env:PATH"`;
    case 'install':
      return [a.tool, ...a.args.map((x) => argQuote(x, shell))].join(' ');
    case 'find-library':
      // where.exe searches PATH in the order LoadLibrary does (after the application's own folder)
      return shell === 'bash' ? `ldconfig -p | grep -F ${bashQuote(a.name)}` : `where.exe ${a.name}`;
  }
}

/** The action on every shell of the platform, one line each (duplicates removed). */
export function renderFor(a: FixAction, p: Platform): string[] {
  return [...new Set(shellsFor(p).map((s) => render(a, s)))];
}

/**
 * Read back a command in the bash forms this tool writes (`export NAME=VALUE`, `unset NAME`, `kill PID`,
 * `export LD_LIBRARY_PATH=DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}`, `pip install …`, `conda install …`);
 * null for anything else. A trailing `# comment` is ignored (it is prose for bash readers).
 */
export function parseBashAction(cmd: string): FixAction | null {
  const t = cmd.replace(/\s+#\s.*$/, '').trim();
  let m =
    /^export\s+LD_LIBRARY_PATH=(?:'([^']*)'|([^\s'"$`\\;&|<>()]+))\$\{LD_LIBRARY_PATH:\+:\$LD_LIBRARY_PATH\}$/.exec(t);
  if (m) return { kind: 'prepend-library-path', dir: m[1] ?? m[2]! };
  m = /^export\s+([A-Za-z_][A-Za-z0-9_]*)=(?:'([^']*)'|"([^"$`\\]*)"|([^\s'"$`\\;&|<>()]*))$/.exec(t);
  if (m) return { kind: 'set-env', name: m[1]!, value: m[2] ?? m[3] ?? m[4] ?? '' };
  m = /^unset\s+([A-Za-z_][A-Za-z0-9_]*)$/.exec(t);
  if (m) return { kind: 'unset-env', name: m[1]! };
  m = /^kill\s+(\d+)$/.exec(t);
  if (m) return { kind: 'end-process', pid: Number(m[1]) };
  m = /^echo\s+"([A-Za-z_][A-Za-z0-9_]*)=\$\1"$/.exec(t);
  if (m) return { kind: 'show-env', name: m[1]! };
  m = /^ps -o [\w,]+ -p (\d+)$/.exec(t);
  if (m) return { kind: 'show-process', pid: Number(m[1]) };
  m = /^(pip|conda)\s+(install\b.*)$/.exec(t);
  if (m && !/[|;&<>`$]|\$\(/.test(m[2]!.replace(/'[^']*'|"[^"]*"/g, ''))) {
    const args = (m[2]!.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((x) => x.replace(/^'(.*)'$|^"(.*)"$/, '$1$2'));
    return { kind: 'install', tool: m[1] as 'pip' | 'conda', args };
  }
  return null;
}

/** The `# comment` a bash command carries, for shells where it can be kept (bash, PowerShell), else ''. */
export function trailingComment(cmd: string, shell: Shell): string {
  const m = /\s+(#\s.*)$/.exec(cmd);
  return m && shell !== 'cmd' ? `    ${m[1]}` : '';
}

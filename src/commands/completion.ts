// `completion bash|zsh|fish`: a completion script built from the command list and the one option table,
// so it can never offer an option a command refuses.
import { UsageError } from '../base/errors.js';
import { ACCEPTS, OPTIONS, optionHelp, optionSpec, type OptionDef, type OptionName } from '../cli/options.js';
import { COMMANDS, type Command } from '../cli/registry.js';
import { t } from '../base/i18n/index.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export const command: Command = {
  name: 'completion',
  get summary() {
    return t('cmd.completion.summary');
  },
  synopsis: 'completion bash|zsh|fish',
  get description() {
    return t('cmd.completion.description');
  },
  get examples(): [string, string][] {
    return [
      ['source <(gpu-env-doctor completion bash)', t('cmd.completion.example1')],
      ['gpu-env-doctor completion zsh > "${fpath[1]}/_gpu-env-doctor"', t('cmd.completion.example2')],
      ['gpu-env-doctor completion fish > ~/.config/fish/completions/gpu-env-doctor.fish', t('cmd.completion.example3')],
    ];
  },
  get exitCodes() {
    return t('cmd.completion.exitCodes');
  },
  options: optionSpec('completion'),
  async run(ctx, args) {
    const shell = args.positionals[0];
    if (shell === undefined || args.positionals.length > 1 || !(SHELLS as readonly string[]).includes(shell)) {
      throw new UsageError(
        shell === undefined ? t('usage.completion.needsShell') : t('usage.completion.unknownShell', { shell }),
      );
    }
    ctx.stdout.write(completionScript(shell as (typeof SHELLS)[number]));
    return 0;
  },
};

interface Opt {
  long: string;
  short?: string;
  takesValue: boolean;
  choices: readonly string[];
  complete?: 'file' | 'dir';
  help: string;
}

function optionsOf(cmd: string): Opt[] {
  return (ACCEPTS[cmd] ?? []).map((name) => {
    const d: OptionDef = OPTIONS[name];
    return {
      long: name,
      ...(d.short ? { short: d.short } : {}),
      takesValue: d.type === 'string',
      choices: d.choices ?? [],
      ...(d.complete ? { complete: d.complete } : {}),
      help: optionHelp(name as OptionName),
    };
  });
}

export function completionScript(shell: (typeof SHELLS)[number]): string {
  const cmds = Object.keys(COMMANDS);
  if (shell === 'bash') return bash(cmds);
  if (shell === 'zsh') return zsh(cmds);
  return fish(cmds);
}

function bash(cmds: string[]): string {
  const cases = cmds.map((c) => {
    const opts = optionsOf(c);
    const words = opts.flatMap((o) => [`--${o.long}`, ...(o.short ? [`-${o.short}`] : [])]).join(' ');
    const values = opts
      .filter((o) => o.takesValue)
      .map(
        (o) =>
          `      --${o.long}) ` +
          `${
            o.choices.length > 0
              ? `COMPREPLY=($(compgen -W "${o.choices.join(' ')}" -- "$cur"))`
              : o.complete === 'dir'
                ? ('COMPREPLY=($(compgen ' + '-d -- "$cur"))')
                : ('COMPREPLY=($(compgen ' + '-f -- "$cur"))')
          }; ` +
          `return ;;`,
      )
      .join('\n');
    return `    ${c})\n      case "$prev" in\n${values}\n      esac\n      opts="${words}" ;;`;
  });
  return `# bash completion for gpu-env-doctor (gpu-env-doctor completion bash)
_gpu_env_doctor() {
  local cur prev cmd opts i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd=check
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  if [[ $COMP_CWORD -eq 1 && "$cur" != -* ]]; then
    COMPREPLY=($(compgen -W "${cmds.join(' ')} help" -- "$cur"))
    return
  fi
  case "$cmd" in
${cases.join('\n')}
    *) opts="" ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _gpu_env_doctor gpu-env-doctor
`;
}

function zshQuote(s: string): string {
  return s.replace(/'/g, "'\\''").replace(/:/g, '\\:').replace(/\[/g, '\\[').replace(/\]/g, '\\]');
}

function zsh(cmds: string[]): string {
  const fns = cmds.map((c) => {
    const specs = optionsOf(c).map((o) => {
      const values =
        o.choices.length > 0 ? `(${o.choices.join(' ')})` : o.complete === 'dir' ? '_directories' : '_files';
      const action = o.takesValue ? `:${o.long}:${values}` : '';
      const names = o.short ? `'(-${o.short} --${o.long})'{-${o.short},--${o.long}}'` : `'--${o.long}`;
      return `    ${names}[${zshQuote(o.help)}]${action}'`;
    });
    return (
      `_gpu_env_doctor_${c.replace(/-/g, '_')}() {\n  _arguments -s \\\n${specs.join(' \\\n')} \\\n    ` +
      `'*:file:_files'\n}`
    );
  });
  const list = cmds.map((c) => `    '${c}:${zshQuote(COMMANDS[c]!.summary)}'`).join('\n');
  return `#compdef gpu-env-doctor
# zsh completion for gpu-env-doctor (gpu-env-doctor completion zsh)
${fns.join('\n')}
_gpu_env_doctor() {
  local -a commands
  commands=(
${list}
  )
  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
    _describe 'command' commands
    return
  fi
  local cmd=check
  [[ $words[2] != -* ]] && cmd=$words[2] && shift words && (( CURRENT-- ))
  (( $+functions[_gpu_env_doctor_$cmd] )) && _gpu_env_doctor_$cmd
}
compdef _gpu_env_doctor gpu-env-doctor
`;
}

function fish(cmds: string[]): string {
  const out = [
    '# fish completion for gpu-env-doctor (gpu-env-doctor completion fish)',
    'complete -c gpu-env-doctor -f',
  ];
  for (const c of cmds)
    out.push(
      `complete -c gpu-env-doctor -n __fish_use_subcommand -a ${c} -d '${COMMANDS[c]!.summary.replace(/'/g, "\\'")}'`,
    );
  for (const c of cmds) {
    for (const o of optionsOf(c)) {
      const cond =
        c === 'check'
          ? `'__fish_use_subcommand; or __fish_seen_subcommand_from check'`
          : `'__fish_seen_subcommand_from ${c}'`;
      const val = o.takesValue
        ? o.choices.length > 0
          ? ` -x -a '${o.choices.join(' ')}'`
          : o.complete
            ? ' -r -F'
            : ' -x'
        : '';
      out.push(
        `complete -c gpu-env-doctor -n ${cond} -l ${o.long}${o.short ? ` -s ${o.short}` : ''}${val} -d ` +
          `'${o.help.replace(/'/g, "\\'")}'`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

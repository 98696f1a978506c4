// The English catalog: every human-facing sentence of the tool, by key. Format: ./format.ts ({slot},
// {n, plural, one {…} other {…}}, {x, select, …}). Keys are grouped by where the text is shown. The Chinese
// catalog (./zh.ts) has the same keys with the same slots (test/i18n/catalog.test.ts); terms follow
// docs/zh/GLOSSARY.md. Commands, file names, ids, flags and quoted error lines are slots, not text.
export const en = {
  // list joins (items of a list, never pieces of a sentence)
  'list.semicolon': '; ',
  'list.comma': ', ',
  'list.sentence': ' ',

  // labels every reporter prints around a finding (src/report/labels.ts)
  'label.fix': 'Fix:',
  'label.gap': ' ',
  'label.actNote': 'shows the plan and asks first',
  'label.byHand': 'By hand, after checking:',
  'label.heldBy': 'Held by:',
  'label.about': 'About this finding:',
  'label.ids': 'ids:',
  'label.evidence': 'Evidence',
  'label.details': 'details',
  'label.rank': '{n}.',
  'label.logLine': 'line {n}:',
  'label.logLineWhere': 'line {n}',
  'label.machineFact': 'this machine:',
  'label.machineFactWhere': 'this machine',
  'label.noProblems': 'No problems found.',
  'label.skipped': 'skipped',
  'label.notChecked': 'not checked',
  'certainty.verified': 'seen',
  'certainty.expected': 'expected',
  'certainty.possible': 'possible',

  'title.live': 'gpu-env-doctor {command} on {host}',
  'title.fromSnapshot': 'gpu-env-doctor {command} of the snapshot {file}',
  'title.snapshotLine': 'host {host}, taken {taken} ({ago} ago); ages are as of that moment',
  'title.detailsHint': 'details: {command} -v',
  'title.noGpuVerdict': 'No GPU visible: GPU checks were skipped',
  'title.standardInput': 'standard input',

  'mark.ok': 'ok',
  'mark.warn': 'warning',
  'mark.fail': 'error',
  'mark.unknown': 'unknown',
  'mark.skip': 'skipped',

  'summary.counts':
    '{errors, plural, one {# error} other {# errors}}, {warnings, plural, one {# warning} other {# warnings}}',
  'summary.unknown': '{n} unknown',
  'summary.ignored': '{n} accepted (ignored by --ignore or the config file)',
  'summary.ignoredChecks': 'not judged: {checks} (ignored by {by})',
  'summary.byConfig': 'the config file {file}',
  'config.notReading': 'not reading {file}: {why}; give --config {file} to use it anyway',
  'config.cannotRead': 'cannot read the config {file}: {why}',
  'config.notJson': 'config {file}: not valid JSON',
  'config.notObject': 'config {file}: not a JSON object',
  'config.why.missing': 'no such file',
  'config.why.link': 'it is a symbolic link',
  'config.why.notFile': 'it is not a regular file',
  'config.why.owner': 'it belongs to another user (uid {uid})',
  'config.why.writable': 'other users can write it (mode {mode})',
  'config.why.large': 'it is too large ({size} bytes; at most {max})',
  'summary.checks': '{n, plural, one {# check} other {# checks}}',
  'summary.slowest': 'slowest probe {ms} ms',
  'summary.noGpu': 'no GPU visible, so the GPU checks were skipped',
  'summary.belowThreshold': 'exit 0 (warnings fail only with --fail-on warn)',
  'summary.exit0': 'exit 0',

  // the areas of check's report (src/judge/checks/check.ts)
  'category.gpu': 'GPU & driver',
  'category.memory': 'GPU memory & processes',
  'category.libraries': 'CUDA libraries',
  'category.python': 'Python & frameworks',
  'category.versions': 'Versions & compatibility',
  'category.env': 'Environment variables',
  'category.system': 'System',
  'area.line': '{area}: {text}',
  'area.noProblem': 'no problem found',
  'area.problems': '{n} problems',
  'area.namedBelow': '{title}: named in the finding below',
  'area.below': '{text} (below)',

  // the root causes, in reports and explain (src/knowledge/root-causes.ts)
  'cause.gpu_memory_exhausted': 'The job itself does not fit in GPU memory',
  'cause.memory_held_by_other_process': 'Another process holds the GPU memory',
  'cause.framework_preallocation': 'A framework reserved most of the memory up front',
  'cause.allocator_fragmentation': "PyTorch's cached memory is fragmented",
  'cause.cudnn_version_mismatch': 'The cuDNN that loads does not match the framework build',
  'cause.cuda_toolkit_mismatch': 'The CUDA runtime does not match the framework build',
  'cause.driver_too_old': 'The NVIDIA driver is too old for the CUDA in use',
  'cause.library_missing': 'A needed shared library is missing',
  'cause.library_conflict': 'Two copies of a library compete',
  'cause.gpu_arch_unsupported': "The build has no code for this GPU's architecture",
  'cause.no_device_visible': 'No GPU is visible to the process',
  'cause.hardware_or_driver_fault': 'A hardware or driver fault',
  'cause.configuration_invalid': 'A setting the framework rejects or ignores',
  'cause.framework_bug': 'A defect in the framework',
  'cause.other': 'Another cause',

  // help (src/cli/help.ts)
  'help.usage': 'Usage: {tool} {synopsis}',
  'help.options': 'Options:',
  'help.examples': 'Examples:',
  'help.exitCodes': 'Exit codes: {text}',
  'help.env.config': 'the config file (see --config)',
  'help.env.noCache': "1: keep no cache of the library scan's answers (see FILES)",
  'help.env.cacheHome': 'where the cache folder is (default ~/.cache)',
  'help.env.noColor': 'no colour in the output',
  'help.files.scanCache':
    "the library scan's last answers, each with every file, folder, link and variable it read: reused only when " +
    'all of them are unchanged; trusted only when owned by you and writable by no one else',
  'help.learnMore':
    'Learn more: every finding has a page in {dir} (its id is shown with -v); the README has the whole tour.',
  'help.tagline': '{tool} {version}: why your GPU deep-learning job failed, and how to fix it.',
  'help.globalUsage': 'Usage: {tool} [COMMAND] [OPTIONS]',
  'help.commands': 'Commands:',
  'help.commonOptions': 'Options most commands take (each command --help lists its own):',
  'help.more': 'More: {tool} help COMMAND (or COMMAND --help); {tool} completion bash|zsh|fish; {tool} --version.',
  'help.globalExit':
    'Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 usage error or failure of the tool.',

  // errors of main() (src/cli/main.ts)
  'error.lang': '--lang {value}: unknown language (en or zh)',
  'error.noRoot': '--root {root}: no such folder',
  // usage errors of the commands: translated like every message (one line on stderr, exit 2)
  'usage.noSuchFile': 'no such file',
  // refusals of bad input raised below cli/ (InputError: a key and its params), worded at the boundary
  'usage.spec.noVersion':
    '"{spec}" has no version: write it like torch==2.1.0+cu121, tensorflow==2.12, jax[cuda12]==0.4.30 or ' +
    'paddlepaddle-gpu==2.6.1.post120',
  'usage.spec.malformed':
    '"{spec}" is not a framework spec: write it like torch==2.1.0+cu121, tensorflow==2.12, jax[cuda12]==0.4.30 or ' +
    'paddlepaddle-gpu==2.6.1.post120',
  'usage.spec.unknownFramework': 'unknown framework "{name}" (known: torch, tensorflow, jax, paddlepaddle-gpu)',
  'usage.spec.badVersion': '"{version}" is not a version (in "{spec}")',
  'usage.spec.paddleVariant': '"+{variant}" is not a PaddlePaddle CUDA build (like .post120 or +cu126)',
  'usage.spec.paddleCpu':
    'the paddlepaddle package is the CPU build; the CUDA builds are paddlepaddle-gpu (in "{spec}")',
  'usage.spec.torchVariant': '"+{variant}" is not a PyTorch build variant (like +cu121 or +cpu)',
  'usage.spec.unknownVersion': "{framework} {version} is not in gpu-env-doctor's data (known: {oldest} to {newest})",
  'usage.spec.torchNoBuild': 'torch {version} has no +{variant} build (builds: {builds})',
  'usage.spec.jaxNoBuild': 'jax {version} has no [{variant}] build (builds: {builds})',
  'usage.spec.paddleNoBuild': 'paddlepaddle-gpu {version} has no {variant} build on {platform} (builds: {builds})',
  'usage.version.notVersion': '"{value}" is not a version number',
  'usage.version.notRange': '"{range}" is not a version range',
  'usage.version.compatibleRelease': '"{range}": ~= needs at least two version parts',
  'usage.version.notCuda': '"{value}" is not a CUDA version (like 12.4)',
  'usage.version.notDriver': '"{value}" is not a driver version (like 535.104.05)',
  'usage.version.notCc': '"{value}" is not a compute capability (like 8.6 or sm_86)',
  'usage.file.isDir': '{file} is a directory, not a file',
  'usage.file.tooLarge': '{file} is too large ({size} bytes; at most {max})',
  'usage.file.tooLargeRead': '{file} is too large (more than {max} bytes)',
  'usage.file.cannotRead': 'cannot read {file}: {reason}',
  'usage.file.cannotWrite': 'cannot write {file}: {reason}',
  'usage.file.changed': '{file} changed while being read: not written',
  'usage.file.tooLargeSettings': '{file} is too large ({size} bytes; at most {max}): not a settings file fix wrote',
  'usage.file.notText': '{file} is not a text file: fix rewrites only text it can keep intact',
  'usage.file.notUtf8': '{file} is not UTF-8 text: fix rewrites only text it can keep intact',
  'usage.from.notJson': '{file} is not JSON ({reason})',
  'usage.from.tooDeep': '{file} is not a gpu-env-doctor snapshot: it nests deeper than {max} levels',
  'usage.from.invalid': '{file} is not a gpu-env-doctor snapshot: {reason}',
  'usage.from.invalidAt': '{file} is not a gpu-env-doctor snapshot: {reason} at {path}',
  'usage.check.noArgs': 'check takes no arguments (got "{arg}"; see gpu-env-doctor check --help)',
  'usage.check.quietFormat': '--quiet goes with the text report, not --format {format}',
  'usage.fleet.needsFiles': 'fleet needs snapshot files or folders (see gpu-env-doctor fleet --help)',
  'usage.fleet.noneRead': 'no snapshot could be read',
  'usage.fleet.noneReadWhy': 'no snapshot could be read ({file}: {reason})',
  'usage.fleet.noneReadWhyMore': 'no snapshot could be read ({file}: {reason}; and {n} more)',
  'usage.diff.count': 'diff takes one or two snapshot files (got {n}); see gpu-env-doctor diff --help',
  'usage.diff.twoStdin': 'only one of the two snapshots can come from standard input',
  'usage.explain.needsLog': 'explain needs a log: give a FILE (or several), pipe it in, or "-" to paste it',
  'usage.explain.framework': '--framework must be tensorflow, pytorch, jax or paddle, not "{value}"',
  'usage.explain.noMachineFrom': '--no-machine and --from contradict each other: choose one',
  'usage.explain.stdinOnce': 'standard input ("-") can be read only once',
  'usage.explain.stdinBoth': 'standard input cannot be both the log and the --from snapshot',
  'usage.explain.elf':
    '{file} is a program or library (ELF), not a log: to see which CUDA libraries it loads, gpu-env-doctor libs ' +
    '--elf {file}',
  'usage.explain.snapshot':
    '{file} is a gpu-env-doctor snapshot, not a log: judge it with gpu-env-doctor check --from {file}, or explain a ' +
    'log with the facts in it: gpu-env-doctor explain LOG --from {file}',
  'usage.explain.gzip': 'cannot read {file}: not valid gzip ({why})',
  'usage.fix.noArgs': 'fix takes no arguments (got "{arg}")',
  'usage.fix.grace': '--grace must be a number of seconds from 0 to 600, not "{value}"',
  'usage.fix.envOut': '--env-out must name a file, not "{value}"',
  'usage.serve.noArgs': 'serve takes no arguments (got "{arg}"; for many machines: --fleet DIR)',
  'usage.serve.host': '--host must be an address to listen on, not "{value}"',
  'usage.serve.port': '--port must be a whole number from 0 to 65535, not "{value}"',
  'usage.serve.fleetEmpty': '--fleet needs a folder',
  'usage.serve.fleetMissing': '--fleet {dir}: no such folder',
  'usage.serve.checkInterval':
    '--check-interval must be 0 (never) or at least 5 seconds: the checks read the whole machine',
  'usage.serve.seconds': '--{name} takes a number of seconds from {min} to {max}, not "{value}"',
  'usage.serve.portInUse': 'cannot listen on {host}:{port}: the port is in use (choose another with --port)',
  'usage.serve.noAddress': 'cannot listen on {host}: no such address on this machine',
  'usage.serve.denied': 'cannot listen on {host}:{port}: permission denied (ports below 1024 need root)',
  'usage.compat.needsSpec': 'compat needs a SPEC, like torch==2.1.0+cu121',
  'usage.compat.oneSpec': 'compat takes one SPEC (got {n})',
  'usage.compat.platform': '--platform must be linux or windows, not "{value}"',
  'usage.compat.noMachineFrom': '--no-machine and --from cannot be used together',
  'usage.preamble.noArgs': 'preamble takes no arguments (got "{arg}"); use --framework',
  'usage.preamble.needsFramework': 'preamble needs --framework ({list})',
  'usage.preamble.framework': '--framework must be one of {list}, not "{value}"',
  'usage.procs.noArgs': 'procs takes no arguments (got "{arg}")',
  'usage.procs.watchOnly': '--count and --interval go with --watch',
  'usage.procs.watchFrom': '--watch needs this machine: a saved snapshot (--from) never changes',
  'usage.procs.watch': '--watch takes a number of seconds (0.1 or more), not "{value}"',
  'usage.procs.count': '--count must be a whole number of 1 or more, not "{value}"',
  'usage.libs.noArgs': 'libs takes no arguments (got "{arg}"); use --elf FILE to resolve a file',
  'usage.libs.pid': '--pid must be a process id, not "{value}"',
  'usage.libs.noPid': '--pid {pid}: no such process',
  'usage.libs.elf': '--elf {file}: {why}',
  'usage.libs.withFrom': '--pid and --elf inspect this machine; they cannot be used with --from',
  'usage.libs.noFacts': 'this snapshot has no library facts (it was made without the libraries probe)',
  'usage.snapshot.noArgs': 'snapshot takes no arguments (got "{arg}")',
  'usage.run.after': 'put the command after --: gpu-env-doctor run -- {cmd}',
  'usage.run.none': 'no command to run (gpu-env-doctor run -- COMMAND [ARGS...])',
  'usage.run.before': 'unexpected "{arg}" before --',
  'usage.run.reportExt': '--report {file}: name the file .json, .md or .html (its format follows the extension)',
  'usage.wholeNumber': '--{name} must be a whole number from {min} to {max}, not "{value}"',
  'usage.mcp.noArgs': 'mcp takes no arguments (got "{arg}")',
  'usage.completion.needsShell': 'completion needs a shell: bash, zsh or fish',
  'usage.completion.unknownShell': 'completion: unknown shell "{shell}" (bash, zsh or fish)',
  'usage.timeout': '--timeout must be a number of seconds greater than 0, not "{value}"',
  'usage.python': '--python {path}: no such file or folder',
  'usage.pythonRoot': '--python {path}: no such file or folder under --root {root}',
  'usage.stdinTooLarge': 'standard input is too large (more than {max} bytes)',
  'usage.deep': '--deep takes no value or "frameworks" (got "{value}")',
  'usage.user': '--user needs a user name or a uid',
  'usage.gpu': '--gpu takes GPU indexes or UUIDs separated by commas (e.g. 0,2 or GPU-86cd2dae), not "{value}"',
  'usage.config.unknownKey': 'config {file}: unknown key "{key}" (ignore, failOn)',
  'usage.config.ignoreList': 'config {file}: "ignore" must be a list of check ids',
  'usage.config.failOn': 'config {file}: "failOn" must be "error" or "warn"',
  'usage.config.unknownCheck':
    'config {file}: unknown check "{id}"{hasGuess, select, yes { (did you mean {guess}?)} other {}}; check -v shows ' +
    "each finding's id",
  'usage.config.unknownIgnored':
    '--ignore unknown check "{id}"{hasGuess, select, yes { (did you mean {guess}?)} other {}}; check -v shows each ' +
    "finding's id",
  'error.unknownCommand': 'unknown command "{name}" (see {tool} --help)',
  'error.unknownCommandGuess': 'unknown command "{name}" (did you mean {guess}? see {tool} --help)',
  'error.internal': 'internal error: {message}',
  'error.bug':
    'This is a bug in {tool} {version}. Please report it with: the command you ran, Node {node} on {platform}, and ' +
    'the output of the same command with -v.',

  // options (src/cli/options.ts): one line each for --help and completion
  'option.help': 'this help',
  'option.verbose': 'every fact, the check ids, and how long each probe took',
  'option.quiet': 'only the problems; nothing at all when there is none (for "before every job")',
  'option.json': 'only JSON on stdout',
  'option.markdown': 'a report to paste into a GitHub issue',
  'option.html': 'also write a self-contained HTML report to FILE',
  'option.redact': 'hide user and host names, home folders, addresses, GPU UUIDs and serials, secrets',
  'option.color': 'colour: always, never or auto (default: auto, a terminal without NO_COLOR)',
  'option.no-color': 'no colour (also NO_COLOR; FORCE_COLOR=1 forces it)',
  'option.from': 'judge a saved snapshot (or check --json output) instead of this machine',
  'option.no-machine': 'judge the input alone, without looking at this machine',
  'option.root': 'read /proc, /sys, /etc and library folders under DIR (an existing folder)',
  'option.fail-on': 'error (default) or warn: the lowest severity that makes the exit code 1',
  'option.ignore': 'accept the findings of CHECK (a check id, see -v); repeatable; also "ignore" in the config file',
  'option.config':
    'the config file (default: $GPU_ENV_DOCTOR_CONFIG, else ./.gpu-env-doctor.json, else ' +
    '~/.config/gpu-env-doctor/config.json)',
  'option.format': 'text, json or markdown (check also: prometheus, node_exporter textfile metrics)',
  'option.timeout': 'give up on a probe (nvidia-smi, a Python interpreter) after SECONDS (default 10)',
  'option.deep':
    "--deep: a native cuDNN smoke test (load each framework's CUDA libraries, create cuDNN's handle, run a small " +
    'convolution: ~1 s); --deep=frameworks: also import each framework and run its own convolution (seconds); only ' +
    'in the environments you run or name (active, PATH, --python)',
  'option.python': 'a Python interpreter to inspect (an existing file); repeatable',
  'option.all-envs':
    'inspect every conda environment and virtualenv found, not only the active ones; with --deep also run those ' +
    "(said first), except other users' and those in folders others can write",
  'option.framework':
    'the framework the log comes from, when the log does not say: tensorflow, pytorch, jax or paddle (preamble: ' +
    'torch, tensorflow or jax)',
  'option.all': 'also the differences that rarely matter (PIDs, timestamps)',
  'option.report': 'write the full report to FILE: .json, .md or .html by its extension',
  'option.interval':
    'run: sample GPU memory every N milliseconds (default 500); procs --watch and serve: every N seconds (default 2; ' +
    'serve --fleet: 30)',
  'option.tail-lines': 'keep the last N lines of the output to explain (default 500)',
  'option.no-capture': "leave the job's stderr on the terminal (nothing is read to explain)",
  'option.pid': 'also show what process PID really loaded; repeatable',
  'option.elf': 'resolve the libraries of any ELF file; repeatable',
  'option.watch': 'refresh every SECONDS (default 2) until Ctrl-C',
  'option.count': 'with --watch: stop after N refreshes',
  'option.gpu': 'only processes on these GPUs (indexes or UUIDs, comma-separated)',
  'option.user': 'only processes of this user (a name or a uid)',
  'option.dry-run': 'print the plan only (also implied by --from)',
  'option.yes': 'apply without asking (for scripts); without a terminal, fix refuses unless given',
  'option.force': "as root, also end other users' stale processes",
  'option.grace': 'wait this long after SIGTERM before SIGKILL (default 5)',
  'option.env-out': 'where to write the settings (default ./gpu-env-doctor.env)',
  'option.port': 'the port to listen on (default 5810; 0 picks a free one)',
  'option.host': 'the address to listen on (default 127.0.0.1); any other needs a token on every request',
  'option.check-interval': 'how often the checks run (default 60; 0: never)',
  'option.token-file': 'the token to require (one word of at least 16 characters) instead of a new one',
  'option.fleet': 'many machines: one row each, from the snapshots in DIR',
  'option.show-all':
    "show every user's command lines even where /proc hides other users' processes (hidepid); secrets in them stay " +
    'hidden',
  'option.platform': 'linux (default) or windows: whose driver minimum to show',
  'option.lang':
    'the language of the text: en or zh (default: from LC_ALL, LC_MESSAGES or LANG; zh_* is Chinese). --json stays ' +
    'English',

  // help of each command (src/commands/*.ts) and the command list (src/cli/registry.ts)
  'cmd.check.summary': 'inspect this machine, print findings with evidence and fixes',
  'cmd.check.description':
    'Inspects this machine (or a saved snapshot with --from): the GPUs and the driver, who holds GPU\nmemory, which ' +
    'CUDA libraries each framework loads, the Python environments and framework builds, versions,\nenvironment ' +
    'variables. Prints one line per area, then each problem with its evidence (and where it was read)\nand the ' +
    'fix: the command that acts first, the by-hand steps last.\n\nFast enough to run before every job: add -q to ' +
    'print only problems. --deep also runs a native cuDNN smoke test\n(about a second): for each set of CUDA ' +
    "library files the frameworks here would load, a small process loads exactly\nthose files, creates cuDNN's " +
    "handle on each GPU and runs a small convolution, and reports CUDA's and cuDNN's own\nstatus codes: \"cuDNN " +
    'is broken" told from "cuDNN could not get memory". --deep=frameworks also imports each\nframework and runs ' +
    'its own convolution (seconds).',
  'cmd.check.example6': 'also: can cuDNN initialise here, now, with these files?',
  'cmd.check.example1': 'this machine',
  'cmd.check.example2': 'before every job: silent when all is well',
  'cmd.check.example3': 'a snapshot saved on another machine (gpu-env-doctor snapshot > machine.json)',
  'cmd.check.example4': 'a report to paste into a GitHub issue, without user or host names',
  'cmd.check.example5': 'in CI on a shared GPU: accept that it is busy, fail on any other warning',
  'cmd.check.exitCodes':
    '0 nothing at or above --fail-on; 1 findings at or above it; 2 usage error or failure of the tool.',
  'cmd.explain.summary': 'read an error log, rank the root causes with evidence and fixes',
  'cmd.explain.description':
    'Reads the error output of a failed GPU job (a traceback, a training log of any size, a .gz log,\nseveral files, ' +
    'or standard input: piped in, or "-" to paste it) and prints the likely root causes, ranked, each\nwith the ' +
    'lines that prove it and the fix. Environment details pasted with the error (issue-template ' +
    'lines,\ncollect_env output, the nvidia-smi header, pip/conda lists) are read as evidence too.\n\nBy default ' +
    'the facts of this machine are combined with the log (who holds GPU memory now, the driver, the ' +
    'GPUs);\n--no-machine judges the input alone, --from uses a saved snapshot of the machine where the job failed.',
  'cmd.explain.example1': 'a log file (train.log.gz works too)',
  'cmd.explain.example2': 'piped in',
  'cmd.explain.example3': 'paste the error, then Ctrl-D',
  'cmd.explain.example4': 'with the facts of the node where it failed',
  'cmd.explain.exitCodes': '0 no cause found; 1 causes found; 2 usage error or unreadable input.',
  'cmd.run.summary': 'run a command, watch GPU memory, explain the failure with the state at the moment it failed',
  'cmd.run.description':
    'Runs COMMAND exactly as you would (stdin, stdout, stderr, exit code and signals pass through), keeps\nthe last ' +
    'lines of its output, and samples GPU memory per process (nvidia-smi, every --interval ms, default 500).\nWhen ' +
    'it succeeds: one line with the peak memory per GPU and the headroom left (nothing with -q). When it ' +
    "fails:\nwhat went wrong (the explain engine on the output's tail, with the machine's state taken the moment " +
    'it failed:\nwho held the memory then), and the memory timeline.\n\nOur output goes to stderr, since stdout ' +
    'and stderr belong to the job: the full report goes to a file with\n--report FILE (JSON, Markdown or HTML by ' +
    "its extension); the exit code is the command's (128+N when signal N\nended it). stdout is handed to the " +
    'command directly when it is a terminal; stderr is read through a pipe (so\nthe command sees no terminal ' +
    'there), unless --no-capture.',
  'cmd.run.example1': 'the job, watched',
  'cmd.run.example2': 'and the full report with the memory timeline',
  'cmd.run.example3': 'the report for a script (the job keeps stdout and stderr)',
  'cmd.run.exitCodes': "the command's own; 2 (before it starts) for a usage error.",
  'cmd.libs.summary': 'which copy of each CUDA library every framework would load, and what running processes did load',
  'cmd.libs.description':
    'For torch, TensorFlow, JAX and CuPy in the Python environments found, and for each --elf FILE,\nshows which ' +
    'file the dynamic loader would pick for every CUDA library (cuDNN, cuBLAS, the CUDA runtime, libcuda,\n...) ' +
    'and why (RPATH, LD_LIBRARY_PATH, RUNPATH, ld cache, preloaded by the framework), without importing ' +
    'the\nframework. Lists every copy on the machine, and what GPU processes (and --pid PID) really mapped. Paths ' +
    'inside an\nenvironment are shown relative to it (-v: whole).',
  'cmd.libs.example1': 'which cuDNN does torch load, and why?',
  'cmd.libs.example2': 'what a running job really mapped',
  'cmd.libs.example3': 'any ELF file',
  'cmd.libs.exitCodes': '0 nothing at or above --fail-on; 1 library findings at or above it; 2 failure.',
  'cmd.procs.summary': 'GPU processes: who holds memory, since when, and whether they are stale',
  'cmd.procs.description':
    'The processes holding GPU memory (or a GPU device file), culprits first: GPU, PID, user, memory,\nage, state, ' +
    'parent (gone→NAME when it died and NAME adopted the process), container (same or other PID\nnamespace), ' +
    'verdict (this job, active, idle, orphaned, stopped, zombie, other user, invisible, unknown) and\ncommand ' +
    'line. A process is stale (orphaned, stopped, zombie, idle) only on evidence: "orphaned" needs proof\nthat the ' +
    'process that started it has exited, "idle" an owner who is logged out; a process whose parent is\nPID 1 or a ' +
    'supervisor with nothing to show either way is "unknown". gpu-env-doctor fix ends the stale ones\nsafely and ' +
    'leaves the rest alone. --watch [SECONDS] refreshes until Ctrl-C: in place on a terminal, one table\nafter ' +
    'another otherwise (one JSON document per line with --json).',
  'cmd.procs.example1': 'who holds GPU memory now',
  'cmd.procs.example2': 'an admin on a shared server: only GPUs 0 and 2, only alice',
  'cmd.procs.example3': 'like watch nvidia-smi, with verdicts',
  'cmd.procs.exitCodes': '0 no stale process holds GPU memory (among those shown); 1 some does; 2 failure.',
  'cmd.compat.summary':
    'what a framework version needs (CUDA, cuDNN, driver, Python, GPU archs) and whether this machine has it',
  'cmd.compat.description':
    'SPEC is a framework and version as pip writes it: torch==2.1.0+cu121, tensorflow==2.12,\njax[cuda12]==0.4.30, ' +
    'paddlepaddle-gpu==2.6.1.post120 (paddle==3.0.0 for every CUDA build of a release).\nPrints what that build ' +
    'needs (CUDA, cuDNN, driver, Python, GPU architectures), with the sources of each fact,\nand whether this ' +
    'machine (or a saved snapshot) satisfies it.',
  'cmd.compat.example1': 'does this machine fit that build?',
  'cmd.compat.example2': 'only what the build needs',
  'cmd.compat.example3': 'another machine, from its snapshot',
  'cmd.compat.exitCodes': '0 it fits (or --no-machine); 1 it does not; 2 bad SPEC or unreadable input.',
  'cmd.fix.summary': 'apply the safe fixes, after confirmation; --dry-run prints the plan',
  'cmd.fix.description':
    "Builds a plan from the current findings and the GPU processes' verdicts, shows it, and after a " +
    'y/N\nconfirmation applies its safe part:\n  - ends stale GPU processes (orphaned, stopped, long idle, a ' +
    "zombie's parent): SIGTERM, then SIGKILL\n    after the grace period (default 5 s). Stale needs evidence (the " +
    'process that started it has exited,\n    a stopped or zombie state, long idle while its owner is logged out); ' +
    '"unknown" ones are listed as\n    left alone, with why. Each PID\'s start time is read again before every ' +
    'signal and must match the\n    snapshot, so a reused PID is never hit. Processes still working (CPU use), ' +
    "another user's processes\n    (unless root with --force), shells, supervisors and service managers, " +
    "gpu-env-doctor's own callers,\n    PID 1, kernel threads, and PIDs that hold no GPU here (another " +
    "namespace's) are never ended.\n  - writes the environment settings the diagnosis calls for (e.g. " +
    'TF_FORCE_GPU_ALLOW_GROWTH=true) to\n    ./gpu-env-doctor.env, for you to source. Shell rc files are never ' +
    'edited.\nPackage installs, driver changes and environment rebuilds are printed as commands, never run.\nWith ' +
    '--redact, what is printed is redacted; the plan acts on the real facts (and the env file holds real values).',
  'cmd.fix.example1': 'show the plan, ask, then do it',
  'cmd.fix.example2': 'only the plan',
  'cmd.fix.example3': 'in a script: no question, 10 s between SIGTERM and SIGKILL',
  'cmd.fix.exitCodes':
    '0 nothing at or above --fail-on is left to do; 1 something is (an action not taken or failed, or a problem only ' +
    'you can fix); 2 usage error, or no terminal to confirm on and no --yes.',
  'cmd.preamble.summary': 'the Python self-check block for the top of training scripts',
  'cmd.preamble.description':
    'Prints a Python block for the start of a training script. When the job starts it prints Python,\nframework, ' +
    'CUDA and cuDNN versions, the GPU and its free memory, and warns when other processes already hold GPU\nmemory ' +
    '(through nvidia-smi, or NVML when nvidia-smi is missing). For TensorFlow it turns on memory growth ' +
    'before\nany op. It needs only the standard library and the framework, not gpu-env-doctor, and writes to ' +
    'stderr.\nSave it as a module and import it first, rather than pasting it.',
  'cmd.preamble.example1': 'then "import gpu_check" as the first line of train.py',
  'cmd.preamble.example2': 'or prepend it',
  'cmd.preamble.exitCodes': '0 printed; 2 no or unknown --framework.',
  'cmd.snapshot.summary': "print the machine's facts as one JSON document",
  'cmd.snapshot.description':
    'Prints every fact the probes gathered (the Snapshot) as JSON. Judge it later, anywhere, with\ngpu-env-doctor ' +
    'check --from machine.json; compare two with diff; merge many with fleet. The output is always JSON\n(--json ' +
    'is accepted and changes nothing). --redact replaces user and host names, home folders, addresses, GPU\nUUIDs ' +
    'and serials, and secrets (for attaching to an issue).',
  'cmd.snapshot.example1': 'save this machine',
  'cmd.snapshot.example2': 'to attach to a public issue',
  'cmd.snapshot.example3': 'judge it on any laptop',
  'cmd.snapshot.exitCodes': '0 printed; 2 usage error or failure of the tool.',
  'cmd.diff.summary': 'what differs between two snapshots, ranked by impact',
  'cmd.diff.description':
    'Compares two snapshots (saved with "gpu-env-doctor snapshot", or "check --json" outputs) fact by\nfact: driver, ' +
    'CUDA, the cuDNN each framework loads, framework builds, nvidia-* wheels, conda packages, GPU model\nand ' +
    'memory, a process that now holds most of a GPU, environment variables. Differences are ranked by how ' +
    'likely\nthey change what a GPU job does; the reason is said once for each group. With one file, compares it ' +
    'with this\nmachine (probed now). "-" reads a snapshot from standard input. The state of the moment (PIDs, ' +
    'timestamps,\nmemory in use) is left out unless --all.',
  'cmd.diff.example1': 'what changed on this machine since yesterday',
  'cmd.diff.example2': 'two machines, for an issue',
  'cmd.diff.exitCodes': '0 no differences; 1 differences; 2 failure.',
  'cmd.fleet.summary': "many machines' snapshots: groups, outliers, findings across the fleet",
  'cmd.fleet.description':
    'Merges many machines\' snapshots (from "gpu-env-doctor snapshot" or "check --json", one file per\nnode; a ' +
    'folder is searched for *.json). Groups the machines by configuration (driver, GPUs, framework builds),\nnames ' +
    'the outliers (machines whose driver, cuDNN, wheels or environment differ from what two thirds of the ' +
    'fleet\nhas) and runs every check on every machine: which checks fail on which nodes. Unreadable files are ' +
    'reported and\nskipped.',
  'cmd.fleet.example1': 'every node of the cluster',
  'cmd.fleet.example2': 'a report to share',
  'cmd.fleet.exitCodes':
    '0 no machine has findings at or above --fail-on; 1 some do; 2 no snapshot could be read, or another failure.',
  'cmd.completion.summary': 'shell completion for bash, zsh or fish',
  'cmd.completion.description':
    "Prints a completion script for your shell: commands, each command's options, and the values\nof options that " +
    'have a fixed set (--fail-on, --color, --format, --framework). Load it once per shell, or save it\nwhere your ' +
    'shell reads completions.',
  'cmd.completion.example1': 'bash, for this shell (add the line to ~/.bashrc to keep it)',
  'cmd.completion.example2': 'zsh: save it on the completion path, then start a new shell',
  'cmd.completion.example3': 'fish',
  'cmd.completion.exitCodes': '0 printed; 2 no shell or an unknown one.',
  'registry.check': 'inspect this machine, print findings with evidence and fixes (default)',
  'registry.explain': 'read an error log, rank the root causes with evidence and fixes',
  'registry.run': 'run a command, watch GPU memory, explain the failure with the state at the moment it failed',
  'registry.libs': 'which copy of each CUDA library every framework would load, and what running processes did load',
  'registry.procs': 'GPU processes: who holds memory, since when, and whether they are stale',
  'registry.compat':
    'what a framework version needs (CUDA, cuDNN, driver, Python, GPU archs) and whether this machine has it',
  'registry.fix': 'apply the safe fixes, after confirmation; --dry-run prints the plan',
  'registry.preamble': 'the Python self-check block for the top of training scripts',
  'registry.snapshot': "print the machine's facts as one JSON document",
  'registry.diff': 'what differs between two snapshots, ranked by impact',
  'registry.fleet': "many machines' snapshots: groups, outliers, findings across the fleet",
  'registry.completion': 'shell completion: completion bash|zsh|fish (add its output to your shell)',

  // reports: Markdown, HTML and their model (src/report/)
  'report.made': '{tool} {version} · report made {at}',
  'report.htmlFooter':
    '{tool} {version} · report made {at} · this file is self-contained: no scripts, nothing fetched.',
  'report.runEnded': '{exit} after {duration}.',
  'report.runEndedHtml': '{exit} after {duration}; {lines, plural, one {# line of output} other {# lines of output}}.',
  'report.runEndedHtmlKept':
    '{exit} after {duration}; {lines, plural, one {# line of output} other {# lines of output}}, the last {kept} kept.',
  'report.diagnosis': 'Diagnosis',
  'report.nothingOutput': 'Nothing in the output points to a known cause.',
  'report.col.area': 'area',
  'report.col.finding': 'finding',
  'report.all': 'all',
  'report.theMachine': 'the machine',
  'report.noOtherProblem': 'no other problem found when the job failed',
  'report.noProblemsFound': 'no problems found',
  'report.gpuMemory': 'GPU memory',
  'report.gpuMemoryCaption': 'GPU memory ({caption})',
  'report.col.gpu': 'GPU',
  'report.col.total': 'total',
  'report.col.thisJob': 'this job',
  'report.col.otherProcesses': 'other processes',
  'report.col.notAttributed': 'not attributed',
  'report.col.reserved': 'reserved',
  'report.col.free': 'free',
  'report.notSampled': 'GPU memory was not sampled.',
  'report.peakLine': 'GPU {gpu}: peak {peak} of {total}, headroom {headroom}; {samples} samples every {interval} ms',
  'report.peakLineJob':
    'GPU {gpu}: peak {peak} of {total}, this job at most {job}, headroom {headroom}; {samples} samples every ' +
    '{interval} ms',
  'report.peakHtml': 'GPU {gpu}: peak {peak} of {total} in use; headroom {headroom}',
  'report.peakHtmlJob': 'GPU {gpu}: peak {peak} of {total} in use, this job at most {job}; headroom {headroom}',
  'report.col.pid': 'PID',
  'report.col.whose': 'whose',
  'report.col.peak': 'peak',
  'report.col.seen': 'seen',
  'report.failedAt': 'The job failed at {at}.',
  'report.memoryOverTime': 'Memory over time',
  'report.findingsEvidence': 'Findings: evidence and fixes',
  'report.diagnosisEvidence': 'Diagnosis: evidence and fixes',
  'report.versions': 'Versions',
  'report.col.what': 'what',
  'report.col.version': 'version',
  'report.libraryResolution': 'Library resolution',
  'report.librariesSummary':
    '{n} libraries the frameworks load{missing, plural, =0 {} one {, # not found} other {, # not found}}',
  'report.col.loadedBy': 'loaded by',
  'report.col.library': 'library',
  'report.col.resolvesTo': 'resolves to',
  'report.col.via': 'via',
  'report.notFound': 'not found',
  'report.logTitle': '{title} ({n, plural, one {# line} other {# lines}})',
  'report.facts': 'Facts',
  'report.command': 'The command',
  'report.findings': 'Findings',
  'report.passed': 'Passed',
  'report.notChecked': 'Not checked',
  'report.processesSeen': 'Processes seen while it ran',
  'report.keyUsed': 'used on the GPU (everyone)',
  'report.keyJob': 'used by this job',
  'report.keyTotal': 'total',
  'report.keyFailure': 'the failure',
  'report.keyInterval': 'one sample every {interval} ms',
  'report.logLines': '{n, plural, one {# line} other {# lines}}',
  'report.logLinesHit': '{n, plural, one {# line} other {# lines}} (the evidence highlighted)',
  'report.htmlCounts':
    '{errors, plural, one {# error} other {# errors}}, {warnings, plural, one {# warning} other {# warnings}} · ' +
    '{checks, plural, one {# check} other {# checks}}',
  'report.htmlCountsUnknown':
    '{errors, plural, one {# error} other {# errors}}, {warnings, plural, one {# warning} other {# warnings}}, ' +
    '{unknown} unknown · {checks, plural, one {# check} other {# checks}}',
  'report.svgUsed': 'memory used on GPU {gpu}',
  'report.svgJob': 'memory used by this job',
  'report.svgFailed': 'failed',
  'model.titleRunFailed': 'gpu-env-doctor run: the job failed',
  'model.titleRunSucceeded': 'gpu-env-doctor run: the job succeeded',
  'model.titleRunFailedOn': 'gpu-env-doctor run on {host}: the job failed',
  'model.titleRunSucceededOn': 'gpu-env-doctor run on {host}: the job succeeded',
  'model.titleCommand': 'gpu-env-doctor {command}',
  'model.titleCommandOn': 'gpu-env-doctor {command} on {host}',
  'model.runSucceeded': 'The command succeeded ({exit}).',
  'model.runFailed': 'The command failed ({exit}).',
  'model.runFailedLikely': 'The command failed ({exit}): most likely {cause}.',
  'model.mostLikely': 'Most likely: {cause} ({pct}%).',
  'model.nothingInLog': 'Nothing in the log points to a known cause.',
  'model.errorsWarnings':
    '{errors, plural, one {# error} other {# errors}}, {warnings, plural, one {# warning} other {# warnings}}.',
  'model.warningsNoErrors': '{warnings, plural, one {# warning} other {# warnings}}, no errors.',
  'model.noGpuVerdict': 'No GPU visible: GPU checks were skipped.',
  'model.whenFailed': 'when the job failed',
  'model.afterEnded': 'after the job ended',
  'model.at': 'at {time}',
  'model.thisJob': 'this job',
  'model.notAttributed': 'not attributed to a listed process',
  'model.reserved': 'reserved by the driver',
  'model.free': 'free',
  'model.nvidiaDriver': 'NVIDIA driver',
  'model.pythonAt': 'Python ({where})',
  'model.cpuOnly': 'CPU-only build',
  'model.fact.host': 'host',
  'model.fact.collected': 'collected',
  'model.fact.system': 'system',
  'model.fact.driver': 'driver',

  // check: the runner's own lines, gpu.* (src/judge/checks/run-checks.ts, src/judge/checks/gpu/)
  'check.ok': '{title}: ok',
  'check.notApplicable': '{title}: {reason}',
  'check.crashed': '{title}: the check itself failed ({error}). Please report this as a bug of gpu-env-doctor.',
  'title.gpu.presence': 'GPUs',
  'gpu.presence.noDriverAnswer': 'nvidia-smi did not answer',
  'gpu.presence.none': 'The driver answers but lists no GPU',
  'gpu.presence.noneEvidence': 'nvidia-smi -q -x has no <gpu> element',
  'gpu.presence.noneFix':
    'In a container, start it with the GPUs (docker run --gpus all; Kubernetes: request nvidia.com/gpu). On the ' +
    'host, check the kernel log.',
  'gpu.presence.ok': '{count} × {names} (compute capability {cc}), driver {driver} (runs CUDA ≤ {cuda})',
  'gpu.presence.okNoCc': '{count} × {names}, driver {driver} (runs CUDA ≤ {cuda})',
  'gpu.presence.mig': 'GPU {gpu} is in MIG mode: jobs see only the MIG instances they are given, not the whole GPU',
  'gpu.presence.migFix':
    'Select a MIG instance by its UUID in CUDA_VISIBLE_DEVICES (nvidia-smi -L lists them), or disable MIG if you ' +
    'need the whole GPU.',
  'gpu.presence.prohibited': 'GPU {gpu} is in compute mode Prohibited: no process can create a CUDA context on it',
  'gpu.presence.prohibitedFix': 'Set the compute mode back to Default.',
  'gpu.presence.exclusive':
    'GPU {gpu} is Exclusive_Process and already used by PID {pids}: another process gets "CUDA-capable device(s) ' +
    'is/are busy or unavailable"',
  'gpu.presence.exclusiveFix': 'Use another GPU, or end the process that has it.',
  'title.gpu.driver': 'NVIDIA driver',
  'gpu.driver.moduleMismatch':
    "The loaded kernel module is driver {loaded}, but nvidia-smi's library is {lib}: the driver was changed without " +
    'a reboot',
  'gpu.driver.moduleMismatchFix':
    'Reboot the machine (or unload and reload the nvidia kernel modules) so that the kernel module and the ' +
    'user-space libraries are the same version.',
  'gpu.driver.ok': 'Driver {driver}, supports CUDA up to {cuda} (the highest CUDA it can run, not what is installed)',
  'gpu.driver.noToolsModule':
    "The NVIDIA kernel module is loaded but nvidia-smi is not on PATH: the driver's user-space tools are missing",
  'gpu.driver.noToolsDevices': '/dev/nvidia* exists but nvidia-smi is not on PATH',
  'gpu.driver.noToolsDevicesContainer':
    '/dev/nvidia* exists but nvidia-smi is not on PATH (a container started without the NVIDIA runtime or its ' +
    'utility capability)',
  'gpu.driver.noToolsFixContainer':
    'Start the container with the NVIDIA runtime and utility capability (docker run --gpus all, or ' +
    'NVIDIA_DRIVER_CAPABILITIES=compute,utility).',
  'gpu.driver.noToolsFix':
    "Install the driver's utilities package for the loaded driver version (e.g. nvidia-utils-<branch> on Ubuntu).",
  'gpu.driver.notLoaded': "nvidia-smi couldn't communicate with the NVIDIA driver: the kernel module is not loaded",
  'gpu.driver.notLoadedFix':
    'Load the driver: check `lsmod | grep nvidia` and `dmesg | grep -i nvidia`. After a kernel update the module ' +
    'often needs rebuilding (DKMS) for the new kernel; Secure Boot can block an unsigned module.',
  'gpu.driver.nvmlMismatch':
    'Failed to initialize NVML: Driver/library version mismatch — the driver was upgraded and the machine not rebooted',
  'gpu.driver.nvmlMismatchFix':
    'The kernel module still running is the old version; the libraries are the new one. Reboot (or unload and reload ' +
    'the nvidia modules when no process uses the GPU).',
  'gpu.driver.timeout': 'nvidia-smi did not answer in time: the driver may be hung',
  'gpu.driver.timeoutFix':
    'Look for Xid errors in the kernel log; a GPU that fell off the bus or a process stuck in the driver makes ' +
    'nvidia-smi hang. Persistence mode off on a headless server also makes every call slow.',
  'gpu.driver.failed': 'nvidia-smi failed: {message}',
  'gpu.driver.failedFix': 'Run nvidia-smi by hand to see its full message; check the kernel log for Xid errors.',
  'gpu.driver.inContainer': 'in a {kind} container',
  'gpu.driver.noGpuContainerCuda':
    'No GPU is visible in this container, and {builds} {n, plural, one {is a CUDA build} other {are CUDA builds}}: ' +
    'the container was started without the GPUs',
  'gpu.driver.noGpuContainer':
    'No GPU is visible in this container (no nvidia-smi, no /dev/nvidia*): if a job here needs one, the container ' +
    'was started without the GPUs',
  'gpu.driver.noGpuContainerFix':
    'Start the container with the GPUs: docker run --gpus all (or --runtime=nvidia with the NVIDIA Container ' +
    "Toolkit); in Kubernetes, request nvidia.com/gpu in the pod's resources.limits.",
  'gpu.driver.noGpuCuda':
    'No NVIDIA GPU or driver on this machine, but {builds} {n, plural, one {is a CUDA build} other {are CUDA ' +
    'builds}}: jobs here run on the CPU, or fail where they ask for CUDA',
  'gpu.driver.noGpuCudaFix':
    'Run the job on a machine with an NVIDIA GPU, or install the NVIDIA driver here if it has one.',
  'gpu.driver.noGpu': 'No NVIDIA GPU or driver on this machine (no nvidia-smi, no /proc/driver/nvidia)',
  'gpu.driver.noGpuFix':
    'Nothing to check here. To judge a GPU machine from here: gpu-env-doctor check --from a snapshot saved there ' +
    '(gpu-env-doctor snapshot > machine.json).',
  'title.gpu.health': 'GPU health (ECC, retired pages, row remapping)',
  'gpu.health.noGpu': 'no GPU',
  'gpu.health.ecc': '{n} uncorrectable ECC errors since the driver loaded',
  'gpu.health.retirementPending': 'a page retirement is pending (needs a reset)',
  'gpu.health.remapPending': 'a row remapping is pending (needs a GPU reset)',
  'gpu.health.remapFailed': 'row remapping has failed: the GPU has run out of spare rows',
  'gpu.health.lifetime': 'GPU {gpu}: {n} uncorrectable ECC errors over its lifetime, none since the driver loaded',
  'gpu.health.problems': 'GPU {gpu} ({name}): {problems}',
  'gpu.health.fix':
    'Jobs on this GPU can fail with CUDA errors that look like software bugs. Drain it, reset it when idle (pending ' +
    'retirements and remaps apply at reset), and if errors return, have the hardware checked (DCGM diagnostics).',
  'title.node.driver-library': 'Driver libraries match the loaded kernel module',
  'title.node.compute-mode': 'GPU compute mode lets jobs in',
  'title.node.persistence': 'Persistence mode',
  'title.node.pcie-link': 'PCIe link at full width and speed',
  'title.node.clocks': 'GPU clocks not slowed down',
  'title.node.shm': 'Shared memory (/dev/shm) size',
  'title.node.mig': 'MIG devices usable',
  'title.node.cuda-init': 'CUDA starts where NVML works',
  'title.node.device-nodes': 'A device node for every GPU',
  'node.noModule': 'no NVIDIA kernel module loaded',
  'node.noLinkFacts': 'nvidia-smi gives no PCIe link facts',
  'node.noClockFacts': 'nvidia-smi gives no clock event reasons',
  'node.noShm': 'nothing mounted on /dev/shm',
  'node.driverLibrary.ok': 'libcuda and NVML are the same release as the kernel module ({version})',
  'node.driverLibrary.mismatch': '{lib} {version} ({path}) does not match the loaded kernel module {kernel}',
  'node.driverLibrary.nvml':
    'NVML refuses to start: nvidia-smi and the frameworks\' device queries say "Failed to initialize NVML: ' +
    'Driver/library version mismatch"',
  'node.driverLibrary.cuda':
    'the CUDA driver API fails to initialise (cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, error 803): no framework ' +
    'sees a GPU',
  'node.driverLibrary.fix':
    'The driver was upgraded but the old kernel module is still loaded: reboot (or, with no GPU process running, ' +
    'unload and reload the nvidia modules).',
  'node.computeMode.prohibited': 'GPU {gpu} is in PROHIBITED compute mode: no process can create a CUDA context on it',
  'node.computeMode.held':
    'GPU {gpu} is in {mode} compute mode and process {pids} already holds it: every other process is refused',
  'node.computeMode.busy':
    'CUDA says "CUDA-capable device(s) is/are busy or unavailable" (cudaErrorDevicesUnavailable) to the next process',
  'node.computeMode.mps': 'GPU {gpu} is exclusive to the MPS server (PID {pid}): CUDA clients share it through MPS',
  'node.computeMode.free': 'GPU {gpu} is in {mode} compute mode: one process at a time (none now)',
  'node.computeMode.fix':
    'Wait for the holder to end, or, if exclusive use is not wanted, set the compute mode back to DEFAULT (as root).',
  'node.persistence.off':
    'Persistence mode is off on {n, plural, one {GPU} other {GPUs}} {gpus}: the first CUDA call and nvidia-smi wait ' +
    'while the driver sets the GPU up again (slow, not failed)',
  'node.persistence.fix': 'Run the persistence daemon, so the driver keeps the GPUs initialised between jobs.',
  'node.pcie.slow':
    "GPU {gpu}'s PCIe link runs at gen {gen} x{width} of gen {genMax} x{widthMax}: transfers to and from the GPU are " +
    'slower (slow, not failed)',
  'node.pcie.details':
    'A narrower link than the slot allows usually means a card not fully seated, a riser, or a slot wired with fewer ' +
    'lanes; a lower generation under load, a BIOS setting or signal problems.',
  'node.pcie.fix':
    'Read the link under load; if it stays below the maximum, reseat the card or check the slot and BIOS PCIe ' +
    'settings.',
  'node.clocks.slowed': 'GPU {gpu} runs slowed down by {reasons} (slow, not failed)',
  'node.clocks.details':
    'sw_power_cap: the power limit; sw/hw thermal slowdown: temperature; hw_slowdown and hw_power_brake_slowdown: ' +
    'the board or the power supply asked for it.',
  'node.clocks.fix':
    'Check the power limit and temperatures; a power cap under full load is normal, a thermal slowdown is not.',
  'node.clocks.fixHw':
    'A hardware slowdown comes from the board (temperature, power supply): check cooling and power; if it persists, ' +
    'have the hardware checked.',
  'node.shm.small': '/dev/shm is {mib} MiB: PyTorch DataLoader workers and NCCL put their shared memory there',
  'node.shm.smallContainer':
    "/dev/shm is {mib} MiB in this container (Docker's default is 64 MiB): PyTorch DataLoader workers and NCCL put " +
    'their shared memory there',
  'node.shm.dataloader': 'DataLoader workers die with "Bus error" once a few batches fill it',
  'node.shm.nccl': 'NCCL fails to create its shared memory segments between the GPUs of this machine',
  'node.shm.fix': 'Make /dev/shm larger (as root), or use fewer DataLoader workers.',
  'node.shm.fixContainer':
    'Start the container with a larger --shm-size (or --ipc=host); it cannot be changed from inside.',
  'node.devices.fewer':
    '{nodes} GPU device {nodes, plural, one {node} other {nodes}} (/dev/nvidiaN) for {gpus} GPUs nvidia-smi lists; ' +
    'missing control nodes: {missing}',
  'node.devices.lacking':
    'No device node for {list}, which nvidia-smi lists: CUDA cannot open it here; missing control nodes: {missing}',
  'node.devices.fix': 'Create the device nodes (nvidia-modprobe, as root) or reload the driver.',
  'node.devices.fixContainer':
    "The container lost or was not given the GPUs' device nodes: restart it with the GPUs (--gpus); on cgroup v1 " +
    'hosts a systemd daemon-reload can take them away.',
  'node.devices.notSeen': 'no /dev/nvidia* in view here (another root?)',
  'title.node.kernel-log': 'No Xid errors in the kernel log',
  'node.kernelLog.notRead': 'the kernel log was not read (not this machine, or not asked)',
  'node.kernelLog.needsPermission': 'root or CAP_SYSLOG (kernel.dmesg_restrict = {restrict})',
  'node.kernelLog.unreadable': 'Xid errors: unknown: reading the kernel log needs {needs}',
  'node.kernelLog.unreadableFix': 'Read it as root on the host (a container does not see it without CAP_SYSLOG).',
  'node.kernelLog.unknownCode': "see NVIDIA's Xid catalog",
  'node.kernelLog.xid': 'The kernel log has {codes} on {bus}',
  'node.kernelLog.xidAgo':
    'The kernel log has {codes} on {bus}, the last {ago, plural, one {# minute} other {# minutes}} ago',
  'node.kernelLog.fixHardware':
    'A hardware or driver fault: drain the GPU, reset it (or reboot), and if it returns have the GPU checked (DCGM ' +
    'diagnostics); jobs that died then died of this.',
  'node.kernelLog.fixApp':
    'A fault of the program that ran (an illegal address or an assertion in its kernel): rerun it with ' +
    'CUDA_LAUNCH_BLOCKING=1 to see the failing call; the GPU itself is fine.',
  'node.mig.off': 'no GPU has MIG on',
  'node.mig.none': 'GPU {gpu} has MIG on and no MIG device made: CUDA has nothing to run on there',
  'node.mig.noneConsequence':
    'CUDA sees no device on this GPU ("no CUDA-capable device is detected" or "busy or unavailable")',
  'node.mig.noneFix': 'Make GPU and compute instances (as root), or turn MIG off (needs a GPU reset).',
  'node.mig.device': '{name} ({free} of {total} MiB free)',
  'node.mig.split': 'GPU {gpu} is split by MIG into {n} devices: {list}',
  'node.mig.details':
    "A job sees only the MIG device it is given (CUDA_VISIBLE_DEVICES=MIG-…), with that device's memory, not the " +
    "GPU's.",
  'node.cudaInit.unknown':
    'CUDA cannot start here ({call}: {name}, error {code}) while NVML and nvidia-smi work: the nvidia_uvm module is ' +
    'in a bad state (typically after a suspend and resume)',
  'node.cudaInit.noUvm':
    'CUDA cannot start here ({call}: {name}, error {code}) while NVML and nvidia-smi work, and /dev/nvidia-uvm is ' +
    'missing',
  'node.cudaInit.consequence': 'every framework fails at its first CUDA call; torch.cuda.is_available() is False',
  'node.cudaInit.fix': 'Reload the nvidia_uvm module (as root, with no CUDA process running), or reboot.',
  'node.cudaInit.fixNoUvm':
    'Load nvidia_uvm and create its device node (as root); in a container, restart it with the GPUs.',
  'node.cudaInit.notRun': 'needs check --deep (the first CUDA call)',
  'node.kernelLog.inJob':
    'The job ran while the kernel log recorded {codes} on {bus}: the GPU fault is the likely reason it failed',
  'node.kernelLog.notInJob': 'No Xid in the kernel log while the job ran ({from}-{to} s after boot)',
  'node.kernelLog.unreadableJob': 'Xid errors during the job: unknown: reading the kernel log needs {needs}',

  // processes: verdicts and why (src/judge/procs/), memory.headroom, memory.holders
  'verdict.this job': 'this job',
  'verdict.active': 'active',
  'verdict.idle': 'idle',
  'verdict.orphaned': 'orphaned',
  'verdict.stopped': 'stopped',
  'verdict.zombie': 'zombie',
  'verdict.other user': 'other user',
  'verdict.invisible': 'invisible',
  'verdict.unknown': 'unknown',
  'adopt.parentUnreadable': 'its parent could not be read',
  'adopt.pid1': 'it is PID 1, the init of its PID namespace (a container’s main process)',
  'adopt.outside':
    'its parent is outside this PID namespace (a process entered with docker exec or nsenter, or the namespace’s init)',
  'adopt.service': 'it runs in the systemd service {unit}: its service manager keeps it (systemctl status {unit})',
  'adopt.parentPidUnreadable': 'its parent (PID {ppid}) could not be read',
  'adopt.startedAfter':
    'its parent {parent} started after it, so the process that started it has exited and {name} adopted it',
  'adopt.session':
    'its session ({sid}) is not the one of its parent {parent} ({parentSid}): a fork keeps the session, so the ' +
    'process that started it has exited and {name} adopted it',
  'adopt.sessionNone':
    'its session ({sid}) is not the one of its parent {parent}, which has none here: a fork keeps the session, so ' +
    'the process that started it has exited and {name} adopted it',
  'adopt.supervisor':
    'its parent is {parent}, which may have started it (a service, a supervised program, a container’s job) or ' +
    'adopted it; nothing shows that the process that started it has exited',
  'adopt.alive': 'its parent {parent} is alive',
  'protect.self': 'it is gpu-env-doctor itself or one of its ancestors (the shell or job that started it)',
  'protect.pid1': 'it is PID 1, the init of this PID namespace: ending it ends everything in it (the whole container)',
  'protect.kthread': 'it is a kernel thread',
  'protect.otherNs':
    "nvidia-smi lists PID {smiPid}, but here that PID is {name} with no /dev/nvidia* open (every process's open " +
    "files were read): the number names a process in another PID namespace (nvidia-smi reports the host's PIDs), " +
    'not this one',
  'protect.aProcess': 'a process',
  'protect.mps': 'it is the MPS control daemon or server: every CUDA client of the GPU runs through it',
  'reason.self': 'the process running gpu-env-doctor, or its parent',
  'reason.invisible': 'not in this /proc: another container or PID namespace, or the host',
  'reason.kthread': 'a kernel thread: it cannot hold GPU memory itself',
  'reason.zombie': 'a zombie: it has exited but its parent has not collected it',
  'reason.stopped': 'stopped (Ctrl-Z or SIGSTOP): it keeps its GPU memory while it does nothing',
  'reason.traced': 'stopped under a debugger or tracer (tracing stop): someone may be inspecting it',
  'reason.workingUnder': 'working ({cpu}% CPU), under {parent}: a service, a nohup job or a daemon',
  'reason.running': 'running',
  'reason.mps': 'the MPS server or control daemon: it serves the CUDA clients of the GPU',
  'reason.otherUser': 'belongs to another user ({user})',
  'reason.idle': 'idle: alive {hours} h with almost no CPU use ({cpu} s of CPU)',
  'reason.idleLoggedOut':
    'idle: alive {hours} h with almost no CPU use ({cpu} s of CPU) and its owner {user} is logged out (no process of ' +
    'theirs has a terminal)',
  'reason.idleOwnerIn':
    'idle: alive {hours} h with almost no CPU use ({cpu} s of CPU), but its owner is logged in ({owner}): it may be ' +
    'waiting for work (a notebook, a server)',
  'reason.you': 'you',
  'reason.unknownIdle': '{why}. It has been alive {hours} h with almost no CPU use ({cpu} s of CPU)',
  'reason.exited': 'it exited while gpu-env-doctor read it (its memory is being freed)',
  'reason.leftover': 'its parent process has exited: a leftover of a finished job',
  'reason.leftoverWorker':
    'a worker (multiprocessing, a DataLoader) whose Python parent has exited: a leftover of that job',
  'reason.leftoverKernel': 'a Jupyter kernel whose server has exited: nothing can reach it any more',
  'reason.adoptedWorking': 'its parent process has exited, but it is still working: {signs}',
  'reason.detached':
    'it was started to run on its own ({how}): its launching shell has exited, but nothing shows that its work is done',
  'reason.listens': 'it listens on {addresses}',
  'reason.connections': '{n, plural, one {it has # open network connection} other {it has # open network connections}}',
  'reason.wroteOutput': 'it wrote to its output file {s} s ago',
  'reason.byNohup': 'nohup: it ignores the hang-up signal',
  'reason.bySetsid': 'setsid: it leads a session of its own',
  'reason.byGroup': 'it leads a process group of its own',
  'reason.byMux': 'under the terminal multiplexer {name}, PID {pid}',
  'reason.byDaemon': 'a daemon: no terminal, working folder /, nothing to read',
  'reason.byLostSession': 'left running: its session has ended and it has no terminal',
  'title.memory.headroom': 'Free GPU memory',
  'memory.noGpu': 'no GPU',
  'memory.holderLine': '{who} holds {mib}: {verdict}, {reason}',
  'memory.holderLineLife': '{who} holds {mib}: {verdict}, {reason}; running for {age}, {cpu} s of CPU: {cmd}',
  'memory.totals': 'total {total} MiB, used {used} MiB, free {free} MiB',
  'memory.totalsGiB': 'total {total}, used {used}, free {free}',
  'memory.freeOk': 'GPU {gpu} {name}: {free} free of {total}',
  'memory.freeOkReserve': 'GPU {gpu} {name}: {free} free of {total} (PID {pid}, {fw}, reserves {reserved} up front)',
  'memory.otherGpu': ' Or run on GPU {gpus}, which has room (the command below).',
  'memory.gpuOr': ' or ',
  'memory.otherGpuFree': ' Or run on a free GPU ({gpus}): the command below picks GPU {first}.',
  'memory.noHolder': 'No listed process holds it: another container or VM may share this GPU; look on the host.',
  'memory.allLeftovers':
    '{n, plural, one {The holder is a leftover} other {The holders are leftovers}} ({verdicts}): ending {n, plural, ' +
    'one {it} other {them}} frees the memory.',
  'memory.someLeftovers':
    'End the leftovers ({pids}); the other holders are working or not yours, so wait for them or ask their owners.',
  'memory.unknownHolders':
    'Nothing shows that {pids} {n, plural, one {is a leftover} other {are leftovers}}, so gpu-env-doctor fix leaves ' +
    '{n, plural, one {it} other {them}} alone: if you know {n, plural, one {it is} other {they are}} no longer ' +
    'needed, end {n, plural, one {it} other {them}} yourself; otherwise wait, or use another GPU.',
  'memory.working': 'The holders are working or not yours: wait for them, ask their owners, or use another GPU.',
  'memory.zombieParent':
    ' A zombie holds memory until its parent collects it: end or restart the parent (PID {ppids}).',
  'memory.reserveHolder': ' PID {pid} runs {fw}, whose {mib} is mostly a reserve taken up front: {remedy}.',
  'memory.noContext':
    'GPU {gpu} has {free} free of {total}: not enough for a new CUDA context and cuDNN (about {floor}), so no GPU ' +
    'job can start on it',
  'memory.low':
    "GPU {gpu} has {free} free of {total}: a job that needs more fails with out of memory (a training job's start " +
    "and cuDNN's algorithm search often need {min} or more)",
  'title.memory.holders': 'Processes holding GPU memory',
  'memory.noGpuInfo': 'no GPU information',
  'holders.theGpu': 'the GPU',
  'holders.holdsOn': '{who} holds {mib} on {gpu}',
  'holders.stateLine': 'state {state}, parent {ppid} ({parent}), running for {age}, {cpu} s of CPU: {cmd}',
  'holders.message': '{who} holds {mib} on {gpu}: {reason}',
  'holders.messageFw': '{who}, {fw}, holds {mib} on {gpu}: {reason}',
  'holders.mustKeep': '{fix} If it must keep running: {remedy}.',
  'holders.fixOtherNs':
    'The holder is not this process: look where nvidia-smi’s PIDs are real (on the host: `nvidia-smi`, then `ps -p ' +
    'PID` there). gpu-env-doctor fix never ends it.',
  'holders.fixProtected': 'gpu-env-doctor fix never ends it: stop its container or service instead if its job is done.',
  'holders.fixZombie': 'A zombie holds nothing itself, but its parent (PID {ppid}) may: end or restart the parent.',
  'holders.fixStopped': 'It was stopped (Ctrl-Z) and keeps its memory. Resume it in its shell with `fg`, or end it.',
  'holders.fixOtherUser': 'Ask {user} to end it, or use another GPU.',
  'holders.fixOtherUserCvd': 'Ask {user} to end it, or use another GPU (CUDA_VISIBLE_DEVICES).',
  'holders.itsOwner': 'its owner',
  'holders.fixInvisible':
    'It is not visible from here (another container or the host). Look on the host: `nvidia-smi` there, or `fuser -v ' +
    '/dev/nvidia*`.',
  'holders.fixUnknown':
    'Nothing shows that it is a leftover, so gpu-env-doctor fix leaves it alone. If you know it is no longer needed, ' +
    'end it yourself.',
  'holders.fixDefault': 'End it if it is yours and no longer needed (gpu-env-doctor fix does this safely).',

  // memory.unattributed, system.platform, env.library-path
  'title.memory.unattributed': 'Memory with no visible owner',
  'unattr.missing': 'GPU {gpu}: {mib} in use that no listed process accounts for',
  'unattr.noneListed':
    'nvidia-smi lists no process, yet memory is in use: typical of another container or VM sharing the GPU, or of a ' +
    'PID namespace nvidia-smi cannot map.',
  'unattr.fewer':
    'nvidia-smi lists fewer megabytes than are in use: the rest belongs to processes it cannot see from here.',
  'unattr.usedListed': 'used {used}, listed processes {listed}',
  'unattr.deviceOnly': 'PID {pid} ({name}, {user}) has /dev/nvidia* open but is not listed',
  'unattr.fix': 'Find the owner on the host (not inside a container): who has the device files open.',
  'unattr.invisible': 'GPU {gpu}: PID {pid} holds {mib} but is not in this /proc (another container or the host)',
  'unattr.invisibleEvidence': 'PID {pid} listed by nvidia-smi with {mib}; /proc/{pid} does not exist here',
  'unattr.invisibleFix':
    'nvidia-smi reports host PIDs. Look for this PID on the host, or ask whoever runs the other container.',
  'title.system.platform': 'System',
  'platform.line': '{os}, kernel {kernel}, {arch}, {where}',
  'platform.lineModule': '{os}, kernel {kernel}, {arch}, {where}, NVIDIA kernel module {module}',
  'platform.noContainer': 'no container',
  'platform.inContainer': 'in a {kind} container',
  'platform.wslSuffix': '{where}, WSL',
  'platform.unknownOs': 'unknown OS',
  'platform.containerDetection': 'container detection',
  'platform.wsl':
    'WSL2: the Windows driver provides the GPU; per-process GPU memory is not reported, so holders cannot be named',
  'platform.wslEvidence': 'Microsoft kernel or /usr/lib/wsl/lib',
  'platform.containerBlind':
    'Inside a container, processes of other containers or the host are not visible: their memory shows as unattributed',
  'title.env.library-path': 'LD_LIBRARY_PATH and LD_PRELOAD',
  'llp.compat':
    'LD_LIBRARY_PATH puts a forward-compatibility libcuda first ({folders}): it only works on data-center GPUs with ' +
    'a matching older kernel driver, otherwise "Error 803: system has unsupported display driver / cuda driver ' +
    'combination"',
  'llp.compatFix': 'Remove the compat folder unless the kernel driver is older than the CUDA version you run.',
  'llp.details':
    'Pip-installed PyTorch, TensorFlow and JAX bring their own CUDA and cuDNN; a folder here is searched before a ' +
    "library's RUNPATH and can shadow them (the CUDA libraries area says when it does).",
  'llp.empty': 'LD_LIBRARY_PATH has an empty entry, which the loader reads as the current directory',
  'llp.preload': 'LD_PRELOAD forces a CUDA library into every process: {value}',
  'llp.preloadDetails': "A preloaded library wins over every framework's own copy, whatever its version.",
  'llp.preloadFix': 'Unset it unless you are sure every framework here was built for that exact library.',
  'llp.cudaHome':
    'CUDA_HOME/CUDA_PATH={home}: used to build extensions (nvcc); pip-installed frameworks load their own CUDA ' +
    'runtime regardless',
  'llp.environment': 'environment',
  'llp.lists': 'LD_LIBRARY_PATH lists {folders}',
  'llp.driverOnly':
    'LD_LIBRARY_PATH lists {folders}: the frameworks take only the driver (libcuda, NVML) from there, their CUDA ' +
    'libraries from their own files',
  'llp.noneFrom': 'LD_LIBRARY_PATH lists {folders}: no framework takes a CUDA library from there',
  'llp.loadsFrom': 'LD_LIBRARY_PATH lists {folders}; the frameworks load {names} from there',

  // check titles, why a check did not apply, libraries, python.environments
  'title.env.allocators': 'Framework memory policy variables',
  'title.env.debug': 'Debugging variables',
  'title.env.visible-devices': 'GPU visibility (CUDA_VISIBLE_DEVICES)',
  'title.libs.compat-libcuda': 'Forward-compatibility libcuda matches the driver',
  'title.libs.cudnn-sublibrary-mismatch': 'cuDNN sub-libraries match libcudnn',
  'title.libs.duplicate-versions': 'One copy of each CUDA library per framework',
  'title.libs.ld-library-path-shadowing': "LD_LIBRARY_PATH does not override the frameworks' own CUDA libraries",
  'title.libs.loaded': 'Libraries loaded by GPU processes',
  'title.libs.missing': 'Every library the frameworks need is found',
  'title.libs.unloadable': 'Every library file the frameworks reach can be loaded',
  'title.python.conda-pip-mix': 'conda and pip copies of one library',
  'title.python.cpu-only-build': 'Framework builds with CUDA',
  'title.python.deep-conv': 'Convolution on the GPU (--deep=frameworks)',
  'title.python.duplicate-dist-info': 'Packages installed twice',
  'title.python.environments': 'Python environments',
  'title.python.import-failed': 'Frameworks import (--deep=frameworks)',
  'title.python.nvidia-wheel-conflict': 'nvidia-* wheels match what the frameworks pin',
  'title.versions.cudnn': 'cuDNN vs. the framework builds',
  'title.versions.driver-cuda': "Driver vs. the frameworks' CUDA",
  'title.versions.gpu-arch': 'GPU architecture in the framework builds',
  'title.versions.nvcc': "nvcc vs. the frameworks' CUDA",
  'title.versions.python': 'Python version vs. the frameworks',
  'applies.noLibraries': 'no library facts in this snapshot (made without the libraries probe)',
  'applies.noPythonFacts': 'no Python facts in this snapshot',
  'applies.noPythonEnv': 'no Python environment found',
  'applies.noPythonInterpreter': 'no Python interpreter found',
  'applies.noPythonEnvs': 'no Python environments in this snapshot',
  'applies.noFrameworks': 'no PyTorch, TensorFlow, JAX or PaddlePaddle found in the scanned Python environments',
  'applies.deepConv': 'run check --deep=frameworks to try a convolution in each framework',
  'applies.deepImport': 'run check --deep=frameworks to import each framework in its own process',
  'applies.noFrameworkToTry':
    'no framework to try (none of torch, tensorflow, jax is installed in the environments looked at)',
  'applies.noFrameworkInstalled': 'no framework installed in the environments looked at',
  'applies.cpuExpected': 'no NVIDIA GPU on this machine: a CPU build is expected',
  'lib.cudart': 'CUDA runtime',
  'lib.libcuda': 'the driver library libcuda',
  'lib.library': 'library',
  'lib.sublibrary': 'cuDNN sub-library {family}',
  'lib.versionUnknown': 'version unknown',
  'via.preloaded': 'preloaded',
  'dup.ok':
    '{consumer} loads {lib} {version} ({via}); {others} {n, plural, one {is} other {are}} also on the machine and ' +
    'not used by it',
  'dup.otherAt': '{version} at {path}',
  'dup.details':
    'Tools that ask the ld cache (python -m torch.utils.collect_env, ldconfig -p) report the other copy; the loaded ' +
    'file is the one above (check a running process with gpu-env-doctor libs --pid PID).',
  'dup.wouldLoad': '{consumer} would load {lib} {version} from {path} instead of its own {own} ({ownPath})',
  'dup.fix':
    "Put the framework's own folder first so its copy wins (LD_LIBRARY_PATH is searched before DT_RUNPATH and the ld " +
    'cache).',
  'unload.messageCrash':
    '{consumer}: {lib} is reached first at {path} ({via}), a file cut short: the loader maps it and the process dies',
  'unload.messageError':
    '{consumer}: {lib} is reached first at {path} ({via}) and cannot be loaded; the loader does not try the copies ' +
    'behind it',
  'unload.whenDlopen': 'when {by} opens it at run time',
  'unload.whenStart': 'as it starts',
  'unload.whenImport': 'on import',
  'unload.crash': '{consumer} dies with SIGBUS (exit code 135) {when}, with no Python traceback',
  'unload.fails': "{consumer} fails to load it {when} (an OSError or the library's own error)",
  'unload.ignored':
    'the loader ignores it with a message ("cannot be preloaded … ignored") and the process goes on without it ' +
    '({from})',
  'unload.goodBehind': 'never reached: {path} ({version}, via {via})',
  'unload.fixLlp': 'Remove {dir} from LD_LIBRARY_PATH: it puts the broken file in front of the good copy.',
  'unload.fixPreload': 'Stop preloading {path}: unset LD_PRELOAD (or set it without that file).',
  'unload.fixEtcPreload':
    'Remove the line naming {path} from /etc/ld.so.preload (as root): every process on the machine loads it.',
  'unload.fixFile':
    'Replace {path}: it is cut short or not a library (reinstall the package that owns it); the loader stops at it.',
  'dup.preloaded':
    '{consumer} loads {lib} {version} from {path}, forced in by {from}; its own {own} ({ownPath}) is loaded too but ' +
    'not used',
  'dup.preloadedDetails':
    'The loader loads {from} first, and the first object with a soname answers every later request for it: the ' +
    "framework's own copy, loaded later by path, is mapped but its functions are never called. cuDNN then opens " +
    'the sub-libraries of the preloaded copy.',
  'dup.preloadedFix': "Stop preloading it, so the framework's own copy is the one that runs.",
  'dup.preloadedFixEtc':
    "Remove the line naming {path} from /etc/ld.so.preload (as root), so the framework's own copy is the one that " +
    'runs.',
  'loaded.unreadable': 'Process {pid}: {message}',
  'loaded.mapsUnreadable': 'maps not readable',
  'loaded.ok': 'Process {pid} loaded {libs}',
  'loaded.okFw': 'Process {pid} ({fw}) loaded {libs}',
  'loaded.none': 'no CUDA library',
  'loaded.differs': 'Process {pid} loaded {loaded} for {family}, where the emulation expected {expected}',
  'loaded.nothing': 'nothing',
  'loaded.differsDetails':
    'The process may have changed LD_LIBRARY_PATH or loaded libraries itself; the loaded file is the truth. Please ' +
    'report this if you can reproduce it.',
  'envs.nameInterpreter': 'Name an interpreter (…/bin/python3) or an environment folder.',
  'envs.jaxPlugin':
    'JAX in {env}: {plugin} does not match jaxlib {jaxlib}; JAX will not load the plugin and falls back to the CPU',
  'envs.jaxPluginFix': 'Install the plugin and PJRT of the same version as jaxlib (or upgrade all of them together).',
  'envs.more':
    '{n, plural, one {# more Python environment} other {# more Python environments}} found and not looked into ' +
    '(check --all-envs covers them all)',
  'envs.summary': '{env}: {stack}',
  'envs.summaryPy': '{env} (Python {py}): {stack}',
  'envs.summaryPyActive': '{env} (Python {py}, active): {stack}',
  'envs.summaryActive': '{env} (active): {stack}',
  'envs.noFramework': 'no GPU framework installed',
  'envs.buildUnknown': 'build unknown: no build_info.py',
  'envs.torchLoads': 'torch loads cuDNN {version}',
  'envs.archList': 'torch arch list {list}',
  'envs.jaxBackend': 'JAX backend {backend}',
  'envs.tfSees': 'TensorFlow sees {n} GPU(s)',
  'envs.distributions': '{n} distributions, {wheels} nvidia-* wheels',

  // compatibility verdicts, shared by versions.* and compat (src/judge/compat/judge.ts)
  'judge.unknownVersion': '(unknown version)',
  'judge.driverNone': 'No NVIDIA driver answered, so whether it runs the CUDA {cuda} runtime of {label} is unknown',
  'judge.driverNoData': "gpu-env-doctor's data has no {os} driver minimum for CUDA {cuda} ({label})",
  'judge.driverOld':
    '{label} brings the CUDA {cuda} runtime, which needs NVIDIA driver {min} or newer; this driver is {driver}',
  'judge.driverOldLimit':
    '{label} brings the CUDA {cuda} runtime, which needs NVIDIA driver {min} or newer; this driver is {driver} (it ' +
    'runs CUDA up to {limit})',
  'judge.driverCompat':
    'Driver {driver} runs the CUDA {cuda} runtime of {label} through minor-version compatibility (needs {min}+; the ' +
    'full CUDA {cuda} driver is {full})',
  'judge.driverOk': 'Driver {driver} runs the CUDA {cuda} runtime of {label} (needs {min}+)',
  'judge.gpuLine': 'GPU {gpu}: {name}, compute capability {cc}',
  'judge.ccUnknown': 'The compute capability of GPU {gpu} ({name}) is unknown',
  'judge.paddleNoCode':
    'CUDA {cuda} cannot build code for GPU {gpu} ({name}, compute capability {cc}): {label} runs there only if it ' +
    'ships PTX the driver can JIT-compile; otherwise expect "no kernel image is available for execution on the ' +
    'device". Use a build with a newer CUDA.',
  'judge.minCcOk': 'GPU {gpu} ({name}, {cc}) is supported by {label} (needs {min}+)',
  'judge.minCcFail': '{label} needs compute capability {min} or higher; GPU {gpu} ({name}) is {cc}',
  'judge.archsUnknown': 'Which GPU architectures {label} was built for is not known',
  'judge.targets': '{label} targets: {list}',
  'judge.noKernels':
    '{label} has no kernels for GPU {gpu} ({name}, {sm}) and no PTX it could JIT-compile: expect "no kernel image is ' +
    'available for execution on the device"',
  'judge.noKernelsSoft':
    '{label} has no kernels for GPU {gpu} ({name}, {sm}) and no PTX it could JIT-compile: expect "no kernel image is ' +
    'available for execution on the device" (the architecture list of this build is not confirmed)',
  'judge.ptxOld':
    '{label} runs on GPU {gpu} ({cc}) only by JIT-compiling its {ptx} PTX, which needs driver {full}+ (this is ' +
    '{driver}): expect "the provided PTX was compiled with an unsupported toolchain"',
  'judge.ptxJit':
    '{label} has no SASS for GPU {gpu} ({cc}); the driver JIT-compiles its {ptx} PTX (slow first start, kernels may ' +
    'be slower)',
  'judge.sass': '{label} has {sm} code for GPU {gpu} ({name})',
  'judge.sameFamily': '{label} runs on GPU {gpu} ({cc}) with its {sm} code (same architecture family)',
  'judge.pyOk': 'Python {py} is supported by {label}',
  'judge.pyMin': '{label} needs Python {min} or newer; this environment has {py}',
  'judge.pyOkRange': 'Python {py} is supported by {label} ({range})',
  'judge.pyExperimental': 'Python {py} is only experimental for {label} (supported: {range})',
  'judge.pyFail': '{label} supports Python {range}; this environment has {py}',
  'judge.cudnnCudaMajor': '{pkg} is cuDNN for CUDA {pkgCuda}, but {label} runs CUDA {cuda}',
  'judge.cudnnMinOk': 'cuDNN {loaded} suits {label} (needs {min}+ of cuDNN {major})',
  'judge.cudnnMinFail':
    '{label} needs cuDNN {min} or newer within cuDNN {major}; it finds {loaded} ("Outdated cuDNN installation found")',
  'judge.cudnnOtherMajor': 'another major (built with {built})',
  'judge.cudnnOlder': 'older than the {built} it was built with',
  'judge.cudnnNewer': "newer than the {built} it was built with, which cuDNN's compatibility allows",
  'judge.cudnnSame': 'the {built} it was built with',
  'judge.cudnnLoads': '{label} loads cuDNN {loaded}: {detail}',
  'judge.cudnnLoadsFail': '{label} loads cuDNN {loaded}: {detail}; {why}',
  'judge.cudnnCc': 'cuDNN {loaded} supports compute capability {min} and up; GPU {gpu} ({name}) is {cc}',
  'judge.nvccSame': 'nvcc (CUDA {nv}) is the same CUDA as {label} uses',
  'judge.paddleNvccSame':
    '{label} loads the CUDA libraries of the machine (Paddle 2.x bundles none); this toolkit is CUDA {nv}, the same ' +
    'major as its CUDA {cuda}',
  'judge.paddleNvccOther':
    '{label} loads the CUDA {major} libraries of the machine (Paddle 2.x bundles none: cuBLAS, cuDNN … must be CUDA ' +
    '{major} builds on the library path), but the toolkit here is CUDA {nv}. Install a CUDA {cuda} toolkit (or ' +
    "conda's cudatoolkit={cuda}) beside it, or PaddlePaddle 3.x, whose wheels bring their own CUDA libraries.",
  'judge.nvccTorchSame':
    ' Building CUDA extensions against it works (torch.utils.cpp_extension only warns about a different minor).',
  'judge.nvccTorchOther':
    ' Only building CUDA extensions for it (torch.utils.cpp_extension) needs an nvcc of CUDA {major}: it refuses ' +
    'another major.',
  'judge.nvccOther':
    'nvcc is CUDA {nv} while {label} uses CUDA {cuda}: that is normal, not an error. The framework brings its own ' +
    'CUDA runtime (pip nvidia-* packages or bundled libraries) and never uses nvcc or /usr/local/cuda to run.{ext}',

  // explain: the engine's reasons about memory, verdicts, terminal and Markdown renderers
  'why.xlaShrinking':
    'XLA asked for {size} up front and then retried with smaller sizes ({n} attempts): its preallocation did not fit ' +
    'in the free memory',
  'why.xlaFraction':
    'the preallocation is a fixed fraction of the GPU, so it fails when something else already holds part of the ' +
    'memory',
  'why.xlaTakenBefore':
    'the request that failed ({requested}) fits in the {size} the preallocation first asked for: the job is not too ' +
    'large for the GPU; the memory was taken before this process allocated anything (another process, or another ' +
    "framework's pool)",
  'why.cupyNothing':
    'CuPy had allocated nothing yet ("allocated so far: 0 bytes") when {bytes} bytes did not fit: the memory is ' +
    'taken by something else (or the request exceeds the GPU)',
  'why.rawOom':
    "PyTorch raised a raw CUDA out-of-memory error instead of its allocator's OutOfMemoryError: the failure came " +
    'while creating the CUDA context or a library handle, which only fails when the GPU was already full',
  'why.poolRegionSmall':
    "the framework's memory pool could not get even {size} from the GPU (its allocator asks the device for its " +
    'region, sized from the memory free at start): the GPU was nearly full before the job allocated anything of its ' +
    'own (another process, or another framework in this one)',
  'why.darknetFirstLayer':
    "darknet ran out of memory building its first layer, before any of the network's own buffers existed: the GPU " +
    'was already taken',
  'why.darknetOwn':
    'darknet allocates every buffer of the network itself (no pool, no preallocation): out of memory there is the ' +
    "network's own size (darknet's advice: raise subdivisions in the .cfg, or lower batch, width or height)",
  'why.xlaContextOom':
    "XLA ran out of memory creating the device's stream executor (its CUDA context), before the job allocated " +
    'anything: the GPU was already full; "no supported devices found" follows from it',
  'why.freeAtStart':
    'only {free} of {total} was free when the framework started ({pct}% already in use by something else)',
  'why.tooLargeNever': 'the request ({requested}) is larger than the whole GPU ({total}): it can never fit',
  'why.tfPoolLeaves':
    "TensorFlow took {pool} of the GPU's {total} for its pool: the {left} left is less than a CUDA context and the " +
    'cuDNN/cuBLAS handles need (let it grow: allow_growth / TF_FORCE_GPU_ALLOW_GROWTH=true)',
  'why.tooLargeAny':
    'the request ({requested}) is larger than the largest GPU made ({largest}): it cannot fit on any GPU',
  'why.tooLarge': 'the request ({requested}) is larger than the whole GPU ({total})',
  'why.noRoomForLarger': 'no other process could make room for a request larger than the GPU',
  'why.processHolds': 'process {pid} holds {size}',
  'why.othersOfGpu': "{list} of the GPU's {total}",
  'why.othersOfGpuSelf': "{list} of the GPU's {total}; this process only {self}",
  'why.wouldHaveFit': 'without the other processes this job ({self} + {requested} requested) would have fit',
  'why.jobSmall': 'the job itself uses a small part of the GPU',
  'why.smallShare': '{list} (a small share of the GPU)',
  'why.selfHolds': 'no other process is listed on the GPU: this process itself holds the memory',
  'why.selfHoldsOf': 'no other process is listed on the GPU: this process itself holds the memory ({self} of {total})',
  'why.noOtherListed': 'PyTorch lists no other process on the GPU',
  'why.otherFrameworkInProcess':
    "this process has {self} in use but PyTorch's own pool is only {pool}: {foreign} is held in this process outside " +
    'PyTorch, more than a CUDA context and its library handles take (another framework in the same process, such ' +
    'as JAX or TensorFlow, reserving its pool)',
  'why.contextsOnly': '{list}: no more than a CUDA context each, not what filled the GPU',
  'why.usedElsewhere':
    "{elsewhere} of the GPU's {total} is in use outside this process (this process: {self}), well beyond a CUDA " +
    'context: another process holds it',
  'why.freeEnough':
    '{free} of the GPU was still free for a request of {requested}: memory held by others did not stop it (this ' +
    "process's own limit or cache did)",
  'why.paddleNothing':
    'Paddle had allocated nothing yet and only {available} was available for {requested}: the memory was taken ' +
    "before Paddle allocated (another process, or another framework's pool)",
  'why.paddleHolds':
    'Paddle itself holds {allocated} and only {available} is left for {requested}: the job needs more than the GPU has',
  'why.paddleElsewhere': "{elsewhere} of the GPU's {total} is neither Paddle's nor available: another process holds it",
  'why.fragmented':
    'PyTorch holds {unalloc} reserved but unallocated, at least the {requested} requested: the room exists in the ' +
    'cache, in pieces too small',
  'why.fragmentedHalf': 'PyTorch holds {unalloc} reserved but unallocated (half the request or more)',
  'why.littleUnalloc': 'only {unalloc} is reserved but unallocated',
  'why.legacyOthers':
    'PyTorch reserved only {reserved} and {free} is free: {unaccounted} ({pct}% of the GPU) is used outside this ' +
    'PyTorch, by other processes',
  'why.legacySmall': 'this PyTorch holds a small part of the GPU',
  'why.legacyNotReserved':
    "{unaccounted} ({pct}% of the GPU) is not reserved by this PyTorch: other processes, or this process's CUDA " +
    'libraries',
  'why.legacyMost': 'this PyTorch holds most of the GPU ({reserved} reserved of {total})',
  'why.legacyCache':
    'PyTorch reserved {reserved} but only {allocated} is allocated: {cached} sits in its cache, more than the ' +
    '{requested} requested, in pieces too small',
  'why.legacyCacheLess': '{cached} is reserved but not allocated (less than the {requested} requested)',
  'explain.nothing': 'Nothing in the input points to a known GPU, CUDA, cuDNN or driver failure.',
  'explain.notEnough': 'The input shows a GPU-related message, but not enough to tell the cause.',
  'explain.familyOnly':
    'The input has the words of a GPU failure, but not a message the catalog knows: ranked by what is usually behind ' +
    'such failures, at low confidence.',
  'explain.ambiguousLine': 'This line alone cannot tell which of {n} causes it is.',
  'explain.ambiguousLog': 'The log alone cannot tell which of {n} causes it is.',
  'explain.mostLikelySetting': 'Most likely: {setting} has a value the framework cannot parse ({pct}%).',
  'explain.mostLikely': 'Most likely: {cause} ({pct}%).',
  'explain.settingTitle': '{setting} has a value the framework cannot parse',
  'explain.inputLine': '{sources}: {n, plural, one {# line} other {# lines}}',
  'explain.inputNoGpu':
    '{sources}: {n, plural, one {# line} other {# lines}}; this machine has no working NVIDIA GPU, so the log is ' +
    'judged alone (run explain on the GPU machine, or give --from its snapshot)',
  'explain.inputWith': '{sources}: {n, plural, one {# line} other {# lines}}, with the facts of {host}',
  'explain.thisMachine': 'this machine',
  'explain.contextRead': '({n} context line(s) read)',
  'explain.pasteWhole':
    'Paste the whole error with the lines above it (and your CUDA/cuDNN/driver versions) for a diagnosis.',
  'explain.addV': '(every matched line, the facts read from the input and the root-cause ids: add -v)',
  'explain.check': 'check:',
  'explain.cheapest': 'Cheapest test first: {test}:',
  'explain.cheapestNoCmd': 'Cheapest test first: {test}.',
  'explain.decides': 'What decides it:',
  'explain.onMachine': '(on the machine that failed), or paste the lines above the error',
  'explain.onMachineCudnn':
    '(on the machine that failed: it tells a cuDNN that cannot start from one that cannot get memory), or paste the ' +
    'lines above the error',
  'explain.ifFirst': 'If it is the first:',
  'explain.machineWhere': '(machine)',
  'explain.signals': 'Signals',
  'explain.weights': 'weights: {total} in all, the first cause {pct}% of it',
  'explain.factsRead': 'Facts read from the input',
  'explain.machineNote': 'machine: {note}',
  'fact.framework': 'framework',
  'fact.frameworkVersion': 'framework version',
  'fact.buildCuda': 'built with CUDA',
  'fact.cuda': 'CUDA',
  'fact.driverCuda': "driver's CUDA",
  'fact.cudnn': 'cuDNN',
  'fact.driver': 'driver',
  'fact.os': 'OS',
  'fact.python': 'Python',
  'fact.install': 'install',
  'fact.container': 'container',
  'fact.line': '{label}: {value} (line {n})',
  'fact.noLine': '{label}: {value}',
  'fact.gpu': 'GPU: {name} (line {n})',
  'fact.gpuCc': 'GPU: {name} (compute capability {cc}) (line {n})',

  // explain: Markdown (src/report/views/explain/markdown.ts)
  'explain.md.input': 'Input: {sources} ({n, plural, one {# line} other {# lines}}).',
  'explain.md.inputWith':
    'Input: {sources} ({n, plural, one {# line} other {# lines}}), combined with the facts of {host}.',
  'explain.md.inputNoGpu':
    'Input: {sources} ({n, plural, one {# line} other {# lines}}); this machine has no working NVIDIA GPU, so the ' +
    'log is judged alone.',
  'explain.md.candidate': 'candidate',
  'explain.md.confidence': 'confidence',
  'explain.md.check': 'check',
  'explain.md.decides':
    'What decides it: run `gpu-env-doctor check --deep` on the machine that failed, or paste the lines above the ' +
    'error.',
  'explain.md.machine': '(machine)',

  // explain: the fix of each root cause (src/judge/explain/fixes/fixes.ts)
  'fix.oom.smaller':
    'Make the job smaller: lower the batch size or the input size (image resolution, sequence length).',
  'fix.oom.torchAccum':
    'Keep the effective batch with gradient accumulation (several smaller steps, then optimizer.step()).',
  'fix.oom.torchAmp':
    'Use mixed precision (torch.autocast("cuda", dtype=torch.bfloat16) or float16 with GradScaler) and, for large ' +
    'models, activation checkpointing (torch.utils.checkpoint).',
  'fix.oom.torchBenchmark':
    'Set torch.backends.cudnn.benchmark = False: benchmarking tries convolution algorithms that need large workspaces.',
  'fix.oom.tfAmp': "Use mixed precision: tf.keras.mixed_precision.set_global_policy('mixed_float16').",
  'fix.oom.tfAccum': 'Keep the effective batch with gradient accumulation.',
  'fix.oom.jax': 'Use bfloat16 parameters/activations and jax.checkpoint (rematerialisation) for large models.',
  'fix.held.kill':
    'kill {pid}    # only if process {pid} is yours and no longer needed (check with: ps -o pid,user,etime,cmd -p ' +
    '{pid})',
  'fix.held.hostPid':
    "PID {pid} comes from the log: in a container that is the host's PID (NVML reports host PIDs) and names nothing " +
    'here, or another process. Run gpu-env-doctor fix on the machine, which finds the holder itself.',
  'fix.held.mapped':
    'PID {pid} in the log is PID {local} here (nvidia-smi reports host PIDs; matched by the process that has the GPU ' +
    'open)',
  'fix.held.endIt':
    'End the process that holds the GPU memory (find it with the command above; `kill PID` if it is yours and ' +
    'finished).',
  'fix.held.mustKeep': 'Or, if it must keep running: {remedy}',
  'fix.held.freeGpu': 'Or run on a free GPU: CUDA_VISIBLE_DEVICES=<index of an idle GPU> python ...',
  'fix.held.text':
    'Another process holds the GPU memory. Free it, wait for it, or use another GPU. Leftover processes ' +
    '(data-loading ' +
    'workers, Jupyter kernels, stopped jobs) keep their memory until they exit.',
  'fix.held.textPids':
    'Another process holds the GPU memory (PID {pids}). Free it, wait for it, or use another GPU. Leftover processes ' +
    '(data-loading workers, Jupyter kernels, stopped jobs) keep their memory until they exit.',
  // PyTorch's own words: its data-loading workers are the DataLoader's
  'fix.held.textTorch':
    'Another process holds the GPU memory. Free it, wait for it, or use another GPU. Leftover workers (DataLoader, ' +
    'Jupyter kernels, stopped jobs) keep their memory until they exit.',
  'fix.held.textPidsTorch':
    'Another process holds the GPU memory (PID {pids}). Free it, wait for it, or use another GPU. Leftover workers ' +
    '(DataLoader, Jupyter kernels, stopped jobs) keep their memory until they exit.',
  'fix.prealloc.jax':
    'JAX reserves 75% of GPU memory at its first operation. Turn preallocation off, or give it a smaller fraction, ' +
    'so cuDNN/cuBLAS and other processes have room.',
  'fix.prealloc.tf':
    'TensorFlow takes nearly all GPU memory at start, leaving none for cuDNN/cuBLAS handles or a second process. ' +
    'Enable memory growth: tf.config.experimental.set_memory_growth(gpu, True) for each GPU before any op (TF1: ' +
    'config.gpu_options.allow_growth = True), or set the environment variable.',
  'fix.prealloc.any':
    'A framework reserved most of the GPU memory up front. TensorFlow: enable memory growth ' +
    '(TF_FORCE_GPU_ALLOW_GROWTH=true). JAX: turn preallocation off (XLA_PYTHON_CLIENT_PREALLOCATE=false) or lower ' +
    'its fraction.',
  'fix.frag':
    "PyTorch's cache holds enough memory in pieces too small for the request. Let the allocator grow segments " +
    'instead of splitting them (PyTorch 2.1+), or cap split sizes on older versions; free the cache between phases ' +
    '(torch.cuda.empty_cache() after evaluation).',
  'fix.frag.tf':
    "TensorFlow's BFC allocator holds enough memory in pieces too small for the request. Let CUDA's own " +
    'stream-ordered allocator manage the memory instead (TF_GPU_ALLOCATOR=cuda_malloc_async, TensorFlow 2.5+).',
  'fix.frag.jax':
    "XLA's memory pool holds enough memory in pieces too small for the request. Let JAX allocate on demand and free " +
    'what it no longer uses (XLA_PYTHON_CLIENT_ALLOCATOR=platform: slower, but nothing is kept in a pool).',
  'fix.frag.cupy':
    "CuPy's memory pool keeps freed blocks for reuse, in pieces too small for the request. Give them back between " +
    'phases: cupy.get_default_memory_pool().free_all_blocks().',
  'fix.frag.other':
    "The framework's memory pool holds enough memory in pieces too small for the request. Free its cache between " +
    'phases, or let it allocate on demand instead of from a pool.',
  'fix.cudnn.needCompiled': 'cuDNN {version} or a newer minor of the same major',
  'fix.cudnn.needBuilt': 'the cuDNN version the framework was built with',
  'fix.cudnn.text':
    'The cuDNN that loads does not fit the framework build; install {need}, or install the framework release built ' +
    'for the cuDNN you have. Check which copy loads with gpu-env-doctor libs.',
  'fix.cudnn.textRuntime':
    'The cuDNN that loads ({runtime}) does not fit the framework build; install {need}, or install the framework ' +
    'release built for the cuDNN you have. Check which copy loads with gpu-env-doctor libs.',
  // TensorFlow before 2.14 and its libraries (../shared/compat/tensorflow.json: the tested build configurations)
  'fix.tfSystem.tested':
    'TensorFlow {version} loads CUDA {cuda} and cuDNN {cudnn} (its tested build) from the library path ' +
    "(LD_LIBRARY_PATH), not from pip's nvidia-* wheels.",
  'fix.tfSystem.text':
    "TensorFlow before 2.14 loads CUDA and cuDNN from the library path (LD_LIBRARY_PATH), not from pip's nvidia-* " +
    'wheels.',
  'fix.cuda.text':
    'The framework was built for CUDA {wanted}, not for the one installed. Install that CUDA runtime (alongside is ' +
    'fine), or install the framework build made for your CUDA.',
  'fix.cuda.textOther':
    'The framework was built for another CUDA version than the one installed. Install that CUDA runtime (alongside ' +
    'is fine), or install the framework build made for your CUDA.',
  // the same fix in the terms of the framework the log shows (src/judge/explain/fixes/fixes.ts)
  'fix.cuda.own.torch':
    "PyTorch's pip wheels bring their own CUDA runtime: install the one of the cuXXX index your driver supports.",
  'fix.cuda.own.tf':
    'TensorFlow 2.14+ brings its own CUDA libraries with pip install "tensorflow[and-cuda]" (Linux); older ' +
    'releases use the CUDA installed on the machine, of the version in their tested build table.',
  'fix.cuda.own.jax': 'jax[cuda12] and jax[cuda13] bring their own CUDA libraries as pip wheels.',
  // JAX and a CUDA before 12 (../shared/compat/jax.json, cuda_driver.json)
  'fix.jax.cuda11':
    "The input names CUDA {cuda}: JAX's last release for CUDA 11 is 0.4.25 (jax[cuda11_pip], CUDA 11.8 and cuDNN " +
    '8.6 or newer); later releases need CUDA 12, which jax[cuda12] brings as pip wheels (a driver of 525.60.13 or ' +
    'newer).',
  'fix.jax.cudaOld':
    "The input names CUDA {cuda}: JAX's wheels for it ended with jaxlib 0.1.71; current releases need CUDA 12, which " +
    'jax[cuda12] brings as pip wheels (a driver of 525.60.13 or newer).',
  'fix.cuda.own.ort':
    'onnxruntime-gpu is built for one CUDA major and loads the CUDA and cuDNN it finds on the machine: install those ' +
    "of ONNX Runtime's CUDA requirements table for your onnxruntime-gpu version.",
  'fix.cuda.own.cupy':
    'CuPy wheels are made for one CUDA major each (cupy-cuda11x, cupy-cuda12x): install the one of your CUDA.',
  'fix.cuda.own.paddle':
    'paddlepaddle-gpu 2.x uses the CUDA libraries installed on the machine; 3.x wheels bring theirs as pip ' +
    'dependencies.',
  'fix.cuda.own.other': 'A framework installed with pip may bring its own CUDA runtime as nvidia-* wheels.',
  'fix.driver.text':
    'The NVIDIA driver is older than the CUDA in use needs. Update the driver, or install a framework build for the ' +
    'CUDA your driver supports (nvidia-smi shows it as "CUDA Version").',
  'fix.driver.textDc':
    'The NVIDIA driver is older than the CUDA in use needs (it supports CUDA {dc}). Update the driver, or install a ' +
    'framework build for the CUDA your driver supports (nvidia-smi shows it as "CUDA Version").',
  'fix.driver.textMin':
    'The NVIDIA driver is older than the CUDA in use needs. Update the driver to {min} or newer, or install a ' +
    'framework build for the CUDA your driver supports (nvidia-smi shows it as "CUDA Version").',
  'fix.driver.textDcMin':
    'The NVIDIA driver is older than the CUDA in use needs (it supports CUDA {dc}). Update the driver to {min} or ' +
    'newer, or install a framework build for the CUDA your driver supports (nvidia-smi shows it as "CUDA Version").',
  'fix.driver.manual':
    'Install a newer NVIDIA driver (distribution package or NVIDIA installer; needs root and usually a reboot).',
  'fix.missing.text':
    "A library the framework needs is not on the loader's path. Install it (for pip frameworks the nvidia-* wheels; " +
    'otherwise the CUDA/cuDNN packages) or add its folder to LD_LIBRARY_PATH (PATH on Windows).',
  'fix.missing.textLib':
    "A library the framework needs ({lib}) is not on the loader's path. Install it (for pip frameworks the nvidia-* " +
    'wheels; otherwise the CUDA/cuDNN packages) or add its folder to LD_LIBRARY_PATH (PATH on Windows).',
  // the same for a framework that loads the machine's libraries only (TensorFlow before 2.14): no pip wheel
  'fix.missing.textSystem':
    "A library the framework needs is not on the loader's path. Install it (the CUDA/cuDNN packages) or add its " +
    'folder to LD_LIBRARY_PATH (PATH on Windows).',
  'fix.missing.textLibSystem':
    "A library the framework needs ({lib}) is not on the loader's path. Install it (the CUDA/cuDNN packages) or add " +
    'its folder to LD_LIBRARY_PATH (PATH on Windows).',
  'fix.conflict':
    'Two copies of a CUDA library compete and the wrong one loads first (LD_LIBRARY_PATH, a conda environment mixed ' +
    'with pip wheels, a system copy). Remove the stale copy from the search path so the one the framework was ' +
    'built with loads.',
  'fix.pipMirror': '',
  // the same for a framework other than PyTorch (whose CUDA wheels come from its own index, not the mirror)
  'fix.pipMirrorOther': '',
  'fix.preload.text':
    'LD_PRELOAD forces {lib} into every program, and the loader could not use it. Take it out of LD_PRELOAD (or ' +
    'point it at a working copy), then rerun.',
  'fix.preload.textWhy':
    'LD_PRELOAD forces {lib} into every program, and the loader could not use it ({why}). Take it out of LD_PRELOAD ' +
    '(or point it at a working copy), then rerun.',
  'fix.driver.mismatch':
    'Error 803: the CUDA driver library (libcuda) that loads is not the one of the kernel driver. Most often a CUDA ' +
    'compat package (…/compat) on LD_LIBRARY_PATH, older than the installed driver: take that folder off ' +
    "LD_LIBRARY_PATH so the driver's own libcuda loads; a newer driver does not help.",
  'fix.driver.mismatchReboot':
    'If no compat folder is on the path and the driver was just upgraded: reboot (or reload the nvidia modules) so ' +
    'the kernel driver and libcuda match.',
  'fix.arch.text':
    'The installed build has no code for this GPU. Install a build made with a CUDA version that supports it; a GPU ' +
    "older than the build's minimum needs an older release or a source build.",
  'fix.arch.textCc':
    'The installed build has no code for this GPU (compute capability {cc}). Install a build made with a CUDA ' +
    "version that supports it; a GPU older than the build's minimum needs an older release or a source build.",
  'fix.arch.source.torch': 'PyTorch builds from source for the architectures listed in TORCH_CUDA_ARCH_LIST.',
  'fix.arch.source.tf':
    "TensorFlow builds from source for the compute capabilities in TF_CUDA_COMPUTE_CAPABILITIES (./configure's " +
    'question).',
  'fix.arch.source.jax': "jaxlib builds from source for those of build/build.py's --cuda_compute_capabilities.",
  'fix.arch.source.ort':
    'ONNX Runtime builds from source for those of CMAKE_CUDA_ARCHITECTURES (build.sh --cmake_extra_defines).',
  'fix.arch.source.cupy': 'CuPy compiles from source for the architectures in CUPY_NVCC_GENERATE_CODE.',
  'fix.arch.source.mxnet': 'MXNet builds from source for the architectures in MXNET_CUDA_ARCH.',
  'fix.novis':
    'The process sees no GPU. Check CUDA_VISIBLE_DEVICES (empty, or an index that does not exist), that the driver ' +
    'is loaded, and in containers that the GPU is passed in (docker run --gpus all, Kubernetes nvidia.com/gpu).',
  // no GPU in a container: the container's state first (src/judge/explain/fixes/fixes.ts)
  'fix.container.noRuntime':
    'Docker has no runtime for --gpus: the NVIDIA Container Toolkit is not installed on the host, or Docker was not ' +
    'set up for it and restarted. Install the toolkit, register it with Docker, restart Docker, then start the ' +
    'container again with --gpus all.',
  'fix.container.configureRuntime':
    'On the host: install nvidia-container-toolkit, then sudo nvidia-ctk runtime configure --runtime=docker && sudo ' +
    'systemctl restart docker',
  'fix.container.lostDevices':
    'The job runs in a container, and NVML\'s "Unknown Error" there means the container lost its access to ' +
    '/dev/nvidia*: a systemd daemon-reload on the host drops the device rules the NVIDIA runtime set up. The GPU ' +
    'and the driver are fine; the container needs them given back.',
  'fix.container.restart': 'Restart the container (its device access is set up again at start).',
  'fix.container.symlinks':
    'So that it does not happen again, on the host: sudo nvidia-ctk system create-dev-char-symlinks --create-all ' +
    "(the NVIDIA Container Toolkit's troubleshooting for this error)",
  'fix.container.noGpus':
    'The job runs in a container, and a container sees a GPU only when it is started with one: docker run --gpus ' +
    'all (or --runtime=nvidia), in Kubernetes a nvidia.com/gpu resource request. Inside it, CUDA_VISIBLE_DEVICES ' +
    'must not hide the GPUs it was given.',
  'fix.fault.text':
    'The GPU or the driver is in a bad state (Xid/ECC errors, a driver upgraded without reboot, suspend/resume). ' +
    'Look at the kernel log, then reset the driver or the machine; a GPU that keeps reporting errors needs ' +
    'replacing.',
  'fix.fault.reboot':
    'Reboot the machine (or reload the driver: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo ' +
    'modprobe nvidia nvidia_uvm).',
  'fix.fault.drain': 'On a cluster: drain the node and report it to the administrators.',
  'fix.bug':
    'This looks like a defect of the framework version in use. Upgrade to the latest patch release (or go back to ' +
    'the last version that worked) and search its issue tracker for the message.',
  'fix.other': 'The cause lies outside the GPU setup (host memory, the program or its data). See the evidence lines.',
  'fix.setting.allocConf': "PyTorch's CUDA caching-allocator options, comma-separated key:value pairs",
  'fix.setting.memFraction': 'the fraction of GPU memory JAX preallocates, a number between 0 and 1',
  'fix.setting.allowGrowth':
    'TensorFlow\'s switch for growing GPU memory on demand, exactly "true" or "false" in lower case',
  'fix.setting.text':
    '{name} has a value the framework cannot parse. Run once without it to confirm, then correct it where it is set ' +
    '(shell profile, job script, container environment).',
  'fix.setting.textKnown':
    '{name} has a value the framework cannot parse ({what}, e.g. {name}={example}). Run once without it to confirm, ' +
    'then correct it where it is set (shell profile, job script, container environment).',

  // serve's help (src/commands/serve.ts)
  'cmd.serve.summary':
    'a live local web page of the GPU server: memory by process and user, stale holders, free GPUs, findings',
  'cmd.serve.description':
    "A live web page of this machine's GPUs: per GPU, its memory by process (user, framework, verdict, " +
    "age,\ncommand), the frameworks' memory policies, which GPUs are free and the CUDA_VISIBLE_DEVICES line to " +
    'use\none, the last hour of memory, and what check finds (every --check-interval seconds). It updates ' +
    'itself\n(server-sent events); without JavaScript it is a complete page that reloads itself. It only ' +
    'reads:\nnothing on it ends a process (gpu-env-doctor fix does that, after asking).\n\nIt listens on 127.0.0.1 ' +
    'unless --host says otherwise; any other address needs a token on every request: one is\nmade and printed at ' +
    'start, or read from --token-file FILE (at least {minToken} characters). With --fleet DIR\nit shows many ' +
    'machines, one row each, from the snapshots in DIR (one file per node, written by\n"gpu-env-doctor snapshot"; ' +
    'see examples/kubernetes and examples/slurm). --redact hides user names, host names and\ncommand lines.',
  'cmd.serve.example1': "this machine's page on http://127.0.0.1:{port}/",
  'cmd.serve.example2': 'for the whole lab, with a token',
  'cmd.serve.example3': 'one row per node, from the snapshots the nodes write',
  'cmd.serve.exitCodes': '0 stopped with Ctrl-C; 2 the address cannot be used, or bad options.',
  'registry.serve':
    'a live local web page of the GPU server: memory by process and user, stale holders, free GPUs, findings',
  'registry.mcp':
    'a Model Context Protocol server on stdio for coding agents: check, explain, procs, libs, compat, snapshot, the ' +
    'fix plan (read-only)',
  'cmd.mcp.summary': 'serve the tool to coding agents over the Model Context Protocol (stdio)',
  'cmd.mcp.description':
    'Runs a Model Context Protocol server on standard input and output. Its tools are read-only: check, explain\n(a ' +
    'log text or file), procs, libs, compat, snapshot, and fix_plan (the dry-run plan of fix: nothing is ended ' +
    'or\nwritten). Each returns the JSON that the command prints with --json. The findings pages are resources. ' +
    'With\n--redact every answer is redacted. Add it to an agent with the one line in the README.',
  'cmd.mcp.example1': 'start the server (an agent starts it for you)',
  'cmd.mcp.example2': 'add it to an agent, with user names, hosts and secrets replaced',
  'cmd.mcp.exitCodes': '0 the client closed the connection; 2 usage error or failure of the tool.',

  // explain: the test that tells causes apart (src/judge/explain/fixes/tests.ts); Windows and WSL sentences
  // (src/judge/platform/adapt-fix.ts)
  'test.heldOther': 'see whether another process holds GPU memory',
  'test.jaxPrealloc': 'rerun with preallocation off',
  'test.tfGrowth': 'rerun with memory growth on',
  'test.eitherPrealloc': 'rerun with memory growth on (TensorFlow) or preallocation off (JAX)',
  'test.halfBatch': 'rerun with half the batch size: if it passes, the job itself needs more memory than the GPU has',
  'test.expandable': 'rerun with expandable segments',
  'test.fragTf': "rerun with CUDA's stream-ordered allocator instead of TensorFlow's BFC pool",
  'test.fragJax': 'rerun with JAX allocating on demand instead of from its pool',
  'test.fragCupy':
    "free CuPy's pool before the allocation (cupy.get_default_memory_pool().free_all_blocks()) and rerun",
  'test.fragAny': "rerun with the framework's cache freed before the allocation that failed",
  'test.cudnnTorch': 'compare the cuDNN PyTorch was built with and the one that loads',
  'test.cudnnTf': 'compare the cuDNN TensorFlow was built with and the one that loads',
  'test.cudnnAny': 'see which cuDNN each framework loads',
  'test.cudaTf': 'compare the CUDA TensorFlow was built with and the one installed',
  'test.cudaTorch': 'compare the CUDA PyTorch was built with and the toolkit',
  'test.cudaAny': 'see which CUDA runtime each framework loads',
  'test.driverCuda': 'read the highest CUDA the driver supports ("CUDA Version")',
  'test.loaderFinds': 'see which CUDA libraries the loader finds',
  'test.whichCopy': 'see which copy of each library loads first',
  'test.archTorch': "compare the GPU's compute capability with the build's architectures",
  'test.cc': "read the GPU's compute capability",
  'test.listGpus': 'list the GPUs the job can see',
  'test.xid': 'look for Xid or ECC errors in the kernel log',
  'test.latestPatch': 'rerun with the latest patch release of the framework',
  'win.wslDriver':
    'On Windows (not inside WSL): install or update the NVIDIA driver from nvidia.com, then restart WSL from a ' +
    'Windows prompt: wsl --shutdown',
  'win.tfTested':
    'TensorFlow {series} on Windows was tested with CUDA {cuda} and cuDNN {cudnn}; the conda line installs both into ' +
    'the active environment (the tensorflow[and-cuda] extra is Linux only).',
  'win.tfSetup':
    'The conda and pip lines set up TensorFlow {version} (CUDA {cuda}, cuDNN {cudnn}) in the active environment.',
  'win.shells':
    'On Windows the `set` lines are for cmd (Anaconda Prompt), the `$env:` lines for PowerShell, `export` for Git ' +
    'Bash; each lasts for that window only.',
  'win.whereCopies': 'where.exe {dll} lists the copies on PATH in the order Windows finds them.',
  'win.driver':
    'Install a newer NVIDIA driver for Windows from nvidia.com (or the NVIDIA App / GeForce Experience), then ' +
    'restart Windows.',
  'win.driverBranch':
    'Install a newer NVIDIA driver for Windows from nvidia.com (or the NVIDIA App / GeForce Experience) (branch ' +
    '{branch} or newer), then restart Windows.',
  'win.restart': 'Restart Windows (a driver update or a driver reset needs it).',
  'win.cvd': '{cmd} (cmd) or {ps} (PowerShell), then start python',
  'win.k.condaBin':
    "conda's CUDA and cuDNN DLLs (%CONDA_PREFIX%\\Library\\bin) are on PATH only in an activated environment " +
    '(conda activate NAME).',
  'win.k.dllSearch':
    "Windows looks for a DLL in the program's folder, System32, then PATH (never LD_LIBRARY_PATH); error 126 / " +
    '"DLL load failed" means the DLL, or one it needs, is in none of them.',
  'win.k.tfNative':
    'TensorFlow 2.10 is the last release with GPU support on native Windows; TensorFlow 2.11 and later run on the ' +
    'GPU only under WSL2. The tensorflow[and-cuda] extra (2.14+) installs Linux-only nvidia-* wheels.',
  'win.k.jax':
    'JAX publishes CUDA wheels for Linux only: on Windows run it under WSL2 (jax[cuda12] inside the Linux ' +
    'environment).',
  'win.k.expandable':
    'PyTorch\'s expandable_segments allocator option is not available on Windows (it warns "expandable_segments not ' +
    'supported on this platform" and ignores it).',
  'win.k.processes':
    'taskkill /PID N /F ends a process on Windows (without /F a console program such as python.exe is only asked to ' +
    'close); tasklist /V /FI "PID eq N" shows whose it is first. nvidia-smi lists processes on Windows but not ' +
    'their memory when the GPU runs in WDDM mode.',
  'win.k.wslDriver':
    "WSL2 uses the Windows host's NVIDIA driver: update the driver on Windows; do not install a Linux NVIDIA driver " +
    'inside WSL (it replaces the WSL libcuda stub and breaks CUDA).',
  'win.k.wslLibcuda':
    'Inside WSL2, libcuda.so comes from /usr/lib/wsl/lib (mounted from the Windows driver); it must stay on the ' +
    'loader path.',
  'win.k.dll': '{dll} is {library} ({version}){how}.',
  'win.k.dllHow': ': {providers}',
  'win.k.dllOr': ', or ',

  // env.allocators and what frameworks do with their settings (src/checks/env/allocator*.ts)
  'alloc.torchOldImport':
    'PyTorch (before 2.9) raises RuntimeError "Error parsing CachingAllocator::AllocatorConfig settings" at the ' +
    'first CUDA call',
  'alloc.torchAbort':
    'PyTorch aborts at import, before any of your code runs: "terminate called after throwing an instance of ' +
    "'c10::Error' … {error}\" (SIGABRT, exit code 134)",
  'alloc.torchAbortUnknown':
    'PyTorch 2.9 and later abort at import, before any of your code runs: "terminate called after throwing an ' +
    "instance of 'c10::Error' … {error}\" (SIGABRT, exit code 134); before 2.9 it raises RuntimeError at the " +
    'first CUDA call',
  'alloc.torchOldFirstCall':
    'PyTorch (before 2.9) imports, then raises RuntimeError at the first CUDA call ({quoted}); the job ends there',
  'alloc.torchFirstCall':
    'PyTorch imports, then the first CUDA call raises {type}: {error} — the job ends there (exit code 1)',
  'alloc.cpuFallback':
    'the CUDA plugin fails to initialise ("Jax plugin configuration error") and JAX falls back to the CPU: the job ' +
    'runs without the GPU and exits 0',
  'alloc.jaxBoth':
    'JAX runs on the CPU: XLA_CLIENT_MEM_FRACTION and XLA_PYTHON_CLIENT_MEM_FRACTION are both set, which JAX refuses',
  'alloc.jaxBothQ':
    'ValueError "XLA_CLIENT_MEM_FRACTION is specified together with XLA_PYTHON_CLIENT_MEM_FRACTION": {fallback}',
  'alloc.jaxBothFix': 'Keep one of them (XLA_PYTHON_CLIENT_MEM_FRACTION is the older name).',
  'alloc.jaxNaN': 'JAX runs on the CPU, not the GPU: {name}="{value}" is not a number',
  'alloc.jaxNaNQ': "ValueError: could not convert string to float: '{value}' — {fallback}",
  'alloc.jaxNaNFix': 'Give the share of GPU memory JAX preallocates as a fraction (0.5 is half), or unset it (75%).',
  'alloc.jaxOver':
    '{name}={value} asks JAX to preallocate more than the whole GPU: the preallocation fails and steps down until it ' +
    'fits, then the job runs with nearly all the GPU',
  'alloc.jaxNotFraction': '{name}={value} is not a fraction between 0 and 1: what JAX does with it is not known',
  'alloc.jaxOverQ':
    'JAX logs "Failed to allocate device memory … RESOURCE_EXHAUSTED" for each size it tries, then runs, holding ' +
    'nearly all GPU memory (nothing left for another process)',
  'alloc.jaxZeroQ': 'JAX accepts the number; the allocator gets a limit of zero or less',
  'alloc.jaxFractionFix': 'Give the share of GPU memory JAX preallocates as a fraction (0.5 is half).',
  'alloc.jaxPrealloc':
    'XLA_PYTHON_CLIENT_PREALLOCATE="{value}" keeps preallocation on: JAX turns it off only for false, False or 0',
  'alloc.jaxPreallocQ':
    'JAX reserves 75% of GPU memory (or XLA_PYTHON_CLIENT_MEM_FRACTION) at its first operation, as if the variable ' +
    'were not set',
  'alloc.jaxPreallocFix': 'Use false to stop JAX reserving 75% of GPU memory at the first operation.',
  'alloc.jaxAllocator':
    'JAX runs on the CPU, not the GPU: XLA_PYTHON_CLIENT_ALLOCATOR="{value}" is not one of default, platform, bfc, ' +
    'cuda_async',
  'alloc.jaxAllocatorQ': 'ValueError "XLA_PYTHON_CLIENT_ALLOCATOR env var must be …": {fallback}',
  'alloc.jaxAllocatorFix': 'Unset it, or use platform (allocate on demand, slow but frugal).',
  'alloc.tfGrowth':
    'TF_FORCE_GPU_ALLOW_GROWTH="{value}" is ignored: TensorFlow reads only "true" or "false" (lower case), so it ' +
    'takes nearly all GPU memory at start',
  'alloc.tfGrowthQ':
    'TensorFlow logs "The TF_FORCE_GPU_ALLOW_GROWTH environment variable is set but could not be parsed: ' +
    '\\"{value}\\". Valid values are \\"true\\" or \\"false\\"" and keeps allow_growth off: it reserves nearly all ' +
    'GPU memory, and a second process on the GPU fails',
  'allocators.tfFix': 'Use the lower-case value TensorFlow reads.',
  'allocators.tfAlloc': 'TF_GPU_ALLOCATOR="{value}" is not an allocator TensorFlow knows (cuda_malloc_async)',
  'allocators.tfAllocFix': 'Unset it, or set cuda_malloc_async.',
  'allocators.breaks': '"{token}" breaks its key:value,key:value structure',
  'allocators.unknownKey': '"{key}" is not an option PyTorch knows',
  'allocators.badValue': 'the value of {key} is not one PyTorch accepts',
  'allocators.abortsImport': 'PyTorch aborts at import',
  'allocators.failsFirstCall': 'PyTorch fails at the first CUDA call',
  'allocators.torchMessage': '{when}: {name} — {what}',
  'allocators.torchFix':
    'Options are key:value pairs separated by commas, with the names and values PyTorch documents (True/False with ' +
    'capitals).',
  'allocators.torchFixImport':
    'Options are key:value pairs separated by commas, with the names and values PyTorch documents (True/False with ' +
    'capitals). Until it is fixed, nothing that imports torch can run.',
  'allocators.both':
    'Both PYTORCH_ALLOC_CONF and PYTORCH_CUDA_ALLOC_CONF are set, differently: recent PyTorch reads ' +
    'PYTORCH_ALLOC_CONF and ignores the other',
  'allocators.bothFix': 'Keep one of them.',
  'allocators.tfGrows': 'TensorFlow grows memory on demand',
  'allocators.jaxNoPrealloc': 'JAX does not preallocate',
  'allocators.jaxFraction': 'JAX preallocates {pct}%',
  'allocators.torchConf': 'PyTorch allocator: {conf}',

  // env.visible-devices, env.debug
  'cvd.hidesAll': 'CUDA_VISIBLE_DEVICES="{value}" hides every GPU',
  'cvd.noSuchNone': '"{entry}" in CUDA_VISIBLE_DEVICES names no GPU of this machine: no GPU is visible',
  'cvd.noSuch':
    '"{entry}" in CUDA_VISIBLE_DEVICES names no GPU of this machine; CUDA ignores it and everything after it',
  'cvd.nvd': 'NVIDIA_VISIBLE_DEVICES="{value}": the container runtime mounts no GPU into containers started from here',
  'cvd.nvdFix':
    'Set NVIDIA_VISIBLE_DEVICES=all (or the GPU indexes/UUIDs) for containers that need GPUs, or use docker run ' +
    '--gpus all.',
  'cvd.gpusHere': 'GPUs here: {list}',
  'cvd.none': 'none',
  'cvd.fix': 'Use indexes 0-{max} or the UUIDs nvidia-smi -L prints.',
  'cvd.fixEmpty': 'Use indexes 0-{max} or the UUIDs nvidia-smi -L prints, or unset the variable to see every GPU.',
  'cvd.mapping': 'its GPU {i} = physical GPU {p} ({name})',
  'cvd.sees': 'A job here sees {mapping}',
  'cvd.seesDetails': 'Frameworks number the visible GPUs from 0; nvidia-smi numbers the physical ones.',
  'cvd.mixed':
    'Mixed GPU models and CUDA_DEVICE_ORDER is not PCI_BUS_ID: CUDA numbers the GPUs fastest first, so index N is ' +
    "not nvidia-smi's GPU N",
  'cvd.mixedFix': 'Make CUDA number GPUs as nvidia-smi does.',
  'cvd.mig':
    'CUDA_VISIBLE_DEVICES names MIG device {entry} on GPU {gpu} ({profile}, GPU instance {gi}, compute instance ' +
    '{ci}): the job sees {free} of {total} MiB free',
  'cvd.migUnchecked':
    'CUDA_VISIBLE_DEVICES names MIG device {entry}: MIG is on here, but the MIG UUIDs were not read (nvidia-smi -L): ' +
    'not checked',
  'cvd.migDetails':
    "A job given a MIG device sees that instance as its GPU 0, with the instance's memory and SMs, not the whole " +
    "GPU's.",
  'cvd.migOne': 'CUDA_VISIBLE_DEVICES names several MIG devices: the job uses {first} only; {rest} it does not see',
  'cvd.migOneConsequence': 'a CUDA process enumerates one MIG device: the others stay idle for this job',
  'cvd.migOneFix': 'Start one process per MIG device, each with its own CUDA_VISIBLE_DEVICES.',
  'debug.blocking':
    'CUDA_LAUNCH_BLOCKING=1 makes every kernel launch synchronous: good for finding the failing line, much slower ' +
    'for training',
  'debug.blockingFix': 'Unset it once the error is located.',
  'debug.ptxJit':
    'CUDA_FORCE_PTX_JIT=1 ignores the compiled GPU code and JIT-compiles PTX: slow start, and fails when the build ' +
    'has no PTX',
  'debug.unset': 'Unset it.',
  'debug.cacheDisable': 'CUDA_CACHE_DISABLE=1 recompiles PTX at every start',
  'debug.eager':
    'CUDA_MODULE_LOADING=EAGER loads every kernel at start: more GPU memory and a slower start than the default LAZY',
  'debug.eagerFix': 'Unset it (LAZY is the default since CUDA 12.2).',

  // libs.missing, libs.cudnn-sublibrary-mismatch, libs.compat-libcuda, libs.ld-library-path-shadowing
  'missing.cannotLoad': '{consumer}: {lib} cannot be loaded ({error})',
  'missing.cannotLoadBy': '{consumer}: {lib} cannot be loaded ({error}) (needed by {by})',
  'missing.notFound': '{consumer}: {lib} is not found',
  'missing.notFoundBy': '{consumer}: {lib} is not found (needed by {by})',
  'missing.searched': '{lib}: searched RPATH, LD_LIBRARY_PATH, RUNPATH, the ld cache and the default folders',
  'missing.searchedNone': '{lib}: searched ',
  'missing.elsewhere': 'a copy exists at {path}, outside the search path',
  'missing.driverFix':
    'The NVIDIA driver libraries are not installed or not visible (in a container: start it with the NVIDIA runtime, ' +
    '--gpus all).',
  'missing.elsewhereFix':
    'Add the folder of the existing copy to LD_LIBRARY_PATH, or install the package that provides {lib} into the ' +
    "framework's environment.",
  'missing.installFix':
    'Install the package that provides {lib} (for pip frameworks: the matching nvidia-* wheel, e.g. pip install ' +
    "'torch[cuda]' pulls them in).",
  'sublib.mixed': '{consumer} loads libcudnn {version} from {dir} and its sub-libraries {subs} from {dirs}',
  'sublib.mixedLlp':
    '{consumer} loads libcudnn {version} from {dir} and its sub-libraries {subs} from {dirs} (LD_LIBRARY_PATH)',
  'sublib.llpFix':
    "LD_LIBRARY_PATH is searched before libcudnn's own folder when it loads its sub-libraries; remove {dirs} from it.",
  'sublib.ownFix': "Make the sub-libraries resolve from libcudnn's own folder ({dir}).",
  'sublib.process': 'Process {pid} has libcudnn {version} and {subs} loaded together',
  'sublib.processFix':
    'Restart the process with an environment where every libcudnn* file comes from one folder (see gpu-env-doctor ' +
    'libs for the search order).',
  'compatcuda.unknown': 'A forward-compatibility libcuda ({path}) is in use, but the kernel driver version is unknown',
  'compatcuda.unknownOwn': 'A forward-compatibility libcuda ({path}) is in use, but its version is unknown',
  'compatcuda.copy': '{path}: libcuda {version} (forward compatibility package)',
  'compatcuda.kernel': 'kernel driver {version}',
  'compatcuda.usedBy': 'used by {who}',
  'compatcuda.older':
    'The forward-compatibility libcuda {version} is older than the kernel driver {kernel}: CUDA fails with error 803 ' +
    '(system has unsupported display driver / cuda driver combination)',
  'compatcuda.olderDetails':
    'cuda-compat libraries only help when they are newer than the kernel driver; an older one must not be on the ' +
    'search path.',
  'compatcuda.llpFix': "Take {dir} out of LD_LIBRARY_PATH so the driver's own libcuda {kernel} loads.",
  'compatcuda.cacheFix':
    'The compat folder is reached through the ld cache: remove it from /etc/ld.so.conf.d and run ldconfig, or remove ' +
    'the cuda-compat package.',
  'compatcuda.ok':
    'Forward compatibility in use: libcuda {version} over kernel driver {kernel} (supported on data-center GPUs only)',
  'llpshadow.older':
    '{lib} {version} is older than the {own} {consumer} came with: it may lack functions the build calls (an error ' +
    'at load or at first use), or work',
  'llpshadow.instead': '{lib} {version} instead of its own {own}',
  'llpshadow.message': 'LD_LIBRARY_PATH makes {consumer} load {what}',
  'llpshadow.fix':
    'Remove {dirs} from LD_LIBRARY_PATH (frameworks installed with pip bring their own CUDA libraries and find them ' +
    'without it).',

  // python.conda-pip-mix, python.cpu-only-build, python.duplicate-dist-info, python.nvidia-wheel-conflict,
  // python.import-failed
  'condapip.message': '{env} has {names} from both conda and pip',
  'condapip.detail': '{lib}: conda {conda} / pip {pip}',
  'condapip.conda': '{name} {version}',
  'condapip.condaBuild': '{name} {version} build {build}',
  'condapip.condaChannel': '{name} {version} from {channel}',
  'condapip.condaBuildChannel': '{name} {version} build {build} from {channel}',
  'condapip.pip': '{name} {version} installed by {installer}',
  'condapip.unknownInstaller': 'an unknown installer',
  'condapip.fix':
    'Keep one package manager in charge of the CUDA libraries of this environment. The clean way is a fresh ' +
    'environment installed from one side only (all conda: pytorch/tensorflow + cudnn from one channel; or all pip: ' +
    'the framework wheels bring their own nvidia-* libraries). In place: remove one side, then reinstall the ' +
    'framework from the other side. Check first which copy the framework loads: gpu-env-doctor libs.',
  'cpuonly.rocm': 'a ROCm (AMD) build ({hip})',
  'cpuonly.cpu': 'a CPU-only build',
  'cpuonly.torchRow':
    'Reinstall PyTorch from its CUDA wheel index ({tag}: the newest CUDA variant this driver, CUDA {cuda}, can run). ' +
    'torchvision and torchaudio must come from the same index.',
  'cpuonly.torch':
    'Reinstall PyTorch with a CUDA build (pick the CUDA variant at https://pytorch.org/get-started/locally/ that the ' +
    'driver supports).',
  'cpuonly.tf':
    'Install TensorFlow with its CUDA libraries (Linux): the [and-cuda] extra brings matching nvidia-* wheels.',
  'cpuonly.tfCpu':
    'Install TensorFlow with its CUDA libraries (Linux): the [and-cuda] extra brings matching nvidia-* wheels. ' +
    'tensorflow-cpu must be removed first: both packages provide the same module.',
  'cpuonly.jaxRow':
    "Install JAX's CUDA plugin ({tag}, for this driver's CUDA {cuda}); it must be the same version as jaxlib.",
  'cpuonly.jax': 'Install JAX with its CUDA plugin: pip install -U "jax[cuda12]" (or cuda13 with a CUDA 13 driver).',
  'cpuonly.message': '{fw} {version} in {env} is {what}: it will not use the NVIDIA GPU',
  'cpuonly.jaxEvidence': 'jaxlib {version} without a jax-cuda*-plugin package',
  'cpuonly.jaxEvidenceHip': 'jaxlib {version} without a jax-cuda*-plugin package ({hip} installed)',
  'dupdist.message': '{name} is installed {n} times in {env} ({versions})',
  'dupdist.messageFolders': '{name} is installed {n} times in {env} ({versions}), in different site-packages folders',
  'dupdist.noVersion': '(no version in the name)',
  'dupdist.fix':
    'Reinstall it once so that one metadata folder and one set of files remain. If pip refuses, delete the stale ' +
    'folder by hand and reinstall.',
  'dupdist.fixKeep':
    'Reinstall it once so that one metadata folder and one set of files remain (here {keep}; pick the version you ' +
    'need). If pip refuses, delete the stale folder by hand and reinstall.',
  'pin.requires': '{by} {byVersion} requires {name}{spec}',
  'pin.requiresExtra': '{by} {byVersion} requires {name}{spec} (extra [{extra}])',
  'pin.installed': '{name} {version} installed',
  'pin.notInstalled': '{name} is not installed',
  'pin.missing': '{pin}, which is not installed in {env}',
  'pin.missingFix':
    'Install the pinned wheel (pip skipped it, or it was uninstalled); without it {by} loads whatever copy the ' +
    'system has.',
  'pin.conflict': '{broken} and {met} pin incompatible {name}: {installed} is installed, {needed} is needed',
  'pin.wrong': '{pin}, but {installed} is installed in {env}',
  'pin.conflictFix':
    'One environment cannot hold both pins. Give each framework its own environment (venv or conda env), each ' +
    'installed with its own CUDA wheels; or choose versions of the frameworks that agree on {name} (check each ' +
    "one's Requires-Dist).",
  'pin.wrongFix': 'Install the version {by} was built against (pip installed another one later, or with --no-deps).',
  'import.noOutput': 'no output',
  'import.stderrOf': 'stderr of the {fw} probe',
  'import.hung': '{name} in {env}: the import hung ({detail})',
  'import.crashed': '{name} in {env}: the import crashed ({detail})',
  'import.fails': '{name} in {env} does not import: {error}',
  'import.fix':
    'Paste the error into gpu-env-doctor explain to rank the causes. A missing or mismatched library is usually ' +
    'fixed by reinstalling the framework with its CUDA wheels in this environment.',

  // python.deep-conv
  'deep.noGpu': '{name} in {env} sees no GPU ({reason}), although this machine has one',
  'deep.noGpuFix':
    "See the gpu.* and env.* findings (CUDA_VISIBLE_DEVICES, container GPU access). The end of the framework's " +
    'stderr above usually names the reason.',
  'deep.factRaised': '{name}: the convolution ran in {env}, but {call} raised {type}: {message}',
  'deep.factCudnnFix': 'See which cuDNN the framework loads and which one it was built for (gpu-env-doctor libs).',
  'deep.factFix': 'Run the same call in your environment to see the whole error: python -c "import {fw}; …".',
  'deep.pass': '{name}: a convolution on the GPU ran in {env}',
  'deep.passCudnn': '{name}: a convolution on the GPU ran in {env}, cuDNN {cudnn}',
  'deep.passTime': '{name}: a convolution on the GPU ran in {env} ({seconds} s)',
  'deep.passCudnnTime': '{name}: a convolution on the GPU ran in {env}, cuDNN {cudnn} ({seconds} s)',
  'deep.prealloc': '{name}: the convolution failed as configured and ran with {growth}: memory, not cuDNN',
  'deep.preallocCrowded':
    '{name}: the convolution failed as configured and ran with {growth}: memory, not cuDNN — {lowFree}; {held}',
  'deep.asConfigured': 'As configured: {error}',
  'deep.memory':
    '{name}: the convolution could not get GPU memory ({signature}): cuDNN is not the problem, the memory is taken',
  'deep.memoryAlso':
    '{name}: the convolution could not get GPU memory ({signature}), also with {growth}: cuDNN is not the problem, ' +
    'the memory is taken',
  'deep.memoryLow':
    '{name}: the convolution could not get GPU memory ({signature}): cuDNN is not the problem, the memory is taken — ' +
    '{lowFree}',
  'deep.memoryAlsoLow':
    '{name}: the convolution could not get GPU memory ({signature}), also with {growth}: cuDNN is not the problem, ' +
    'the memory is taken — {lowFree}',
  'deep.memoryHeldFix':
    'Other processes hold the GPU memory. End the ones you own that are stale (gpu-env-doctor procs shows which), or ' +
    'run on a GPU with room.',
  'deep.memorySelfFix':
    'Nothing else holds the memory; the framework itself could not get enough. Check the memory.* findings, then ' +
    'reduce what the job takes (batch size) or what the framework reserves.',
  'deep.cudnn':
    '{name}: cuDNN fails ({signature}), and no out-of-memory error was reported: cuDNN is broken, not short of memory',
  'deep.cudnnAlso':
    '{name}: cuDNN fails ({signature}), also with {growth}, and no out-of-memory error was reported: cuDNN is ' +
    'broken, not short of memory',
  'deep.cudnnFix':
    'See which cuDNN the framework loads and which one it was built for (gpu-env-doctor libs), then remove the copy ' +
    "that shadows the right one (often an LD_LIBRARY_PATH entry, or a conda cuDNN next to pip's).",
  'deep.other': '{name}: the convolution failed in {env}: {error}',
  'deep.otherFix': 'Give the full error to gpu-env-doctor explain; it ranks the causes.',
  'deep.growthTf':
    'TensorFlow reserves nearly all GPU memory at start; with memory growth it takes what it needs. Set it before ' +
    'TensorFlow starts (or tf.config.experimental.set_memory_growth(gpu, True) before any op).',
  'deep.growthJax':
    'JAX preallocates 75% of GPU memory at the first operation; with preallocation off it takes what it needs (or ' +
    'lower XLA_PYTHON_CLIENT_MEM_FRACTION).',
  'deep.growthHeld': ' Other processes also hold memory: see gpu-env-doctor procs.',
  'deep.growthTorch':
    'The convolution ran once cached memory was released and cuDNN benchmark mode was off: the job is close to the ' +
    'memory limit. Leave torch.backends.cudnn.benchmark off, free cached memory between phases, or make room on ' +
    'the GPU.',
  'deep.holds': 'PID {pid} {name} holds {mib} on GPU {gpus}',
  'deep.lowFree': 'GPU {gpu} has {free} free of {total}',

  // what frameworks do with mixed or replaced cuDNN (src/judge/checks/libraries/cudnn-mix.ts)
  'mix.cudnnAccepts': 'cuDNN itself accepts this mix: {what}',
  'mix.cudnnMayRefuse':
    "cuDNN's own check may refuse the first convolution with CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH (libcudnn " +
    '{main} with sub-libraries {others}), or it may run',
  'mix.torchRan': "PyTorch's convolutions run with this mix (seen with torch {version}: conv2d ran)",
  'mix.torchNoCheck': "PyTorch's convolutions do not check the version themselves; {inner}",
  'mix.torchRaises':
    "The first torch.backends.cudnn.version() or is_acceptable() call (your code, torch.nn's LSTM/GRU, " +
    'torch.utils.collect_env) raises RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against ' +
    '{built} but found runtime version {reported}; later calls pass (torch caches the version)',
  'mix.torchPasses': "PyTorch's version check passes (built with {built}, cuDNN reports {reported})",
  'mix.tfRefuses':
    'TensorFlow refuses cuDNN at start: "Loaded runtime CuDNN library: {loaded} but source was compiled with: {built}"',
  'mix.tfCompares':
    'TensorFlow compares the cuDNN it loads ({reported}) with its build; it refuses an older minor or another major',
  'mix.tfComparesBuilt':
    'TensorFlow compares the cuDNN it loads ({reported}) with its build ({built}); it refuses an older minor or ' +
    'another major',
  'mix.jaxRan':
    'JAX runs its convolution with this mix (seen with JAX {version}: libcudnn {libcudnn} with {subs} sub-libraries)',
  'mix.jaxNoCheck': 'JAX does not compare the sub-libraries itself; {inner}',
  'mix.torchRefuses':
    'PyTorch refuses at its cuDNN version check: "cuDNN version incompatibility: PyTorch was compiled against {own} ' +
    'but found runtime version {loaded}"',
  'mix.torchAccepts': "PyTorch's version check accepts {loaded} (built with {own}); a newer cuDNN usually works",
  'mix.tfAccepts': 'TensorFlow accepts a cuDNN of the same major and a newer minor ({loaded} against {own})',
  'mix.jaxAccepts':
    "JAX accepts any cuDNN not older than its build's minimum; whether {loaded} is, the files do not say (JAX " +
    'prints "Outdated cuDNN installation found" when it is not)',
  'mix.thisOne': 'this one',

  // libs.cudnn-smoke (src/judge/checks/libraries/cudnn-smoke.ts)
  'title.libs.cudnn-smoke': 'cuDNN runs a convolution on each GPU (--deep)',
  'smoke.applies': 'run check --deep to load cuDNN and run a convolution on each GPU',
  'smoke.nothing': 'nothing to test',
  'smoke.announce': '--all-envs --deep: starting {starting}; not starting: {refused}',
  'smoke.announceDeep':
    '--all-envs --deep=frameworks: importing the frameworks with {starting}; not starting: {refused}',
  'smoke.announceNone': 'none',
  'smoke.notRun': 'not run for {env}: {why}',
  'smoke.noStart': 'The cuDNN smoke test could not start: {detail}',
  'smoke.crashed': "Loading {who}'s CUDA libraries crashed the process ({detail})",
  'smoke.killed': 'killed by a signal',
  'smoke.noReport': 'The cuDNN smoke test did not report ({detail})',
  'smoke.noOutput': 'no output',
  'smoke.noLoad': "{who}'s CUDA libraries do not load: {error}",
  'smoke.noLoadFix': 'See which copy of each library is chosen and why.',
  'smoke.noGpu': 'The cuDNN smoke test reported no GPU ({detail})',
  'smoke.visible': '{n} visible',
  'smoke.stopped': 'The cuDNN smoke test stopped on {where}: {crash}',
  'smoke.ran': "cuDNN ran a convolution on {where} with {who}'s files ({time})",
  'smoke.ranVersion': "cuDNN {version} ran a convolution on {where} with {who}'s files ({time})",
  'smoke.workspace':
    'cuDNN works on {where}, but with {free} free after its CUDA context it could not get the {need} that a ' +
    'convolution trying every algorithm asks for (TensorFlow and JAX autotuning, torch.backends.cudnn.benchmark); ' +
    'with the smallest workspace ({ws}) it ran',
  'smoke.workspaceDetails':
    'Jobs that do not autotune (PyTorch by default picks one algorithm by heuristics) may still start; the ones that ' +
    'do fail with "Failed to get convolution algorithm" or CUDNN_STATUS_ALLOC_FAILED / NOT_INITIALIZED.',
  'smoke.tiny': 'cuDNN could not run even a tiny convolution on {where}: {free} free after the CUDA context ({error})',
  'smoke.mixed': 'cuDNN reports version {reported} although libcudnn is {main}: its sub-libraries came from {dirs}',
  'smoke.anotherCopy': 'another copy',
  'smoke.mixedDetails':
    'cuDNN 9 reports the version of the sub-libraries it runs. A framework that compares it with the version it was ' +
    'built with refuses to go on (PyTorch raises "cuDNN version incompatibility" at ' +
    'torch.backends.cudnn.version(), as PyTorch 2.11 did with the system cuDNN first on LD_LIBRARY_PATH).',
  'smoke.overruled':
    "{label}'s own convolution ran (--deep=frameworks), so its result stands; the native test said: {message}",
  'smoke.heldFix':
    'Other processes hold memory on this GPU ({held}): free it (gpu-env-doctor procs shows which are stale), wait ' +
    'for it, or use another GPU.',
  'smoke.freeFix': 'Free GPU memory before the job starts, or give the job another GPU (CUDA_VISIBLE_DEVICES).',
  'smoke.freeOrOther': 'Free GPU memory or use another GPU.',
  'smoke.driverFix':
    'The libcuda that loads does not fit the kernel driver: see which copy loads and why (a cuda-compat folder on ' +
    'LD_LIBRARY_PATH is the usual reason), or update the driver.',
  'smoke.conflictFix': 'See which copy of each library loads and why, and make every cuDNN file come from one copy.',
  'smoke.visibleFix': "Check CUDA_VISIBLE_DEVICES and the container's GPU access.",
  'smoke.frameworksFix': "Run the frameworks' own convolution for their view of it.",

  // compat's proposals and fixes (src/judge/compat/fixes.ts), versions.* fallbacks
  'cfix.torch':
    'torch {version}+{variant} (CUDA {cuda}, cuDNN {cudnn}) is the newest PyTorch build that runs on driver ' +
    '{driver}{ccs, select, none {} other { and compute capability {ccs}}}{python, select, none {} other { with ' +
    'Python {python}}}. Install torchvision/torchaudio from the same index so they match.',
  'cfix.tf':
    'TensorFlow {series} (tested with CUDA {cuda}, cuDNN {cudnn}) is the newest that runs on driver {driver}{python, ' +
    'select, none {} other { with Python {python}}}{andCuda, select, yes {; [and-cuda] installs its CUDA and cuDNN ' +
    'as pip packages} other {; it needs CUDA and cuDNN installed separately (the conda command pins both into the ' +
    'environment)}}.',
  'cfix.jax':
    'jax {version} with its CUDA {major} {kind, select, plugin {plugin} other {wheel}} is the newest JAX that runs ' +
    'on driver {driver}{python, select, none {} other { with Python {python}}}.',
  'cfix.paddle':
    'paddlepaddle-gpu {pip} (CUDA {cuda}{cudnn, select, none {} other {, cuDNN {cudnn}}}) is the newest PaddlePaddle ' +
    'build that runs on driver {driver}{ccs, select, none {} other { and compute capability {ccs}}}{python, ' +
    'select, none {} other { with Python {python}}}{bundles, select, yes {; it brings CUDA and cuDNN as pip ' +
    'packages} other {; it needs CUDA {cuda} and cuDNN {cudnnRaw} on the machine (Paddle 2.x does not bundle ' +
    'them)}}.',
  'cfix.upgrade': 'Or upgrade the NVIDIA driver to {min} or newer, then reboot.',
  'cfix.upgradeFull':
    'Or upgrade the NVIDIA driver to {min} or newer ({full}+ is the full CUDA {cuda} driver, needed for PTX JIT), ' +
    'then reboot.',
  'cfix.upgradeJit':
    'Or upgrade the NVIDIA driver to {min} or newer (the CUDA {cuda} driver: PTX JIT needs it), then reboot.',
  'cfix.windowsDriver': 'install NVIDIA driver {min} or newer from nvidia.com, then reboot',
  'cfix.cudnnMin':
    'Install a cuDNN {major} of at least {min} built for CUDA {cuda} in this environment, and keep LD_LIBRARY_PATH ' +
    'from putting another libcudnn first.',
  'cfix.cudnnBuilt':
    'Make {fw} load the cuDNN it was built with ({built}): install it for CUDA {cuda} in this environment, and keep ' +
    'LD_LIBRARY_PATH / LD_PRELOAD from putting another libcudnn first.',
  'vfix.cudnnArch': 'Use a cuDNN release that still supports this GPU.',
  'vfix.cudnnBuilt': 'Install the cuDNN the framework was built with.',
  'vfix.noArch': "No build of this framework in gpu-env-doctor's data has code for this GPU.",
  'vfix.driver': 'Upgrade the NVIDIA driver to {version} or newer.',
  'vfix.python': 'Use a Python version that {fw} {version} supports ({required}).',

  // explain: reasons from the machine's facts, the setting and Xid errors
  'why.m.holder': 'now: PID {pid} ({name}, user {user}) holds {mib} on GPU {gpus}: {reason}',
  'why.m.holderFw': 'now: PID {pid} ({fw}, {name}, user {user}) holds {mib} on GPU {gpus}: {reason}',
  'why.m.holderPolicy': 'now: PID {pid} ({name}, user {user}) holds {mib} on GPU {gpus}: {reason}; {policy}',
  'why.m.holderFwPolicy': 'now: PID {pid} ({fw}, {name}, user {user}) holds {mib} on GPU {gpus}: {reason}; {policy}',
  'why.m.job': '{self} + {requested}',
  'why.m.jobOthers': '{self} + {requested} + {others} held by the other processes',
  'why.m.inProcess':
    'on this machine PID {pid} maps both PyTorch and {fw}: {fw} reserves its pool inside the same process',
  'why.m.poolsCompete':
    "now: PID {pid} ({fw}) holds {mib} on GPU {gpus} as its preallocated pool ({policy}); this job's own pool then " +
    'could not take the size it first asked for: two preallocating pools compete for one GPU',
  'why.m.poolNotStray': 'PID {pid} holds a preallocated pool, not memory left behind: the preallocation is the cause',
  'why.m.inJob':
    "at the failure this job's process PID {pid} maps {fws} and holds {mib} of {total}, and {failing} had " +
    "(nearly) none of it: {other}'s pool holds it in the same process",
  'why.m.notOtherProcess': "the memory is held inside this job's process (PID {pid}), not by another process",
  'why.m.jobHoldsIt':
    "at the failure no other process held more than a CUDA context; this job's own processes held {mib} of {total}",
  'why.m.tooLarge': 'the request ({requested}) is larger than the whole memory of every GPU here ({total})',
  'why.m.fits': 'without {who} this job, {job}, fits in {total}',
  'why.m.notFits': 'even without {who} this job, {job}, does not fit in {total}',
  // the total a PyTorch OOM states is the log's (its cudaMemGetInfo), not this machine's nvidia-smi figure
  'why.m.fitsLog': "without {who} this job, {job}, fits in the GPU's {total} (the total the log states)",
  'why.m.notFitsLog':
    "even without {who} this job, {job}, does not fit in the GPU's {total} (the total the log states)",
  'why.m.noneNow': 'no other process holds GPU memory now ({mib} used in all)',
  'why.m.memNow': 'GPU memory now: {list}',
  'why.m.memGpu': 'GPU {gpu} {used} of {total} used',
  'why.m.driverOld': 'driver {driver} supports CUDA up to {cuda}; the framework build needs CUDA {need}',
  'why.m.driverEnough': 'driver {driver} supports CUDA {cuda}, enough for {need}',
  'why.m.driverNote': 'driver {driver}, CUDA up to {cuda}, {n} GPU(s)',
  'why.m.arch': 'GPU {gpu} ({name}) is {sm}; the build has {archs}',
  'why.m.cvd': 'CUDA_VISIBLE_DEVICES="{cvd}" but this machine has {n} GPU(s) (indexes 0-{max})',
  'why.m.smiNote': 'nvidia-smi: {reason}: {message}',
  'why.m.smiReports': 'now: nvidia-smi reports {message}',
  'why.m.now': 'now: {message}',
  'why.s.image':
    'on {name} the CUDA and cuDNN libraries come with the runtime image: a cuDNN failure there usually means a ' +
    "framework version that does not fit the image's cuDNN (installed or pinned by the notebook, or left behind by " +
    'an image update)',
  'why.s.session': 'a {name} session has its GPU to itself',
  'why.s.jupyter':
    'the job ran in a Jupyter kernel: every kernel keeps the GPU memory it allocated until it is shut down or ' +
    'restarted, so another open notebook (or a stale kernel) often holds the memory',
  'why.x.hard': 'Xid {xids}: errors NVIDIA documents as hardware, memory (ECC), NVLink, bus or firmware faults',
  'why.x.app': "Xid {xids}: usually raised by the application's own kernels (illegal address, MMU fault)",
  'why.x.appAgainst': 'Xid {xids} are usually application errors',
  'why.fw.reserves': '{fw} reserves most GPU memory at start unless told otherwise',

  // explain: reasons from versions (src/judge/explain/analyse/versions.ts)
  'why.v.lookFor':
    'the framework looks for {lib} (CUDA {wanted}) but CUDA {installed} is what is installed: the framework build ' +
    'and the toolkit do not match',
  'why.v.cudaInstalled': 'a CUDA is installed, only not version {wanted}',
  'why.v.notComplete':
    'CUDA {installed} is the version asked for, yet {lib} is not found: it is not installed completely or not on the ' +
    'library path',
  'why.v.tfWheels':
    'TensorFlow wheels look for the CUDA version they were built with ({lib}); when it is missing, another CUDA ' +
    'version is often the one installed',
  'why.v.cudnnWanted': 'cuDNN {wanted} is wanted but cuDNN {installed} is installed',
  'why.v.ortCudnn':
    'onnxruntime-gpu {version} in its CUDA {cuda} build links against cuDNN {cudnn}, but cuDNN {stated} is the one ' +
    'stated',
  'why.v.ortCuda':
    'onnxruntime-gpu {version} in its CUDA {cuda} build needs the CUDA {cuda} libraries, but CUDA {stated} is the ' +
    'one stated',
  'why.v.ortRequires':
    "ONNX Runtime's CUDA provider requires {lib} {need}.* but {lib} {stated} is the one stated: the onnxruntime-gpu " +
    'build and the installed version do not match',
  'why.v.symbol':
    'a compiled Python extension refers to a C++ symbol the installed framework does not define: the extension was ' +
    'built against another release of it (rebuild or reinstall the extension for this one)',
  'why.v.symbolOwn':
    'a compiled Python extension refers to a function of its own that none of its compiled files defines: its build ' +
    'left a source file out (rebuild the extension, with its CUDA sources if it has them)',
  'why.v.symbolOwnAgainst': "the missing function is the extension's own, not one of the framework's",
  'why.v.symbolAgainst': 'the library is there; one of its symbols is not the one the extension was built against',
  'why.v.cudnnSymbol':
    'the loaded cuDNN does not define {symbol}, which the binary was linked against: it was built for another cuDNN ' +
    'release than the one that loaded',
  'why.v.jaxOldCudnn': 'the component JAX found too old is {name}',
  'why.v.jaxTorchCudnn':
    'PyTorch is in the same program and brings its own cuDNN: one process loads one libcudnn, the first to load it ' +
    'wins (import JAX first, or match the two cuDNN versions)',
  'why.v.jaxOldCuda': 'the component JAX found too old is {name}, part of the CUDA toolkit',
  'why.v.ldPathCudnn':
    'PyTorch says LD_LIBRARY_PATH names a CUDA/cuDNN folder (it prints that only then) and it brings its own cuDNN ' +
    '{compiled}: the {runtime} that loaded came from LD_LIBRARY_PATH, ahead of the bundled copy',
  'why.v.olderCopy':
    'cuDNN {stated} is installed, yet {runtime} is what loaded: another, older copy is found first ' +
    '(PATH/LD_LIBRARY_PATH, conda env, system folder)',
  'why.v.paddleCudnn':
    "paddlepaddle-gpu {pip} is built for cuDNN {built}, and cuDNN {stated} is installed: Paddle loads the system's " +
    'cuDNN, and one of another major.minor is the mismatch Paddle itself warns about',
  'why.v.paddle1xCudnn':
    "paddlepaddle-gpu {pip} (the {series} release's build for CUDA {cuda}) asks for cuDNN {min} or newer, and cuDNN " +
    '{stated} is installed: Paddle loads the cuDNN it finds on the system',
  'why.v.paddleCuda':
    'paddlepaddle-gpu {pip} is built for CUDA {built}, and CUDA {stated} is stated: Paddle loads the CUDA libraries ' +
    'it finds on the system',
  'why.v.insufficient':
    'inside a container started without GPU access the CUDA runtime finds no driver and reports it as "insufficient"',
  'why.v.driverPtx':
    "driver {driver} is older than the {need} that CUDA {cuda} ships with, so it cannot JIT-compile that toolkit's PTX",
  'why.v.driverMin': 'driver {driver} is older than {need}, the minimum for CUDA {cuda}',
  'why.v.driverEnough': 'driver {driver} is new enough for CUDA {cuda} as stated',
  'why.v.torchArch': 'PyTorch {version} was built for {archs}; the {gpu} is {sm}, which none of them can run on',
  'why.v.torchArchOk': 'PyTorch {version} includes code that runs on {sm}',
  'why.v.tfCudnn':
    'TensorFlow {version} was built with cuDNN {built}; cuDNN {cudnn} does not satisfy it (same major, equal or ' +
    'newer minor)',
  'why.v.tfCudnnOk': 'cuDNN {cudnn} fits TensorFlow {version} (built with {built})',
  'why.v.tfCuda': 'TensorFlow {version} was built with CUDA {built}; CUDA {cuda} is installed',
  'why.v.tfCudaOk': 'CUDA {cuda} is what TensorFlow {version} was built with',
  'why.v.tfPredates':
    'TensorFlow {version} was built with CUDA {built}, which predates the {gpu} ({sm}): it only runs through slow, ' +
    'fragile PTX JIT if at all',
  'why.v.compilerOlder':
    "CUDA {cuda} can compile for {sm}, so the {compiler} that refused it is not CUDA {cuda}'s: an older one ran (an " +
    'nvcc first on PATH, CUDA_HOME pointing at another toolkit, another libnvrtc loaded)',
  'why.v.compilerPredates':
    'CUDA {cuda} predates {sm}: its {compiler} cannot compile for this GPU; a newer CUDA (and a framework build for ' +
    'it) is needed',
  'why.v.compilerDropped':
    'CUDA {cuda} no longer targets {sm}: its {compiler} cannot compile for this GPU; an older CUDA (and a framework ' +
    'build for it) is needed',
  'why.v.buildCuda': 'the build uses CUDA {cuda}, which cannot target the {gpu} ({sm})',
  'why.v.jaxlibMajors': 'jaxlib {version} is built for CUDA {majors}; CUDA {cuda} is installed',
  'why.v.jaxlibTag': 'the installed jaxlib is its CUDA {major} build; CUDA {cuda} is installed',
  'why.v.jaxlibMin': 'jaxlib {version} ({variant}) needs CUDA {min} or newer; CUDA {cuda} is installed',
  'why.v.jaxlibMinOk': "CUDA {cuda} meets jaxlib {version}'s minimum ({min})",
  'why.v.jaxlibMinUnsure':
    'jaxlib {version} ({variant}) needs CUDA {min} or newer; "CUDA {cuda}" does not say whether the installed minor ' +
    'reaches it',
  'why.v.jaxCudnn': 'jaxlib {version} needs cuDNN {need} or a newer minor of that major; cuDNN {cudnn} is installed',
  'why.v.jaxCudnnOk': "cuDNN {cudnn} meets jaxlib {version}'s minimum ({need})",

  // explain: PaddlePaddle's fixes (src/judge/explain/paddle.ts)
  'paddle.aCudaLib': 'a CUDA library',
  'paddle.yourBuild': 'your paddlepaddle-gpu build',
  // src/knowledge/paddle.json cudnnLoading (windows), in the catalog so that it reads in Chinese too
  'paddle.k.loadingWindows':
    'On Windows Paddle loads cudnn64_<major>.dll from PATH and the CUDA bin folder (cuDNN 8.3+ also needs ' +
    'zlibwapi.dll there).',
  'paddle.couldNotOpen': 'Paddle could not open {lib}.',
  'paddle.couldNotOpen126':
    'Paddle could not open {lib} (Windows error 126: the DLL, or one it needs, is on no folder of PATH).',
  'paddle.v2NoLibs':
    "Paddle 2.x brings no CUDA libraries: it opens the machine's cuDNN, cuBLAS … at the first GPU call, so {label} " +
    'needs them installed and on the library path.',
  'paddle.unversioned':
    'Paddle opens the unversioned libcudnn.so: a system whose cuDNN package has only the versioned file ' +
    '(libcudnn.so.<major>; the -dev package adds the link) fails the same way.',
  'paddle.cudnnin':
    'Paddle 2.5 and 2.6 also come as builds with cuDNN inside (the …/cudnnin/ index of paddlepaddle.org.cn), and ' +
    'every 3.x wheel brings cuDNN as a pip dependency.',
  'paddle.cudnn':
    'Paddle was built with cuDNN {built}{found, select, none {} other { and finds {found} on this machine}}: a cuDNN ' +
    'older than the build (or of another major) "may cause serious incompatible bug", Paddle\'s own words. Install ' +
    'cuDNN {want} and make it the one on the library path, or install the paddlepaddle-gpu build made for the ' +
    'cuDNN you have.',
  'paddle.seeWarning': '(see its warning)',
  'paddle.orNewer': '{built} or a newer {major}.x',
  'paddle.ofBuild': 'of the build',
  'paddle.driver':
    'Paddle was built with CUDA {compiled}{driverCuda, select, none {} other {, but the driver supports CUDA ' +
    '{driverCuda} (what Paddle calls "CUDA runtime version in your machine" is the driver\'s)}}. Update the NVIDIA ' +
    'driver{min, select, none {} other { to {min} or newer}}, or install the paddlepaddle-gpu build for a CUDA the ' +
    'driver supports{fits, select, none {} other { ({fits})}}.',
  'paddle.cudaV2':
    '{label} needs the CUDA {cuda} libraries on the machine (Paddle 2.x brings none). Install that CUDA (beside ' +
    'others is fine, on the library path), or the paddlepaddle-gpu build for the CUDA you have: {builds}.',
  'paddle.versionOfBuild': 'version of its build',
  'paddle.cuda':
    '{label} needs the CUDA of its build. Install that CUDA (beside others is fine, on the library path), or the ' +
    'paddlepaddle-gpu build for the CUDA you have: {builds}.',
  'paddle.arch':
    "This paddlepaddle-gpu build has no code for the GPU. Paddle's install docs tie GPU generations to CUDA builds " +
    '(Ampere, sm_80/sm_86: a CUDA 11 build; Hopper, sm_90: CUDA 12): install a build made with a CUDA that knows ' +
    'the GPU{newest, select, none {} other {, like {newest}}}.',
  'paddle.prealloc':
    "Paddle's pip packages allocate as needed (FLAGS_allocator_strategy=auto_growth); with naive_best_fit, or a " +
    'large FLAGS_fraction_of_gpu_memory_to_use, Paddle takes most of the GPU at start and leaves nothing to other ' +
    'processes or to cuDNN. Use auto_growth.',
  'paddle.oom':
    'Make the job smaller: lower the batch size or the input size. Use mixed precision (paddle.amp.auto_cast() with ' +
    "paddle.amp.GradScaler) and, for large models, recompute (paddle.distributed.fleet.utils.recompute). Paddle's " +
    'message says how much it had allocated and how much the GPU still had: when its own share is small, another ' +
    'process holds the memory.',
  'paddle.noGpu':
    'Paddle sees no GPU ("GetCUDADeviceCount():0"). The CPU package paddlepaddle may be installed instead of (or ' +
    'besides) paddlepaddle-gpu, CUDA_VISIBLE_DEVICES may hide the GPUs, or the driver is not loaded.',

  // explain: a catalog message's meaning with its reason (src/judge/explain/diagnose.ts)
  // fragmentation's title for a framework other than PyTorch (src/report/views/explain/answer.ts)
  'explain.fragTitlePool': "The framework's memory pool is fragmented",
  'why.sigOneReason': '{what}. Under this cause, that means: {why}',
  'why.sigHere': '{what}. Here, that is: {why}',
  // a catalog row's meaning or reason in words true of any framework: shown where the row's own words name a
  // framework the input is not (src/judge/explain/readings.ts, neutralKey)
  'reading.neutral.pt-import-libcudart-missing':
    'A CUDA library could not be loaded: the loader found no file of that name on its search path.',
  'reading.neutral.pt-import-libcudart-missing.cuda_toolkit_mismatch':
    'the framework was built for another CUDA major than the one installed',
  'reading.neutral.tf-cudnn-loaded-mismatch-v3.cudnn_version_mismatch':
    "an older cuDNN (another package's copy, or the system's) loaded first",
  'reading.neutral.dnn.library_not_found':
    'The framework has no usable cuDNN (not loaded, wrong version, or failed to initialise)',
  'reading.neutral.cuda-out-of-memory.framework_preallocation': 'a framework that reserves GPU memory up front took it',
  'reading.neutral.nccl-cuda-malloc-failed.framework_preallocation': 'a framework reserved the GPU memory up front',
  'reading.neutral.cudnn-not-initialized.framework_preallocation': 'a framework reserved the GPU memory up front',
  'reading.neutral.xla-dnn-init-failed.library_conflict':
    "another package's or the system's cuDNN loads before the framework's own",
  'reading.neutral.tf-cudnn-handle.framework_preallocation':
    "the framework's own reservation, or another framework in the same process, holds the memory",
  'reading.neutral.cudnn-internal-error.gpu_memory_exhausted':
    'a common symptom when cuDNN cannot get the memory it needs',
  'reading.neutral.xla.unable_to_launch_convolution':
    'A fused convolution could not be launched (a known class of compiler defects)',
  'reading.neutral.ucx.sigbus':
    'the process got SIGBUS: a page of a memory-mapped file it could not back, usually a full /dev/shm ' +
    '(shared-memory transports of NCCL/UCX and data-loading worker processes in a container), rarely failing ' +
    'hardware',
  'reading.neutral.jax-found-version-older.cudnn_version_mismatch':
    "an older cuDNN (the system's, conda's or another package's) loaded",
  'reading.neutral.jax-found-version-older.cuda_toolkit_mismatch':
    "an older CUDA runtime/cuBLAS/cuSOLVER/cuFFT/cuSPARSE loaded, e.g. another package's pinned nvidia-* wheels",
  'reading.neutral.caffe-cublas-check':
    'A cuBLAS call returned a non-success status; the status name (e.g. CUBLAS_STATUS_ALLOC_FAILED, ' +
    'CUBLAS_STATUS_ARCH_MISMATCH) follows the check text',
  'reading.neutral.tf-dso-could-not-load':
    'dlopen/LoadLibrary of a CUDA library failed; the framework leaves the GPU out when a library it needs is missing',
  'reading.neutral.tf-dso-could-not-load.library_missing':
    'the CUDA runtime/cuDNN/cuBLAS of the version the framework was built for is not installed or not on ' +
    'LD_LIBRARY_PATH/PATH',
  'reading.neutral.xla-no-supported-devices.framework_preallocation':
    'a framework in another process reserved the memory up front, so context creation failed',
  'reading.neutral.tf-cannot-dlopen-gpu-libs':
    'At least one of cudart/cublas/cufft/curand/cusolver/cusparse/cudnn could not be loaded, so the framework runs ' +
    'on the CPU',
  'reading.neutral.tf-cannot-dlopen-gpu-libs.library_conflict':
    'two packages in the same environment bring different versions of the CUDA libraries',
  'reading.neutral.cupy-oom.memory_held_by_other_process':
    "other processes, or another framework's up-front reservation, hold memory",
  'reading.neutral.xla-driver-older-than-ptxas.driver_too_old': 'driver older than the CUDA toolkit the framework uses',
  'reading.neutral.pt-no-cuda-gpus': 'CUDA initialised but reported zero devices where at least one was needed',
  'explain.testCommand': '{test}: {command}',
  'explain.snapshotFacts': "the machine's facts from the snapshot {file}: {sub}",
  'explain.err.cannotRead': 'cannot read {file}: {why}',
  'file.err.noSuchFile': 'no such file',
  'file.err.permission': 'permission denied',
  'file.err.isDir': 'is a directory',
  'explain.err.dirNotLog': '{file} is a directory, not a log file',
  'explain.err.empty': 'the input is empty ({inputs})',
  'answer.next': 'Next step:',
  'answer.nextMd': 'Next step',
  'answer.candidates': 'Candidates, and what tells them apart:',
  'answer.alternatives': 'If that is not it:',
  'answer.testDecides': 'The cheapest test decides: {test}.',
  'answer.checkDecides':
    'Run check where the job failed: it reads the driver, the libraries and the GPU memory that decide between these ' +
    'causes (or paste the lines above the error).',
  'answer.checkDecidesCudnn':
    'Run check --deep where the job failed: its cuDNN test tells a cuDNN that cannot start from one that cannot get ' +
    'memory (or paste the lines above the error).',
  'answer.onMachine': 'on the machine that failed',
  'answer.tells': 'tells it:',
  // a later cause that reads a line an earlier cause already showed (src/report/views/explain/answer.ts)
  'answer.alsoFits': 'Line {line} (read under cause {rank}) also fits this cause: {why}',
  'answer.alsoFitsBare': 'Line {line} (read under cause {rank}) also fits this cause',
  'answer.tellApart': 'What tells it from cause {rank}: {test}',
  'answer.tellApartCmd': 'What tells it from cause {rank}: {test} ({command})',

  // fix's plan and results (src/report/views/fix.ts, src/judge/fix/plan.ts)
  'plan.onGpu': '{mib} on GPU {gpus}',
  'plan.memUnknown': 'memory ?',
  'plan.leftAloneLine': 'PID {pid} ({user}) {cmd}: {mem}; {verdict}: {why}',
  'plan.old': '{age} old',
  'plan.stepLine': '{who}: {mem}; {verdict}: {why}',
  'plan.stepLineAge': '{who}: {mem}, {age} old; {verdict}: {why}',
  'plan.titleSnapshot': '{title}: the plan (nothing is done from a snapshot)',
  'plan.titleLive': 'gpu-env-doctor fix on {host}: the plan',
  'plan.leftAlone': 'Left alone (fix does not end these):',
  'plan.keep': 'keep',
  'plan.nothing': 'Nothing to fix: no stale GPU process, no setting to write, no problem found at warn level or above.',
  'plan.toEnd':
    "Processes to end (SIGTERM, then SIGKILL after {grace} s; each PID's start time is checked again first):",
  'plan.skip': 'skip',
  'plan.notEnded': 'not ended: {why}',
  'plan.end': 'end ',
  'plan.gone': 'gone',
  'plan.settings': 'Settings to write to {file} (load it with: source {file}):',
  'plan.conflict': 'conflict',
  'plan.conflictLine': '{check} asks for {name}={value}; kept the first value',
  'plan.unset': '(unset)',
  'plan.notWritten': 'not written: {why}',
  'plan.rebuild': 'Rebuild the environment (run these yourself; fix never installs anything):',
  'plan.forYou': 'For you to do (installs, driver changes and anything else fix does not do itself):',
  'plan.parentOfZombie': 'PID {pid} (parent of zombie {zombie})',
  'plan.ended': 'ended {name} ({by})',
  'plan.alreadyExited': '{name} had already exited',
  'plan.refused': 'refused {name}: {why}',
  'plan.couldNotEnd': 'could not end {name}: {why}',
  'plan.didNotEnd': 'did not end {name}: {why}',
  'plan.wrote': "wrote {file}; load it in the job's shell: source {file}",
  'plan.unchanged': "{file} already has these settings; load it in the job's shell: source {file}",
  'plan.didNotWrite': 'did not write {file}: {why}',
  'plan.window':
    'Each was watched for {s} s before this plan: CPU, output files, and {gpu}; anything that worked, served or ' +
    'detached on purpose is kept.',
  'plan.windowGpu.process': 'GPU activity per process (nvidia-smi pmon)',
  'plan.windowGpu.gpu': 'GPU utilization (per process only where it is the one holder)',
  'plan.windowGpu.none': 'no GPU activity (nvidia-smi gave none)',
  'plan.gpuFreeNow': 'GPU {gpu} now has {free} free of {total}',
  'plan.exitedSince': 'PID {pid} ({name}) has exited since the snapshot',
  'plan.zombieParent':
    'parent of zombie PID {pid}, which it has not collected: a zombie has exited but its parent has not collected it',

  // procs: the frameworks' memory policies (src/gather/procfs/framework.ts) and the frame of the table
  // (src/report/views/procs.ts)
  'policy.jaxOff':
    'JAX without preallocation (XLA_PYTHON_CLIENT_PREALLOCATE=false in it): it holds what it uses, cached',
  'policy.jaxOffRemedy':
    "its memory is its own arrays and JAX's cache; it frees it when the job ends (or with jax.clear_caches() and " +
    'deleting arrays)',
  'policy.jaxFraction': 'XLA_PYTHON_CLIENT_MEM_FRACTION={fraction} in it',
  'policy.jaxNotSet': 'XLA_PYTHON_CLIENT_PREALLOCATE not set in it',
  'policy.jaxUnreadable': 'its environment is not readable here; the default',
  'policy.jax': 'JAX, preallocating {pct} of the GPU at its first operation ({how})',
  'policy.jaxMatches': 'JAX, preallocating {pct} of the GPU at its first operation ({how}): {used} ≈ {pct} of {total}',
  'policy.jaxRemedy':
    'start that job with XLA_PYTHON_CLIENT_PREALLOCATE=false (it then takes what it needs) or a smaller ' +
    'XLA_PYTHON_CLIENT_MEM_FRACTION (e.g. .30)',
  'policy.tfGrowth': 'TensorFlow with memory growth (TF_FORCE_GPU_ALLOW_GROWTH=true in it): it holds what it has used',
  'policy.tfGrowthRemedy': 'TensorFlow never gives memory back while it runs; it is freed when the process ends',
  'policy.tfKnown':
    'TensorFlow without memory growth: it takes nearly all GPU memory at start (TF_FORCE_GPU_ALLOW_GROWTH not "true" ' +
    'in it)',
  'policy.tfUnknown':
    'TensorFlow: it takes nearly all GPU memory at start unless memory growth is on (its environment is not readable ' +
    'here)',
  'policy.tfRemedy':
    'start that job with TF_FORCE_GPU_ALLOW_GROWTH=true (or tf.config.experimental.set_memory_growth(gpu, True) ' +
    'before any op)',
  'policy.torch':
    'PyTorch: its caching allocator keeps freed blocks reserved, so part of what it holds may be cache rather than ' +
    'live tensors (only the process can tell: torch.cuda.memory_allocated() vs memory_reserved())',
  'policy.torchRemedy':
    'torch.cuda.empty_cache() in that process returns the cached part; its live tensors stay until it frees them or ' +
    'ends',
  'policy.cupy': 'CuPy: its memory pool keeps freed blocks, so part of what it holds may be pool cache',
  'policy.cupyRemedy': 'cupy.get_default_memory_pool().free_all_blocks() in that process returns the pool cache',
  'procs.gpuLine': 'GPU {gpu} {name}: {used} used of {total}, {free} free',
  'procs.noSmi': 'nvidia-smi could not answer ({message}): only processes holding /dev/nvidia* open are shown',
  'procs.noProc': 'processes could not be read: {message}',
  'procs.noneFiltered': 'No process of those GPUs or that user holds GPU memory.',
  'procs.none': 'No process holds GPU memory.',
  'procs.reasonLine': 'PID {pid}: {verdict}: {reason}',
  'procs.evidenceLine': 'evidence: {evidence}',
  'procs.policyLine': 'PID {pid} ({mib}): {summary}.',
  'procs.giveBack': 'To give it back: {remedy}.',
  'procs.stale':
    '{n, plural, one {# stale process} other {# stale processes}} holding GPU memory. To end {n, plural, one {it} ' +
    'other {them}}: gpu-env-doctor fix (it shows the plan and asks first).',
  'procs.noStale': 'No stale process holds GPU memory.',
  'procs.nextShort': 'No stale process holds GPU memory, but {headline}. Next step, as check says:',

  // compat's own frame (src/commands/compat.ts, src/judge/compat/machine.ts)
  'compat.noGpuBuild': 'no NVIDIA GPU support in this build',
  'compat.experimental': 'experimental: {list}',
  'compat.note': 'note: {note}',
  'compat.noGpu': 'no GPU',
  'compat.snapshot': 'The snapshot {file} ({sub})',
  'compat.thisMachine': 'This machine ({host}): driver {driver}, {gpus}',
  'compat.thisMachinePy': 'This machine ({host}): driver {driver}, {gpus}, Python {python}',
  'compat.thatMachine': 'That machine ({host}): driver {driver}, {gpus}',
  'compat.thatMachinePy': 'That machine ({host}): driver {driver}, {gpus}, Python {python}',
  'compat.none': 'none',
  'compat.buildsFit': 'builds that fit: {list}',
  'compat.fitsThis': 'Verdict: this machine fits {what}.',
  'compat.fitsThat': 'Verdict: that machine fits {what}.',
  'compat.notFitsThis': 'Verdict: this machine does not fit {what}.',
  'compat.notFitsThat': 'Verdict: that machine does not fit {what}.',
  'compat.sources': 'Sources:',
  'compat.sourcesHint': '({n} sources: -v lists them)',
  'compat.activeEnv': 'the active Python environment',
  'compat.noGpuSupport': '{what} has no NVIDIA GPU support in this build',
  'compat.noSmiGpu': 'This machine has no NVIDIA GPU that nvidia-smi can see, so it cannot run the GPU build',
  'compat.noBuildFits': "No {fw} build in gpu-env-doctor's data fits this machine.",
  'compat.doesNotFit': '{label} does not fit this machine.',
  // a build of a newer CUDA minor than the driver reports: why it still runs (the reader has seen "≤ 13.0")
  'compat.minorCompat':
    "Driver {driver} reports CUDA {max} as its own; a CUDA {cuda} build runs on it through CUDA's minor-version " +
    'compatibility (a CUDA {major}.x program runs on any driver of CUDA {major}), except code that needs PTX JIT.',

  // usage errors of the parser (src/cli/args.ts) and the refusals of the option table (src/cli/options.ts)
  'refusal.run.json': "run's stdout and stderr belong to the job; write the report to a file with --report FILE.json",
  'refusal.run.markdown': "run's stdout and stderr belong to the job; write the report to a file with --report FILE.md",
  'refusal.run.from': 'run watches the job it starts on this machine; judge a saved snapshot with check --from',
  'refusal.snapshot.markdown':
    'snapshot prints the facts as JSON; a readable report of them: gpu-env-doctor check --from FILE --markdown',
  'refusal.snapshot.html':
    'snapshot prints the facts as JSON; a readable report of them: gpu-env-doctor check --from FILE --html OUT.html',
  'refusal.diff.from': 'diff takes the snapshots as arguments: gpu-env-doctor diff A.json [B.json]',
  'refusal.diff.html': 'diff has no HTML report; use --markdown',
  'refusal.fleet.from': 'fleet takes the snapshots as arguments: gpu-env-doctor fleet FILES|DIR',
  'refusal.fleet.markdown': 'fleet has no Markdown report; use --html FILE',
  'refusal.check.no-machine': 'check judges a machine: this one, or a saved snapshot with --from',
  'refusal.deep': 'it shows nothing of the cuDNN smoke test; run it with gpu-env-doctor check --deep',
  'refusal.preamble.json': 'preamble prints Python code',
  'refusal.serve.page': 'it serves a page (its data as JSON at /state.json)',
  'refusal.serve.from': 'it watches this machine (for saved snapshots: --fleet DIR)',
  'args.runDashes': 'put the command after --: {tool} run -- {cmd}',
  'args.unknownOption': 'unknown option {opt} (see {help})',
  'args.unknownOptionGuess': 'unknown option {opt} (did you mean --{guess}? see {help})',
  'args.notAnOption': '{opt} is not an option of {who} (see {help})',
  'args.notAnOptionWhy': '{opt} is not an option of {who}: {why}',
  'args.thisCommand': 'this command',
  'args.needsValue': '{opt} needs a value',
  'args.needsValueHint': '{opt} needs a value ({hint})',
  'args.color': '--color must be always, never or auto, not "{value}"',
  'args.noValue': '{opt} takes no value (got "{got}")',
  'args.failOn': '--fail-on must be "error" or "warn", not "{value}"',
  'args.oneFormat': 'choose one output format: {formats} cannot be combined',
  'args.and': ' and ',
  'args.renamedEnvFile':
    '--env-file is now --env-out (Node 20 reads a file given with --env-file itself, before this tool starts): ' +
    '{tool} fix --env-out FILE',
  'args.unknownFormat': 'unknown --format "{format}" ({allowed})',

  // libs' own frame (src/report/views/libs.ts)
  'libs.noFramework':
    'No framework with CUDA libraries found (torch, tensorflow, jax, cupy) in the Python environments seen; use ' +
    '--python PATH or --elf FILE.',
  'libs.environment': '(environment {env})',
  'libs.tablesWithV':
    '(every library each framework loads, the copies on the machine and what running processes mapped: add -v)',
  'libs.alsoReachable': '{lib}: also reachable {path} ({version}) via {via}, searched later',
  'libs.via.rpath': 'rpath',
  'libs.via.runpath': 'runpath',
  'libs.via.ld_library_path': 'LD_LIBRARY_PATH',
  'libs.via.ld_cache': 'ld cache',
  'libs.via.default': 'system default folder',
  'libs.via.preloaded': 'preloaded ({by})',
  'libs.via.already_loaded': 'already loaded',
  'libs.via.already_loadedVia': 'already loaded ({via})',
  'libs.via.not_found': 'not found',
  'libs.via.path': 'by path',
  'libs.via.dlopen': '{via}, dlopen',
  'libs.note': 'note: {note}',
  'libs.copiesThat': 'Copies on that machine',
  'libs.copiesThis': 'Copies on this machine',
  'libs.subHidden': '(cuDNN sub-libraries hidden; -v shows them)',
  'libs.loadedByProcesses': 'Loaded by running processes',
  'libs.notReadable': 'not readable',
  'libs.mapped': '{n} CUDA libraries mapped',
  'libs.same': 'the same files libs predicted',
  'libs.differ': '{n} differ from what libs predicted',
  'libs.noFw': 'no framework recognised',
  'libs.loadedPredicted': '{family}: loaded {loaded}, libs predicted {expected}',
  'libs.ldCache': 'ld cache: {source} ({format}, {n} entries); LD_LIBRARY_PATH={llp}',
  'libs.ldCacheGlibc': 'ld cache: {source} ({format}, {n} entries, glibc {glibc}); LD_LIBRARY_PATH={llp}',
  'libs.unreadable': 'unreadable',
  'libs.unset': '(unset)',
  'libs.noProblem': 'No library problem found.',

  // run's terminal lines (src/report/views/run.ts)
  'run.succeeded': '{exit} after {duration}',
  'run.notSampled': 'GPU memory was not sampled',
  'run.gpuPeak': 'GPU {gpu} peak {peak} of {total}, headroom {headroom}',
  'run.gpuPeakJob': 'GPU {gpu} peak {peak} of {total} (this job {job}), headroom {headroom}',
  'run.failed': 'the command failed ({exit}) after {duration}',
  'run.noOutput':
    'No output was captured to explain (stdout goes straight to the terminal; errors are read from stderr).',
  'run.nothingInLast': 'Nothing in the last {n} lines of output points to a known cause.',
  'run.machineWhenFailed': 'The machine when it failed',
  'run.gpuMemory': 'GPU memory {caption}',
  'run.report': 'Report: {path}',
  'run.sparkPeak': 'peak {peak} of {total}',
  'run.sparkPeakJob': 'peak {peak} of {total}, this job {job}',
  'run.span': '{n, plural, one {# GPU process} other {# GPU processes}} seen',
  'run.spanFailed': 'failed at {at}; {n, plural, one {# GPU process} other {# GPU processes}} seen',
  'run.pidPeak': 'PID {pid} ({whose}) peak {peak}',
  'explain.signalLine': '{signature} ×{count} (line {line}): {summary}',
  'why.legacyFills':
    "this PyTorch's tensors hold {allocated} and {free} is free of {total}: the job itself fills the GPU",
  'why.legacyNeither': "{rest} of {total} is neither this PyTorch's tensors nor free: its cache, or other processes",
  'why.m.noGpuHere': 'this machine has no working NVIDIA GPU or driver: its facts add nothing to the log',
  'why.v.driverInstalled':
    'a driver ({driver}) is installed: "insufficient" means it is older than the CUDA runtime in use, not absent',
  'why.v.driverInstalledShort': 'a driver ({driver}) is installed',
  'why.v.macos':
    'the job ran on macOS ({os}): CUDA has not supported macOS since 10.2, and recent Macs have AMD or Apple GPUs, ' +
    'so no CUDA device is visible',
  'why.v.notNvidia': 'the GPU stated ({name}) is not an NVIDIA GPU: CUDA sees no device',
  'why.v.containerNoGpu':
    "in a container the driver's libraries (libcuda, libnvidia-ml) come from the host through the NVIDIA runtime: " +
    'the container was started without GPU access',
  'why.v.torchPredatesLibs':
    'PyTorch {version} is built with CUDA {built}, which predates the {gpu} ({sm}): the cuBLAS/cuDNN of that CUDA ' +
    'have no kernels for it',
  'why.v.tfPredatesLibs':
    'TensorFlow {version} was built with CUDA {built}, which predates the {gpu} ({sm}): the cuBLAS/cuDNN of that ' +
    'CUDA have no kernels for it',
  'fix.novisCpuBuild':
    'The installed framework build has no CUDA support, so it sees no GPU. Install its CUDA build (PyTorch: the CUDA ' +
    'wheel for your driver from pytorch.org; JAX: jax[cuda12] or jax[cuda13]; MXNet: mxnet-cuXX; a source build: ' +
    'enable CUDA and rebuild).',
  'fix.novisCpuBuild.torch':
    'The installed PyTorch build has no CUDA support (a CPU wheel), so it sees no GPU. Install the CUDA wheel for ' +
    'your driver from pytorch.org (pip install torch --index-url https://download.pytorch.org/whl/cuXXX).',
  'fix.novisCpuBuild.jax':
    'The installed jaxlib has no CUDA support, so JAX sees no GPU. Install its CUDA build: jax[cuda12] or ' +
    'jax[cuda13], the one of your driver.',
  'fix.novisCpuBuild.tf':
    'The installed TensorFlow build has no CUDA support, so it sees no GPU. On Linux install pip install ' +
    '"tensorflow[and-cuda]"; tf.test.is_built_with_cuda() says which build is installed.',
  'fix.novisCpuBuild.other':
    'The installed framework build has no CUDA support, so it sees no GPU. Install its CUDA build (a source build: ' +
    'enable CUDA and rebuild).',

  // procs' table: column heads and cells (src/report/views/procs.ts)
  'procs.col.gpu': 'GPU',
  'procs.col.pid': 'PID',
  'procs.col.user': 'USER',
  'procs.col.memory': 'MEMORY',
  'procs.col.age': 'AGE',
  'procs.col.state': 'STATE',
  'procs.col.parent': 'PARENT',
  'procs.col.container': 'CONTAINER',
  'procs.col.verdict': 'VERDICT',
  'procs.col.framework': 'FRAMEWORK',
  'procs.col.command': 'COMMAND',
  'procs.cell.devFile': 'dev file',
  'procs.cell.gone': 'gone→{parent}',
  'procs.cell.otherMaybe': 'other?',
  'procs.cell.other': 'other',
  'procs.cell.same': 'same',

  // check -v: the facts block (src/report/terminal.ts renderFacts)
  'facts.title': 'Facts',
  'facts.system': 'system: {os}, kernel {kernel}, {arch}, container: {container}{wsl, select, true {, WSL} other {}}',
  'facts.driver': 'driver {driver}, CUDA ≤ {cuda}',
  'facts.driverModule': 'driver {driver}, CUDA ≤ {cuda}, kernel module {module}',
  'facts.gpu':
    'GPU {index}: {name} (sm {sm}, {bus}, {uuid}) memory {used} used / {total}, {free} free; persistence ' +
    '{persistence}, compute mode {computeMode}, MIG {mig}, ECC {ecc}',
  'facts.process':
    'PID {pid} {user} {state} GPU {gpus} {mib} age {age} ppid {ppid}{orphaned, select, true { (orphaned)} other ' +
    '{}}{framework}: {cmd}',
  'facts.env': 'env: {vars}',
  'facts.probes': 'probes',
  'facts.colon': ': ',
  'facts.probe': '{id} {ms} ms',
  'facts.probeFailed': '{id} {ms} ms ({message})',
  'facts.failed': 'failed',

  // libs.cudnn-smoke: the status findings and their evidence (src/judge/checks/libraries/cudnn-smoke.ts)
  'list.and': ' and ',
  'smoke.head.cuda': "CUDA could not start with {who}'s files",
  'smoke.head.cudnn': 'cuDNN could not start on {where}',
  'smoke.head.cublas': 'cuBLAS could not start on {where}',
  'smoke.head.conv': 'cuDNN failed a convolution on {where}',
  'smoke.status': '{head}: {code} from {call}: {meaning}',
  'smoke.unknownStatus': 'not a status gpu-env-doctor knows',
  'smoke.initLowFree': '{meaning}; with {free} free after the CUDA context, memory is the likely reason',
  'smoke.returned': '{call} returned {name} = {code}{text}{asking, select, none {} other {, asking for {asking}}}',
  'smoke.theFrameworks': 'the frameworks',
  'smoke.memEvidence':
    'after the CUDA context: {free} free of {total}{after, select, none {} other {; after the test {after}}}',
  'smoke.conv':
    'convolution of {shape} (N×C×H×W) into {channels} channels, 3×3, {workspace, select, largest {with the workspace ' +
    'to try every algorithm} other {with the smallest workspace}} ({ws}; tensors {tensors})',
  'smoke.convRan': '{what}: ran (algorithm {algo})',
  'smoke.convReturned': '{call} returned {name} = {code}{asking, select, none {} other { asking for {asking}}}',
  'smoke.convFailed': '{what}: {result}{free, select, none {} other {, {free} free}}',
  'smoke.timeAll': '{s} s in all',
  'smoke.timeContext': 'CUDA context ready at {s} s',
  'smoke.gpu': 'GPU {index} ({name})',
  'smoke.device': 'CUDA device {device}',

  // libs' tables: column heads (src/report/views/libs.ts)
  'libs.col.library': 'library',
  'libs.col.file': 'file',
  'libs.col.version': 'version',
  'libs.col.via': 'via',
  'libs.col.origin': 'origin',
  'libs.col.package': 'package',
  'libs.notFound': 'NOT FOUND',
  'libs.notFoundError': 'NOT FOUND: {error}',

  // diff and fleet: what each fact is and why a difference in it matters (src/judge/diff/*facts.ts)
  'diff.fact.driver.label': 'NVIDIA driver',
  'diff.fact.driver.why': 'the driver sets the highest CUDA version a job can use, and its bugs and fixes',
  'diff.fact.kernel-module.label': 'loaded kernel module',
  'diff.fact.kernel-module.why':
    'a kernel module that differs from the driver libraries means an upgrade without a reboot: NVML and CUDA fail',
  'diff.fact.gpu.count.label': 'GPUs visible',
  'diff.fact.gpu.count.why':
    'jobs asking for more devices than are visible fail, and data-parallel jobs change their batch split',
  'diff.fact.gpu.model.label': 'GPU model',
  'diff.fact.gpu.model.why': 'another GPU has another architecture (kernels built for it or not), memory and speed',
  'diff.fact.gpu.memory.label': 'GPU memory (total)',
  'diff.fact.gpu.memory.why': 'a batch that fits in the larger card runs out of memory on the smaller one',
  'diff.fact.gpu.cc.label': 'compute capability',
  'diff.fact.gpu.cc.why':
    'frameworks ship kernels for a list of architectures; a capability outside it fails or JIT-compiles',
  'diff.fact.cuda.driver-max.label': 'highest CUDA the driver supports',
  'diff.fact.cuda.driver-max.why': 'a framework built for a newer CUDA than this fails with "driver too old"',
  'diff.fact.gpu.health.label': 'GPU health (ECC, row remapping)',
  'diff.fact.gpu.health.why': 'uncorrected memory errors and pending remaps crash jobs until the GPU is reset',
  'diff.fact.gpu.mig.label': 'MIG mode',
  'diff.fact.gpu.mig.why': 'with MIG on, a job sees only its slice of the GPU (memory and compute)',
  'diff.fact.gpu.compute-mode.label': 'compute mode',
  'diff.fact.gpu.compute-mode.why':
    'Exclusive_Process lets one process use the GPU; a second one fails with "busy or unavailable"',
  'diff.fact.arch.label': 'CPU architecture',
  'diff.fact.arch.why': 'x86_64 and aarch64 machines need different wheels and libraries',
  'diff.fact.container.label': 'container',
  'diff.fact.container.why':
    'inside a container the GPUs, driver libraries and other processes visible depend on the runtime',
  'diff.fact.wsl.label': 'WSL',
  'diff.fact.wsl.why': 'under WSL the driver is the Windows one and memory reporting differs',
  'diff.fact.env.label': 'environment variable',
  'diff.fact.env.why':
    'these variables change which libraries load, which GPUs are visible and how memory is allocated',
  'diff.fact.gpu.ecc.label': 'ECC mode',
  'diff.fact.gpu.ecc.why': 'ECC on reserves some memory and reports memory errors; off hides them',
  'diff.fact.os.label': 'operating system',
  'diff.fact.os.why': 'the system libraries (glibc, libstdc++) frameworks link against come with it',
  'diff.fact.kernel.label': 'Linux kernel',
  'diff.fact.kernel.why':
    'the driver kernel module is built for one kernel: an update without a DKMS rebuild leaves no driver',
  'diff.fact.gpu.persistence.label': 'persistence mode',
  'diff.fact.gpu.persistence.why':
    'without persistence mode every first CUDA call on an idle headless GPU pays the driver start-up',
  'diff.fact.tool.label': 'gpu-env-doctor version',
  'diff.fact.tool.why': 'snapshots from another version may have collected other facts',
  'diff.fact.gpu.memory-used.label': 'GPU memory in use',
  'diff.fact.gpu.memory-used.why': 'what other processes hold at the moment of the snapshot',
  'diff.fact.gpu.processes.label': 'GPU processes',
  'diff.fact.gpu.processes.why': 'the processes at the moment of the snapshot',
  'diff.fact.collected-at.label': 'collected at',
  'diff.fact.collected-at.why': 'when the snapshot was taken',
  'diff.fact.uptime.label': 'uptime',
  'diff.fact.uptime.why': 'time since boot',
  'diff.fact.loads.label': 'library a framework loads',
  'diff.fact.loads.why':
    'the cuDNN / CUDA runtime copy that actually loads decides compatibility, whatever else is installed',
  'diff.fact.copies.label': 'copies on disk',
  'diff.fact.copies.why': 'several copies of one library are what LD_LIBRARY_PATH, RPATH and load order choose between',
  'diff.fact.framework.label': 'framework build',
  'diff.fact.framework.why':
    'the framework build fixes the CUDA and cuDNN versions it needs and the GPU architectures it has kernels for',
  'diff.fact.wheel.label': 'Python package',
  'diff.fact.wheel.why': 'nvidia-* wheels carry the cuDNN, cuBLAS and CUDA runtime copies the frameworks load first',
  'diff.fact.conda.label': 'conda package',
  'diff.fact.conda.why':
    'conda environments bring their own cudatoolkit and cuDNN, which shadow the system and pip copies',
  'diff.fact.framework.probe.label': 'framework self-test (--deep=frameworks)',
  'diff.fact.framework.probe.why': 'what happened when the framework was imported and ran a convolution on the GPU',
  'diff.fact.python.version.label': 'Python version',
  'diff.fact.python.version.why':
    'wheels are built per Python version; another one may get another framework build or none',
  'diff.fact.python.duplicates.label': 'packages installed twice',
  'diff.fact.python.duplicates.why':
    'two metadata folders for one package: which copy imports is an accident of the file order',
  'diff.fact.python.env.label': 'Python environment',
  'diff.fact.python.env.why': 'the environment the job runs in: another one has other packages',

  // diff's frame (src/report/views/diff.ts, compare.ts)
  'diff.notCollectedOn': 'not collected on {side} (an older snapshot, or a probe that did not run there)',
  'diff.holds': 'PID {pid} {name} holds {mib}',
  'diff.freeOf': '{free} free of {total}',
  'diff.gpuMemory': 'GPU {index} memory',
  'diff.memoryWhy':
    'a process holding most of a GPU leaves a job too little memory to start ("out of memory", "cuDNN failed to ' +
    'initialize")',
  'diff.none': '(none)',
  'diff.values': '{n} values',
  'diff.notCollected': '(not collected)',
  'diff.notSet': '(not set)',
  'diff.absent': '(none)',
  'diff.notInstalled': 'not\u00a0installed',
  'diff.side':
    '{label}{otherHost, select, true { (host {host})} other {}}, taken {taken}{known, select, true {, {ago} ago} ' +
    'other {}}',
  'diff.impact.critical': 'critical',
  'diff.impact.high': 'high',
  'diff.impact.medium': 'medium',
  'diff.impact.low': 'low',
  'diff.impact.noise': 'noise',
  'diff.impactCount': '{n} {impact}',
  'diff.noDifferences': 'No differences that matter',
  'diff.differences': '{n, plural, one {# difference} other {# differences}} ({parts})',
  'diff.same': '{n} facts the same',
  'diff.hidden': '{n, plural, one {# difference} other {# differences}} of the moment hidden (--all shows them)',
  'diff.why': '{why}:',
  'diff.more': '… {n} more (-v shows them)',
  'diff.col.impact': 'impact',
  'diff.col.fact': 'fact',
  'diff.col.why': 'why it matters',

  // fleet's frame, terminal and HTML (src/report/views/fleet.ts, html.ts)
  'fleet.title': 'Fleet',
  'fleet.machinesFrom':
    '{machines, plural, one {# machine} other {# machines}} from {files, plural, one {# file} other {# files}}',
  'fleet.skippedCount': ', {n} skipped',
  'fleet.skipped': 'skipped',
  'fleet.moreList': '… {n} more (-v lists them)',
  'fleet.duplicates': 'host names in more than one file: {names}',
  'fleet.configurations': 'Configurations ({n})',
  'fleet.moreConfigurations': '… {n} more configurations (-v lists them)',
  'fleet.outliers': 'Outliers ({n})',
  'fleet.outliersNote': ' machines whose value differs from what most of the fleet has',
  'fleet.none': 'none',
  'fleet.usual': '(usual: {usual})',
  'fleet.more': '… {n} more',
  'fleet.moreOutliers': '… {n} more outliers (-v or --json lists them)',
  'fleet.splits': 'Split facts ({n})',
  'fleet.splitsNote': ' no value held by two thirds of the fleet',
  'fleet.valueOn': '{value} on {n}',
  'fleet.moreValues': ' … {n} more values',
  'fleet.findings': 'Findings across the fleet',
  'fleet.noFindings': 'no check reported a problem on any machine',
  'fleet.findingOn': '{check} on {n, plural, one {# machine} other {# machines}}',
  'fleet.summary':
    '{machines, plural, one {# machine} other {# machines}} · {groups, plural, one {# configuration} other {# ' +
    'configurations}} · {outliers, plural, one {# outlier} other {# outliers}} · {errors, plural, one {# check} ' +
    'other {# checks}} failing with errors{skipped, plural, =0 {} other { · # files skipped}}',
  'fleet.html.title': 'Fleet: {n} machines',
  'fleet.html.meta':
    '{files, plural, one {# file} other {# files}} read, {skipped} skipped · {groups, plural, one {# configuration} ' +
    'other {# configurations}} · {outliers, plural, one {# outlier} other {# outliers}} · generated {at} by {tool}',
  'fleet.html.skippedFiles': 'Skipped files',
  'fleet.html.file': 'file',
  'fleet.html.why': 'why',
  'fleet.html.configurations': 'Configurations',
  'fleet.html.machines': 'machines',
  'fleet.html.configuration': 'configuration',
  'fleet.html.which': 'which',
  'fleet.html.outliers': 'Outliers',
  'fleet.html.noOutliers': "None: every machine has the fleet's usual value of every fact.",
  'fleet.html.machine': 'machine',
  'fleet.html.impact': 'impact',
  'fleet.html.fact': 'fact',
  'fleet.html.value': 'value',
  'fleet.html.usual': 'usual',
  'fleet.html.splits': 'Split facts',
  'fleet.html.splitsNote': 'No value is held by two thirds of the fleet.',
  'fleet.html.values': 'values (machines)',
  'fleet.html.findings': 'Findings across the fleet',
  'fleet.html.noFindings': 'No check reported a problem on any machine.',
  'fleet.html.severity': 'severity',
  'fleet.html.check': 'check',
  'fleet.html.message': 'message',
  'fleet.html.all': 'all {n}',
  'fleet.html.notSet': '(not set)',
  'fleet.html.selfContained': 'this file is self-contained: no scripts, nothing fetched.',
  'severity.error': 'error',
  'severity.warn': 'warn',
  'severity.info': 'info',
  'fleet.problem.notFile': 'not a regular file',
  'fleet.problem.tooLarge': 'too large (more than {max} bytes)',
  'fleet.problem.empty': 'empty file',
  'fleet.problem.noSuchFile': 'no such file or folder',
  'fleet.problem.denied': 'permission denied',
  'fleet.problem.linkOutside': 'a link to outside the folder (not followed)',
  'fleet.problem.notJson': 'is not JSON',
  'fleet.problem.notSnapshot': 'is not a gpu-env-doctor snapshot',
  'fleet.problem.notSnapshotAt': 'is not a gpu-env-doctor snapshot (at {path})',
  'fleet.problem.unreadable': 'cannot be read ({code})',

  // serve's page (src/report/serve/render.ts, fleet-render.ts, model.ts): catalog texts are the tool's own, values are
  // escaped
  'serve.readOnly': 'read-only',
  'serve.noScript': 'Scripts are off: this page reloads itself every {s} s.',
  'serve.footer': 'this page only reads: nothing on it ends a process. Its data as JSON: {link}.',
  'serve.redacted': ' User names and command lines are hidden (--redact).',
  'serve.othersHidden':
    " /proc hides other users' processes here (hidepid): their command lines are not shown (--show-all shows them).",
  'serve.figures': ' The figures below are from {clock} ({ago} ago).',
  'serve.live': 'Live · updated {ago} ago · read every {every}',
  'serve.waiting': 'Waiting for the first answer from nvidia-smi{asked, select, true { (asked {ago} ago)} other {}}.',
  'serve.hanging':
    'nvidia-smi has not answered for {ago}: the driver may be hung (a GPU fallen off the bus, or a process stuck in ' +
    'the kernel).',
  'serve.failed': 'nvidia-smi could not answer: {failure} (for {ago}).',
  'serve.itFailed': 'it failed',
  'serve.freeUnknown':
    'Which GPUs are free is not known: nvidia-smi is not answering{old, select, true { (the figures below are old)} ' +
    'other {}}.',
  'serve.tokenShort': '--token-file {file}: the token must be one word of at least {min} characters',
  'serve.noneFree':
    'No GPU is free now ({n, plural, one {the only GPU holds a process or memory} other {each of the # GPUs holds a ' +
    'process or memory}}).',
  'serve.freeNow': 'Free now: {gpus} of {n, plural, one {# GPU} other {# GPUs}}. To run on one:',
  'serve.allOfThem': 'All of them: {line}',
  'serve.deviceOrder':
    'CUDA_DEVICE_ORDER=PCI_BUS_ID makes CUDA number the GPUs as nvidia-smi does (its default puts the fastest first).',
  'serve.byUuid': "A GPU's UUID names the same GPU whatever order CUDA numbers them in (nvidia-smi -L lists them).",
  'serve.stale':
    '{n, plural, one {# stale process holds} other {# stale processes hold}} GPU memory. To end the ones you own ' +
    'safely, on {host}:',
  'serve.staleNote': 'It shows the plan and asks first; this page never ends anything.',
  'serve.badgeFree': 'free',
  'serve.badgeNotOffered': 'not offered',
  'serve.gpuUsage': '{used} used of {total}, {free} free',
  'serve.noProcess': 'No process uses this GPU.',
  'serve.policy': 'What this means for PID {pid}: {summary}. {remedy}',
  'serve.period': '.',
  'serve.barLabel': 'GPU {index} memory: {segments}',
  'serve.deviceFile': 'device file',
  'serve.col.user': 'user',
  'serve.col.memory': 'memory',
  'serve.col.framework': 'framework',
  'serve.col.verdict': 'verdict',
  'serve.col.age': 'age',
  'serve.col.command': 'command',
  'serve.total': 'total {total}',
  'serve.timelineLabel':
    'GPU {index} memory in use over the last {minutes} minutes{any, select, true {, peak {peak} of {total}} other {: ' +
    'nothing read yet}}',
  'serve.minAgo': '{n} min ago',
  'serve.now': 'now',
  'serve.timelineCaption':
    'Memory in use, last {minutes} minutes{any, select, true {, peak {peak}} other {}} (the highest reading of each ' +
    '{bucket}; gaps: nothing read)',
  'serve.holdersTitle': "Holding a GPU device without memory in nvidia-smi's list",
  'serve.holdersNote':
    "Processes with /dev/nvidia* open that nvidia-smi does not list (starting up, another tool's context, or " +
    'nvidia-smi is not answering).',
  'serve.findingsTitle': 'What check finds on this machine',
  'serve.checksOff': 'The checks are off (--check-interval 0).',
  'serve.checked': 'checked {ago} ago, every {every}',
  'serve.every': 'every {every}',
  'serve.noProcesses': 'processes could not be read',
  'serve.title': 'GPUs on {host}',
  'serve.segment': 'PID {pid} {name} ({user}, {verdict})',
  'serve.unattributed': 'not attributed to a listed process',
  'serve.migOn': 'MIG mode is on: a job uses a MIG instance (nvidia-smi -L lists them), not the whole GPU',
  'serve.prohibited': 'compute mode Prohibited: no CUDA process may use it',
  'serve.notDescribed': 'listed by nvidia-smi, not described by the process probe',
  'serve.checksRunning': 'The checks are running (they read the whole machine, once a minute by default).',
  'serve.checksNotRun': 'The checks have not run yet.',
  'serve.checksLong': 'The checks have been running for {running}: these findings are from {clock}.',
  'serve.fleet.title': 'GPU fleet: {n, plural, one {# machine} other {# machines}}',
  'serve.fleet.redacted': ' User names, host names and command lines are hidden (--redact).',
  'serve.fleet.reading': 'Reading the snapshots in {dir}…',
  'serve.fleet.skipped': ' · {n, plural, one {# file} other {# files}} skipped',
  'serve.fleet.status': '{n, plural, one {# machine} other {# machines}} from {dir}, read {ago} ago (every {every})',
  'serve.fleet.free': '{free} of {n, plural, one {# GPU} other {# GPUs}} free',
  'serve.fleet.staleHolders': '{n, plural, one {# stale holder} other {# stale holders}}',
  'serve.fleet.outlierMachines': '{n, plural, one {# outlier machine} other {# outlier machines}}',
  'serve.fleet.old': '{n, plural, one {# snapshot} other {# snapshots}} older than {age}',
  'serve.fleet.outliersNote':
    'Outliers: machines whose driver, libraries or frameworks differ from what two thirds of the fleet has; compared ' +
    '{ago} ago.',
  'serve.fleet.empty': 'No snapshot in {dir} yet. Each node writes one with: {command}',
  'serve.fleet.col.machine': 'machine',
  'serve.fleet.col.snapshot': 'snapshot',
  'serve.fleet.col.gpus': 'GPUs',
  'serve.fleet.col.free': 'free',
  'serve.fleet.col.stale': 'stale holders',
  'serve.fleet.col.differs': 'differs from the fleet',
  'serve.fleet.col.differsShort': 'differs',
  'serve.fleet.filesSkipped': 'Files skipped',
  'serve.fleet.ago': '{ago} ago',
  'serve.fleet.unreadable': 'unreadable now: {problem}',
  'serve.fleet.noSmi': 'nvidia-smi could not answer there: {failure}',
  'serve.fleet.staleRow': 'PID {pid} ({user}) {mib} on GPU {gpus}',
  'serve.fleet.usual': 'usual: {usual}',

  // fix: why a process is left alone, what became of a signal, the rebuild (src/judge/fix/plan.ts, apply.ts,
  // rebuild.ts)
  'fixr.parentInit': 'its parent is init, which collects it by itself',
  'fixr.adopted': 'its parent {parent} adopted it and collects orphans by itself',
  'fixr.parentShell':
    'its parent is {name} (PID {ppid}), a shell, supervisor or service that fix never ends: end or restart the job ' +
    'by hand',
  'fixr.foreignNs':
    "nvidia-smi's PIDs are not all this PID namespace's (PID {pid} is not), so zombie PID {zombie} may be another " +
    "namespace's process",
  'fixr.parentGone': 'its parent (PID {ppid}) is gone already',
  'fixr.noStart': 'its start time is unknown, so a reused PID could not be told apart from it',
  'fixr.notRead': 'its current state was not read',
  'fixr.ownerUnknown': 'its owner (or ours) is unknown',
  'fixr.otherUserRoot': 'it belongs to another user ({owner}); only root can end it (sudo gpu-env-doctor fix --force)',
  'fixr.otherUserForce': "it belongs to another user ({owner}); add --force to end another user's process as root",
  'fixr.cpuUnknown': 'its CPU use could not be measured, so it may be working',
  'fixr.working':
    'it is working: {pct}% of a CPU since the snapshot (e.g. a job started with nohup); end it yourself if you are ' +
    'sure: kill {pid}',
  'fixr.gpuWorking':
    'it is working on the GPU: {pct}% SM activity during the watch (a job waiting on the GPU uses little CPU); end ' +
    'it yourself if you are sure: kill {pid}',
  'fixr.gpuBusyAlone':
    'its GPU was {pct}% busy during the watch and it is the only process there: it is working; end it yourself if ' +
    'you are sure: kill {pid}',
  'fixr.gpuShared':
    'its GPU was {pct}% busy during the watch and other processes use it too, so whether this one works cannot be ' +
    'told; end it yourself if you are sure: kill {pid}',
  'fixr.wrote':
    'it wrote to its output file during the watch: it is working; end it yourself if you are sure: kill {pid}',
  'fixr.self':
    'it is gpu-env-doctor itself or one of its ancestors (the shell or program that started it): fix never ends its ' +
    'own caller',
  'fixr.noStartTime': 'no start time to check the PID against',
  'fixr.reused': 'PID {pid} is now another process ({comm}, started {now}, not {then}): not signalled',
  'fixr.denied': '{sig} to PID {pid}: permission denied',
  'fixr.sigFailed': '{sig} to PID {pid} failed',
  'fixr.stuck': 'PID {pid} is still there after SIGKILL (state {state}): it may be stuck in the driver; see dmesg',
  'rebuild.noBuild':
    'No {fw} build in the table fits a driver supporting CUDA {cuda}: see gpu-env-doctor compat {fw} for what it ' +
    'needs.',
  'rebuild.unknown': '(unknown)',
  'rebuild.whichFramework':
    'The findings do not say which framework the job uses: keep only the install line of yours.',
  'rebuild.reinstall':
    'Then reinstall your other packages from requirements-backup.txt, leaving out the framework and nvidia-* lines ' +
    '(the framework brings its own CUDA libraries).',
  'rebuild.why':
    "{n} library problems with both conda's and pip's CUDA libraries in play: one repair would move the conflict " +
    'elsewhere, so rebuild the environment with a single package manager.',
  'fixc.savedSnapshot': 'the facts come from a saved snapshot: run fix on the machine itself',
  'fixc.root': "with --root {root} the PIDs read there need not be this machine's, so fix signals none of them",
  'fixc.savedNothing': 'the plan comes from a saved snapshot, so nothing was changed',
  'fixc.noTerminal':
    'no terminal to confirm on, so nothing was changed; add --yes to apply the plan, or --dry-run to only print it',
  'fixc.nothingChanged': 'Nothing changed.',
  'fixc.askEnd': 'end {n, plural, one {this process} other {these # processes}}',
  'fixc.askWrite': 'write {n, plural, one {the setting} other {the settings}} to {file}',
  'fixc.question': '?',
  'procs.stamp': 'gpu-env-doctor procs on {host}, {at}',
  'procs.ctrlC': ' (Ctrl-C to stop)',
  'fixc.and': ' and ',
  'serve.cli.token': 'The token (needed on every request, already in the URL above): {token}',
  'serve.cli.listening': 'Listening on {host}: other machines can open this page with the token.',
  'serve.cli.readOnly': 'Read-only. Ctrl-C stops it.',
} as const;

export type MessageKey = keyof typeof en;

// Where each part of src/ goes in the layout named by the code's flow:
//   ports/ → base/ (+ knowledge/) → gather/ → judge/ → report/ → act/ → cli/ + commands/
// Paths are relative to src/. A rule ending in "/" moves a folder (and whatever is added to it later, so files
// written on other branches follow); a rule naming a file is an exception to its folder's rule. The longest
// matching rule wins. A rule that maps a path to itself keeps it where it is.

/** @type {ReadonlyArray<readonly [string, string, string]>} [from, to, why] */
export const RULES = [
  // the new wings themselves, so that a regrouped tree maps to itself
  ['base/', 'base/', 'regrouped'],
  ['gather/', 'gather/', 'regrouped'],
  ['judge/', 'judge/', 'regrouped'],
  ['report/', 'report/', 'regrouped'],
  ['act/', 'act/', 'regrouped'],

  // ports: the only code that touches the system; unchanged
  ['ports/', 'ports/', 'I/O: the filesystem rooted at --root, the process runner, workers, stdio'],
  ['cli.ts', 'cli.ts', 'the entry of the bundle'],
  ['raw.d.ts', 'raw.d.ts', 'the ?raw module declaration'],

  // base: what every wing uses
  ['core/', 'base/', 'helpers every wing uses (new files in core/ land here)'],
  ['core/errors.ts', 'base/errors.ts', 'UsageError and friends'],
  ['core/format.ts', 'base/format.ts', 'numbers, sizes, ages as text'],
  ['version.ts', 'base/tool-version.ts', "the tool's own name and version (not a version parser)"],
  ['libs/versions.ts', 'base/versions.ts', 'parsing and comparing dotted versions'],
  ['python/pep440.ts', 'base/pep440.ts', 'PEP 440 versions, beside the dotted ones'],
  ['i18n/', 'base/i18n/', 'the message catalogs: words every wing hands out'],
  ['cli/context.ts', 'ports/context.ts', 'the Context every command and act receives: the ports it carries'],

  // knowledge: every table, one loader
  ['knowledge/', 'knowledge/', 'version tables with sources and their loader; unchanged'],
  ['core/root-causes.ts', 'knowledge/root-causes.ts', 'the root-cause ids of the contract'],
  ['explain/knowledge/', 'knowledge/explain/', "explain's framework tables, beside the compat tables they duplicate"],
  ['checks/libraries/cudnn-mix-observations.json', 'knowledge/libraries/cudnn-mix-observations.json', 'table'],
  ['libs/frameworks.json', 'knowledge/libraries/frameworks.json', 'table'],
  ['checks/python/conv-signatures.json', 'knowledge/python/conv-signatures.json', 'table'],
  ['checks/python/gpu-wheels.json', 'knowledge/python/gpu-wheels.json', 'table'],
  ['python/library-families.json', 'knowledge/python/library-families.json', 'table'],
  ['python/relevant-packages.json', 'knowledge/python/relevant-packages.json', 'table'],
  ['python/smoke-statuses.json', 'knowledge/python/smoke-statuses.json', 'table'],
  ['procs/holder-frameworks.json', 'knowledge/procs/holder-frameworks.json', 'table'],
  ['fix/env-settings.json', 'knowledge/fix/env-settings.json', 'table'],
  ['fix/framework-builds.json', 'knowledge/fix/framework-builds.json', 'table'],

  // gather: every probe, the Snapshot and its schema, the collector
  ['probes/', 'gather/', 'the probes: nvidia-smi, /proc, the system, the toolkit, the environment'],
  ['python/', 'gather/python/', 'Python environments, package metadata, build facts and the assets run in them'],
  ['libs/', 'gather/libraries/', 'ELF and ld.so.cache readers, the library inventory, the glibc loader emulation'],
  ['snapshot/', 'gather/snapshot/', 'the Snapshot: schema, collector, --from loader'],
  ['libs/schema.ts', 'gather/snapshot/schema-libraries.ts', "the Snapshot's libraries section"],
  ['python/schema.ts', 'gather/snapshot/schema-python.ts', "the Snapshot's Python section"],
  ['python/smoke-schema.ts', 'gather/snapshot/schema-smoke.ts', "the Snapshot's smoke-test section"],
  ['fleet/inputs.ts', 'gather/fleet-inputs.ts', 'reads the snapshots of a fleet (files through the port)'],
  ['fix/identity.ts', 'gather/procfs/identity.ts', 'who a PID is now, read from /proc'],
  ['procs/framework.ts', 'gather/procfs/framework.ts', "which framework a process's mapped libraries show"],
  [
    'fix/gpu-activity.ts',
    'gather/nvidia/gpu-activity.ts',
    "per-process GPU activity read from nvidia-smi (fix's sampling)",
  ],
  ['fix/gpu-free.ts', 'gather/nvidia/gpu-free.ts', "each GPU's free memory read again after fix"],
  ['run/memory-timeline.ts', 'gather/nvidia/memory-timeline.ts', "nvidia-smi's sampled lines folded into a timeline"],

  // judge: pure verdicts over the Snapshot (and the log)
  ['checks/', 'judge/checks/', 'one check per file'],
  ['core/finding.ts', 'judge/finding.ts', 'what a check returns'],
  ['core/result.ts', 'judge/result.ts', 'the result of judging a snapshot'],
  ['core/shell-syntax.ts', 'judge/platform/shell-syntax.ts', 'fix commands re-rendered per shell'],
  ['python/smoke-status.ts', 'judge/checks/libraries/smoke-status.ts', "what a smoke test's status means"],
  ['compat/', 'judge/compat/', 'what a framework build needs, and whether a machine has it'],
  ['platform/', 'judge/platform/', 'where a job ran, and fixes made right for it'],
  ['explain/', 'judge/explain/', 'the log classifier'],
  ['procs/', 'judge/procs/', "GPU processes' verdicts"],
  ['diff/', 'judge/diff/', 'facts compared across snapshots'],
  ['fleet/', 'judge/fleet/', 'snapshots merged across machines'],
  ['fix/plan.ts', 'judge/fix/plan.ts', 'what fix would do: pure'],
  ['fix/rebuild.ts', 'judge/fix/rebuild.ts', 'the clean rebuild plan: pure'],
  ['fix/env-settings.ts', 'judge/fix/env-settings.ts', 'which settings a diagnosis calls for: pure'],
  ['fix/env-file.ts', 'judge/fix/env-file.ts', 'the env file merged in place: pure'],

  // report: one file per format, views/ one per command, the serve page, redaction
  ['reporters/', 'report/', 'terminal, JSON, Markdown, HTML, Prometheus; layout, escaping, redaction'],
  ['reporters/report-model.ts', 'report/model.ts', 'the one rendering model'],
  ['libs/render.ts', 'report/views/libs.ts', 'view of `libs`'],
  ['procs/table.ts', 'report/views/procs.ts', 'view of `procs`'],
  ['diff/render.ts', 'report/views/diff.ts', 'view of `diff`'],
  ['fleet/render.ts', 'report/views/fleet.ts', 'view of `fleet`'],
  ['fleet/html.ts', 'report/views/fleet-html.ts', 'HTML view of `fleet`'],
  ['fix/render.ts', 'report/views/fix.ts', 'view of `fix`'],
  ['run/terminal.ts', 'report/views/run.ts', 'view of `run`'],
  ['explain/render/', 'report/views/explain/', 'views of `explain`'],
  ['serve/render.ts', 'report/serve/render.ts', 'the live page'],
  ['serve/client.ts', 'report/serve/client.ts', "the live page's one script"],
  ['serve/fleet-render.ts', 'report/serve/fleet-render.ts', 'the fleet page'],
  ['serve/model.ts', 'report/serve/model.ts', "the live page's model"],
  ['serve/redact-model.ts', 'report/serve/redact-model.ts', '--redact for the live page'],
  ['serve/history.ts', 'report/serve/history.ts', "the live page's hour of memory per GPU"],

  // act: what changes the machine or runs on it
  ['run/', 'act/run/', "run's job, sampler, tail"],
  ['fix/', 'act/fix/', "fix's confirmation, signalling, exit code"],
  ['serve/', 'act/serve/', "serve's collector, server, security, streams, the fleet folder watcher"],
  ['preamble/', 'act/preamble/', 'the Python self-check run in the job'],

  // cli + commands: thin
  ['cli/', 'cli/', 'arguments, options, help, main with the one error boundary'],
  ['commands/', 'commands/', 'one file per command'],
  ['commands/registry.ts', 'cli/registry.ts', 'the Command type and the lazy list of commands'],
  ['mcp/', 'commands/mcp/', "the MCP server behind `mcp`: it runs the CLI's commands, so it sits beside them"],
  ['procs/filter.ts', 'commands/shared/proc-filter.ts', '`procs --gpu --user`: argument filters (UsageError)'],
];

// The Chinese catalog: the same keys and slots as ./en.ts (test/i18n/catalog.test.ts), the terms of
// docs/zh/GLOSSARY.md (显存, 驱动, 残留进程, 动态库 …), full-width punctuation in sentences, a space between
// Chinese and Latin words or numbers. Commands, file names, ids, flags and quoted error lines are slots.
import type { MessageKey } from './en.js';

export const zh: Record<MessageKey, string> = {
  'list.semicolon': '；',
  'list.comma': '，',
  'list.sentence': '',

  'label.fix': '修复：',
  'label.gap': '',
  'label.actNote': '先显示计划并询问',
  'label.byHand': '手动，确认后：',
  'label.heldBy': '占用者：',
  'label.about': '关于此检查结果：',
  'label.ids': 'ids：',
  'label.evidence': '证据',
  'label.details': '详情',
  'label.rank': '{n}.',
  'label.logLine': '第 {n} 行：',
  'label.logLineWhere': '第 {n} 行',
  'label.machineFact': '本机：',
  'label.machineFactWhere': '本机',
  'label.noProblems': '未发现问题。',
  'label.skipped': '已跳过',
  'label.notChecked': '未检查',
  'certainty.verified': '已证实',
  'certainty.expected': '预期',
  'certainty.possible': '可能',

  'title.live': 'gpu-env-doctor {command}：{host}',
  'title.fromSnapshot': 'gpu-env-doctor {command}：快照 {file}',
  'title.snapshotLine': '主机 {host}，采集于 {taken}（{ago}前）；进程运行时长以采集时刻为准',
  'title.detailsHint': '详情：{command} -v',
  'title.noGpuVerdict': '看不到 GPU：已跳过 GPU 相关检查',
  'title.standardInput': '标准输入',

  'mark.ok': '正常',
  'mark.warn': '警告',
  'mark.fail': '错误',
  'mark.unknown': '未知',
  'mark.skip': '已跳过',

  'summary.counts': '{errors} 个错误，{warnings} 个警告',
  'summary.unknown': '{n} 个未知',
  'summary.ignored': '{n} 个已接受（由 --ignore 或配置文件忽略）',
  'summary.ignoredChecks': '未判断：{checks}（由 {by} 忽略）',
  'summary.byConfig': '配置文件 {file}',
  'config.notReading': '不读取 {file}：{why}；如仍要使用，请用 --config {file}',
  'config.cannotRead': '无法读取配置 {file}：{why}',
  'config.notJson': '配置 {file}：不是有效的 JSON',
  'config.notObject': '配置 {file}：不是 JSON 对象',
  'config.why.missing': '文件不存在',
  'config.why.link': '它是符号链接',
  'config.why.notFile': '它不是普通文件',
  'config.why.owner': '它属于另一个用户（uid {uid}）',
  'config.why.writable': '其他用户可以写入它（权限 {mode}）',
  'config.why.large': '文件过大（{size} 字节；最多 {max}）',
  'summary.checks': '{n} 项检查',
  'summary.slowest': '最慢的探测 {ms} 毫秒',
  'summary.noGpu': '看不到 GPU，因此跳过了 GPU 相关检查',
  'summary.belowThreshold': '退出码 0（警告只有在 --fail-on warn 时才算失败）',
  'summary.exit0': '退出码 0',

  'category.gpu': 'GPU 与驱动',
  'category.memory': '显存与进程',
  'category.libraries': 'CUDA 动态库',
  'category.python': 'Python 与框架',
  'category.versions': '版本与兼容性',
  'category.env': '环境变量',
  'category.system': '系统',
  'area.line': '{area}：{text}',
  'area.noProblem': '未发现问题',
  'area.problems': '{n} 个问题',
  'area.namedBelow': '{title}：见下方的检查结果',
  'area.below': '{text}（见下文）',

  'cause.gpu_memory_exhausted': '任务本身所需显存超出 GPU 容量',
  'cause.memory_held_by_other_process': '显存被其他进程占用',
  'cause.framework_preallocation': '框架预先占用了大部分显存',
  'cause.allocator_fragmentation': 'PyTorch 缓存的显存碎片化',
  'cause.cudnn_version_mismatch': '加载的 cuDNN 与框架构建版本不匹配',
  'cause.cuda_toolkit_mismatch': 'CUDA 运行时与框架构建版本不匹配',
  'cause.driver_too_old': 'NVIDIA 驱动版本过旧，不支持所用的 CUDA',
  'cause.library_missing': '缺少所需的动态库',
  'cause.library_conflict': '同一个库有两份副本相互冲突',
  'cause.gpu_arch_unsupported': '该构建不含此 GPU 架构的代码',
  'cause.no_device_visible': '进程看不到任何 GPU',
  'cause.hardware_or_driver_fault': '硬件或驱动故障',
  'cause.configuration_invalid': '框架拒绝或忽略的设置',
  'cause.framework_bug': '框架自身的缺陷',
  'cause.other': '其他原因',

  'help.usage': '用法：{tool} {synopsis}',
  'help.options': '选项：',
  'help.examples': '示例：',
  'help.exitCodes': '退出码：{text}',
  'help.env.config': '配置文件（见 --config）',
  'help.env.noCache': '设为 1：不缓存库扫描的结果（见 FILES）',
  'help.env.cacheHome': '缓存目录所在处（默认 ~/.cache）',
  'help.env.noColor': '输出不带颜色',
  'help.files.scanCache':
    '库扫描最近的结果，各自带着它读过的每个文件、目录、链接和变量：仅当它们全都未变时才复用；' +
    '仅当文件属于你且他人不可写时才采信',
  'help.learnMore': '更多：每个检查结果在 {dir} 下都有说明页（加 -v 可看到其 id）；README 有完整介绍。',
  'help.tagline': '{tool} {version}：GPU 深度学习任务为什么失败，以及如何修复。',
  'help.globalUsage': '用法：{tool} [COMMAND] [OPTIONS]',
  'help.commands': '命令：',
  'help.commonOptions': '多数命令都接受的选项（各命令的 --help 列出它自己的）：',
  'help.more': '更多：{tool} help COMMAND（或 COMMAND --help）；{tool} completion bash|zsh|fish；{tool} --version。',
  'help.globalExit': '退出码：0 没有达到 --fail-on 级别的问题，1 有达到该级别的检查结果，2 用法错误或工具自身故障。',

  'error.lang': '--lang {value}：未知语言（en 或 zh）',
  'error.noRoot': '--root {root}：文件夹不存在',
  // usage errors of the commands: translated like every message (one line on stderr, exit 2)
  'usage.noSuchFile': '文件不存在',
  // refusals of bad input raised below cli/ (InputError: a key and its params), worded at the boundary
  'usage.spec.noVersion':
    '"{spec}" 没有版本号：请写成 torch==2.1.0+cu121、tensorflow==2.12、jax[cuda12]==0.4.30 或 ' +
    'paddlepaddle-gpu==2.6.1.post120 这样的形式',
  'usage.spec.malformed':
    '"{spec}" 不是框架规格：请写成 torch==2.1.0+cu121、tensorflow==2.12、jax[cuda12]==0.4.30 或 ' +
    'paddlepaddle-gpu==2.6.1.post120 这样的形式',
  'usage.spec.unknownFramework': '未知框架 "{name}"（已知：torch、tensorflow、jax、paddlepaddle-gpu）',
  'usage.spec.badVersion': '"{version}" 不是版本号（在 "{spec}" 中）',
  'usage.spec.paddleVariant': '"+{variant}" 不是 PaddlePaddle 的 CUDA 构建（应如 .post120 或 +cu126）',
  'usage.spec.paddleCpu': 'paddlepaddle 包是 CPU 构建；CUDA 构建是 paddlepaddle-gpu（在 "{spec}" 中）',
  'usage.spec.torchVariant': '"+{variant}" 不是 PyTorch 的构建变体（应如 +cu121 或 +cpu）',
  'usage.spec.unknownVersion': 'gpu-env-doctor 的数据中没有 {framework} {version}（已知：{oldest} 至 {newest}）',
  'usage.spec.torchNoBuild': 'torch {version} 没有 +{variant} 构建（现有构建：{builds}）',
  'usage.spec.jaxNoBuild': 'jax {version} 没有 [{variant}] 构建（现有构建：{builds}）',
  'usage.spec.paddleNoBuild': 'paddlepaddle-gpu {version} 在 {platform} 上没有 {variant} 构建（现有构建：{builds}）',
  'usage.version.notVersion': '"{value}" 不是版本号',
  'usage.version.notRange': '"{range}" 不是版本范围',
  'usage.version.compatibleRelease': '"{range}"：~= 至少需要两段版本号',
  'usage.version.notCuda': '"{value}" 不是 CUDA 版本（应如 12.4）',
  'usage.version.notDriver': '"{value}" 不是驱动版本（应如 535.104.05）',
  'usage.version.notCc': '"{value}" 不是计算能力（应如 8.6 或 sm_86）',
  'usage.file.isDir': '{file} 是文件夹，不是文件',
  'usage.file.tooLarge': '{file} 太大（{size} 字节；最多 {max}）',
  'usage.file.tooLargeRead': '{file} 太大（超过 {max} 字节）',
  'usage.file.cannotRead': '无法读取 {file}：{reason}',
  'usage.file.cannotWrite': '无法写入 {file}：{reason}',
  'usage.file.changed': '{file} 在读取期间被改动：未写入',
  'usage.file.tooLargeSettings': '{file} 太大（{size} 字节；最多 {max}）：不是 fix 写入的设置文件',
  'usage.file.notText': '{file} 不是文本文件：fix 只改写它能完整保留的文本',
  'usage.file.notUtf8': '{file} 不是 UTF-8 文本：fix 只改写它能完整保留的文本',
  'usage.from.notJson': '{file} 不是 JSON（{reason}）',
  'usage.from.tooDeep': '{file} 不是 gpu-env-doctor 快照：嵌套超过 {max} 层',
  'usage.from.invalid': '{file} 不是 gpu-env-doctor 快照：{reason}',
  'usage.from.invalidAt': '{file} 不是 gpu-env-doctor 快照：{reason}（位于 {path}）',
  'usage.check.noArgs': 'check 不接受参数（收到 "{arg}"；见 gpu-env-doctor check --help）',
  'usage.check.quietFormat': '--quiet 只用于文本报告，不能与 --format {format} 同用',
  'usage.fleet.needsFiles': 'fleet 需要快照文件或文件夹（见 gpu-env-doctor fleet --help）',
  'usage.fleet.noneRead': '没有一个快照能读取',
  'usage.fleet.noneReadWhy': '没有一个快照能读取（{file}：{reason}）',
  'usage.fleet.noneReadWhyMore': '没有一个快照能读取（{file}：{reason}；另有 {n} 个）',
  'usage.diff.count': 'diff 接受一个或两个快照文件（收到 {n} 个）；见 gpu-env-doctor diff --help',
  'usage.diff.twoStdin': '两个快照中只能有一个来自标准输入',
  'usage.explain.needsLog': 'explain 需要一份日志：给出 FILE（可以多个）、用管道传入，或用 "-" 粘贴',
  'usage.explain.framework': '--framework 应为 tensorflow、pytorch、jax 或 paddle，而不是 "{value}"',
  'usage.explain.noMachineFrom': '--no-machine 与 --from 互相矛盾：请只选一个',
  'usage.explain.stdinOnce': '标准输入（"-"）只能读取一次',
  'usage.explain.stdinBoth': '标准输入不能既是日志又是 --from 快照',
  'usage.explain.elf':
    '{file} 是程序或动态库（ELF），不是日志：要查看它加载哪些 CUDA 动态库，请用 gpu-env-doctor libs --elf {file}',
  'usage.explain.snapshot':
    '{file} 是 gpu-env-doctor 快照，不是日志：用 gpu-env-doctor check --from {file} 检查它，或结合其中的事实解释日志：gpu-env-doctor explain ' +
    'LOG --from {file}',
  'usage.explain.gzip': '无法读取 {file}：不是有效的 gzip（{why}）',
  'usage.fix.noArgs': 'fix 不接受参数（收到 "{arg}"）',
  'usage.fix.grace': '--grace 应为 0 到 600 之间的秒数，而不是 "{value}"',
  'usage.fix.envOut': '--env-out 应指定一个文件，而不是 "{value}"',
  'usage.serve.noArgs': 'serve 不接受参数（收到 "{arg}"；多台机器请用 --fleet DIR）',
  'usage.serve.host': '--host 应为要监听的地址，而不是 "{value}"',
  'usage.serve.port': '--port 应为 0 到 65535 之间的整数，而不是 "{value}"',
  'usage.serve.fleetEmpty': '--fleet 需要一个文件夹',
  'usage.serve.fleetMissing': '--fleet {dir}：文件夹不存在',
  'usage.serve.checkInterval': '--check-interval 应为 0（从不）或至少 5 秒：检查会读取整台机器',
  'usage.serve.seconds': '--{name} 应为 {min} 到 {max} 之间的秒数，而不是 "{value}"',
  'usage.serve.portInUse': '无法监听 {host}:{port}：端口已被占用（用 --port 另选一个）',
  'usage.serve.noAddress': '无法监听 {host}：本机没有这个地址',
  'usage.serve.denied': '无法监听 {host}:{port}：权限不足（1024 以下的端口需要 root）',
  'usage.compat.needsSpec': 'compat 需要一个 SPEC，例如 torch==2.1.0+cu121',
  'usage.compat.oneSpec': 'compat 只接受一个 SPEC（收到 {n} 个）',
  'usage.compat.platform': '--platform 应为 linux 或 windows，而不是 "{value}"',
  'usage.compat.noMachineFrom': '--no-machine 与 --from 不能同时使用',
  'usage.preamble.noArgs': 'preamble 不接受参数（收到 "{arg}"）；请用 --framework',
  'usage.preamble.needsFramework': 'preamble 需要 --framework（{list}）',
  'usage.preamble.framework': '--framework 应为 {list} 之一，而不是 "{value}"',
  'usage.procs.noArgs': 'procs 不接受参数（收到 "{arg}"）',
  'usage.procs.watchOnly': '--count 和 --interval 只能与 --watch 一起用',
  'usage.procs.watchFrom': '--watch 需要本机：保存的快照（--from）不会变化',
  'usage.procs.watch': '--watch 应为秒数（0.1 或以上），而不是 "{value}"',
  'usage.procs.count': '--count 应为 1 或以上的整数，而不是 "{value}"',
  'usage.libs.noArgs': 'libs 不接受参数（收到 "{arg}"）；解析文件请用 --elf FILE',
  'usage.libs.pid': '--pid 应为进程 id，而不是 "{value}"',
  'usage.libs.noPid': '--pid {pid}：进程不存在',
  'usage.libs.elf': '--elf {file}：{why}',
  'usage.libs.withFrom': '--pid 和 --elf 检查的是本机；不能与 --from 同用',
  'usage.libs.noFacts': '这个快照没有动态库的事实（生成时没有运行动态库探测）',
  'usage.snapshot.noArgs': 'snapshot 不接受参数（收到 "{arg}"）',
  'usage.run.after': '请把命令放在 -- 之后：gpu-env-doctor run -- {cmd}',
  'usage.run.none': '没有要运行的命令（gpu-env-doctor run -- COMMAND [ARGS...]）',
  'usage.run.before': '-- 之前出现了意外的 "{arg}"',
  'usage.run.reportExt': '--report {file}：文件名应以 .json、.md 或 .html 结尾（格式由扩展名决定）',
  'usage.wholeNumber': '--{name} 应为 {min} 到 {max} 之间的整数，而不是 "{value}"',
  'usage.mcp.noArgs': 'mcp 不接受参数（收到 "{arg}"）',
  'usage.completion.needsShell': 'completion 需要指定 shell：bash、zsh 或 fish',
  'usage.completion.unknownShell': 'completion：未知 shell "{shell}"（bash、zsh 或 fish）',
  'usage.timeout': '--timeout 应为大于 0 的秒数，而不是 "{value}"',
  'usage.python': '--python {path}：文件或文件夹不存在',
  'usage.pythonRoot': '--python {path}：--root {root} 下没有这个文件或文件夹',
  'usage.stdinTooLarge': '标准输入太大（超过 {max} 字节）',
  'usage.deep': '--deep 不带值或取 "frameworks"（收到 "{value}"）',
  'usage.user': '--user 需要用户名或 uid',
  'usage.gpu': '--gpu 应为用逗号分隔的 GPU 序号或 UUID（例如 0,2 或 GPU-86cd2dae），而不是 "{value}"',
  'usage.config.unknownKey': '配置 {file}：未知的键 "{key}"（ignore、failOn）',
  'usage.config.ignoreList': '配置 {file}："ignore" 应为检查 id 的列表',
  'usage.config.failOn': '配置 {file}："failOn" 应为 "error" 或 "warn"',
  'usage.config.unknownCheck':
    '配置 {file}：未知的检查 "{id}"{hasGuess, select, yes {（是不是想用 {guess}？）} other {}}；check -v 会列出每条结果的 id',
  'usage.config.unknownIgnored':
    '--ignore 未知的检查 "{id}"{hasGuess, select, yes {（是不是想用 {guess}？）} other {}}；check -v 会列出每条结果的 id',
  'error.unknownCommand': '未知命令 "{name}"（见 {tool} --help）',
  'error.unknownCommandGuess': '未知命令 "{name}"（是不是想用 {guess}？见 {tool} --help）',
  'error.internal': '内部错误：{message}',
  'error.bug':
    '这是 {tool} {version} 的缺陷。请报告：所运行的命令、Node {node}（{platform}），以及同一命令加 -v 的输出。',

  'option.help': '本帮助',
  'option.verbose': '列出所有事实、检查 id 以及每个探测的耗时',
  'option.quiet': '只输出问题；没有问题时什么都不输出（适合“每次任务前”运行）',
  'option.json': '标准输出只输出 JSON',
  'option.markdown': '可直接贴到 GitHub issue 的报告',
  'option.html': '另外把自包含的 HTML 报告写入 FILE',
  'option.redact': '隐藏用户名和主机名、主目录、地址、GPU UUID 和序列号、密钥',
  'option.color': '颜色：always、never 或 auto（默认 auto：终端且未设置 NO_COLOR 时）',
  'option.no-color': '不用颜色（也可用 NO_COLOR；FORCE_COLOR=1 强制使用）',
  'option.from': '判断已保存的快照（或 check --json 的输出），而不是本机',
  'option.no-machine': '只判断输入本身，不查看本机',
  'option.root': '从 DIR 下读取 /proc、/sys、/etc 和库文件夹（须为已有文件夹）',
  'option.fail-on': 'error（默认）或 warn：使退出码为 1 的最低严重级别',
  'option.ignore': '接受 CHECK（检查 id，见 -v）的检查结果；可重复；也可写在配置文件的 "ignore" 中',
  'option.config':
    '配置文件（默认：$GPU_ENV_DOCTOR_CONFIG，否则 ./.gpu-env-doctor.json，否则 ~/.config/gpu-env-doctor/config.json）',
  'option.format': 'text、json 或 markdown（check 另有 prometheus：node_exporter 文本文件指标）',
  'option.timeout': '探测（nvidia-smi、Python 解释器）超过 SECONDS 秒即放弃（默认 10）',
  'option.deep':
    '--deep：原生 cuDNN 冒烟测试（加载每个框架的 CUDA 动态库，创建 cuDNN 句柄，运行一次小卷积：约 1 秒）；--deep=frameworks：另外导入每个框架并运行它自己的卷积（几秒钟）；只在你正在使' +
    '用或指定的环境中运行（当前激活的、PATH 上的、--python）',
  'option.python': '要检查的 Python 解释器（须为已有文件）；可重复',
  'option.all-envs':
    '检查找到的所有 conda 环境和虚拟环境，而不只是当前激活的；与 --deep 一起时也运行它们（先说明），但不运行其他用户的环境和位于他人可写文件夹中的环境',
  'option.framework':
    '日志来自哪个框架（日志中没写时）：tensorflow、pytorch、jax 或 paddle（preamble：torch、tensorflow 或 jax）',
  'option.all': '也列出很少有影响的差异（PID、时间戳）',
  'option.report': '把完整报告写入 FILE：按扩展名为 .json、.md 或 .html',
  'option.interval':
    'run：每 N 毫秒采样一次显存（默认 500）；procs --watch 和 serve：每 N 秒（默认 2；serve --fleet：30）',
  'option.tail-lines': '保留输出的最后 N 行用于分析（默认 500）',
  'option.no-capture': '任务的 stderr 直接留在终端（不读取任何内容用于分析）',
  'option.pid': '另外显示进程 PID 实际加载了什么；可重复',
  'option.elf': '解析任意 ELF 文件的依赖库；可重复',
  'option.watch': '每 SECONDS 秒（默认 2）刷新一次，直到 Ctrl-C',
  'option.count': '与 --watch 一起：刷新 N 次后停止',
  'option.gpu': '只看这些 GPU 上的进程（序号或 UUID，逗号分隔）',
  'option.user': '只看此用户的进程（用户名或 uid）',
  'option.dry-run': '只打印计划（使用 --from 时也是如此）',
  'option.yes': '不询问直接执行（用于脚本）；没有终端时，不加此项 fix 会拒绝执行',
  'option.force': '以 root 运行时，也结束其他用户的残留进程',
  'option.grace': '发送 SIGTERM 后等待这么多秒再发 SIGKILL（默认 5）',
  'option.env-out': '设置写入的位置（默认 ./gpu-env-doctor.env）',
  'option.platform': 'linux（默认）或 windows：显示哪个平台的驱动最低版本',
  'option.check-interval': '检查多久运行一次（默认 60 秒；0：从不）',
  'option.fleet': '多台机器：每台一行，来自 DIR 中的快照',
  'option.show-all': '即使 /proc 对其他用户隐藏进程（hidepid），也显示所有用户的命令行；其中的密钥仍然隐藏',
  'option.host': '监听的地址（默认 127.0.0.1）；其他地址的每个请求都需要令牌',
  'option.port': '监听的端口（默认 5810；0 表示自动选一个空闲端口）',
  'option.token-file': '要求的令牌（一个至少 16 个字符、不含空白的词），代替新生成的令牌',
  'option.lang': '文字的语言：en 或 zh（默认按 LC_ALL、LC_MESSAGES 或 LANG；zh_* 为中文）。--json 始终为英文',

  'cmd.check.summary': '检查本机，给出带证据和修复方法的检查结果',
  'cmd.check.description':
    '检查本机（或用 --from 检查已保存的快照）：GPU 和驱动、谁占用着显存、每个框架加载哪些 CUDA 动态库、Python 环境和框架构建、版本、环境变量。每个方面先输出一行，然后逐个列出问题及其证据（以及证据从哪里读' +
    '到）和修复方法：先是执行修复的命令，手动步骤放在最后。\n\n速度足够快，可以在每次任务前运行：加 -q 只输出问题。--deep 还会运行原生 cuDNN 冒烟测试（约一秒）：对这里各框架会加载的每一组 CUDA 动态' +
    '库文件，用一个小进程加载这些文件，在每个 GPU 上创建 cuDNN 句柄并运行一次小卷积，报告 CUDA 和 cuDNN 自己的状态码：区分“cuDNN 坏了”和“cuDNN 拿不到显存”。' +
    '--deep=frameworks 还会导入每个框架并运行它自己的卷积（几秒钟）。',
  'cmd.check.example6': '另外：此时此地、用这些文件，cuDNN 能否初始化？',
  'cmd.check.example1': '本机',
  'cmd.check.example2': '每次任务前：一切正常时不输出',
  'cmd.check.example3': '在另一台机器上保存的快照（gpu-env-doctor snapshot > machine.json）',
  'cmd.check.example4': '可贴到 GitHub issue 的报告，不含用户名和主机名',
  'cmd.check.example5': '在共享 GPU 的 CI 中：接受 GPU 繁忙，其他警告都算失败',
  'cmd.check.exitCodes': '0 没有达到 --fail-on 级别的问题；1 有达到该级别的检查结果；2 用法错误或工具自身故障。',
  'cmd.explain.summary': '读取报错日志，按可能性排列根因，给出证据和修复方法',
  'cmd.explain.description':
    '读取失败 GPU 任务的报错输出（调用栈、任意大小的训练日志、.gz 日志、多个文件，或标准输入：管道输入，或用 "-" 粘贴），按可能性排列根因，每个根因附上证明它的日志行和修复方法。随报错一起粘贴的环境信息（issue ' +
    '模板中的环境行、collect_env 的输出、nvidia-smi 的表头、pip/conda 列表，中文环境行如 显卡：RTX 3060，CUDA 11.2）也作为证据读取。\n\n默认把本机的事实与日志结合（现在谁' +
    '占用着显存、驱动、GPU）；--no-machine 只判断输入本身，--from 使用任务失败那台机器的快照。',
  'cmd.explain.example1': '日志文件（train.log.gz 也可以）',
  'cmd.explain.example2': '管道输入',
  'cmd.explain.example3': '粘贴报错信息，然后按 Ctrl-D',
  'cmd.explain.example4': '结合任务失败那个节点的事实',
  'cmd.explain.exitCodes': '0 未找到原因；1 找到了原因；2 用法错误或输入无法读取。',
  'cmd.run.summary': '运行命令，监视显存，失败时结合失败那一刻的机器状态分析原因',
  'cmd.run.description':
    '按原样运行 COMMAND（stdin、stdout、stderr、退出码和信号都照常传递），保留其输出的最后若干行，并按进程采样显存（nvidia-smi，每 --interval 毫秒一次，默认 500）。成功时：输出一' +
    '行，给出每个 GPU 的显存峰值和剩余余量（加 -q 则不输出）。失败时：说明出了什么问题（用 explain 引擎分析输出的末尾，结合失败那一刻采集的机器状态：当时谁占用着显存），以及显存时间线。\n\n我们的输出写' +
    '到 stderr，因为 stdout 和 stderr 属于任务本身：完整报告用 --report FILE 写入文件（按扩展名为 JSON、Markdown 或 HTML）；退出码就是命令自己的（被信号 N 结束时为 ' +
    '128+N）。stdout 是终端时直接交给命令；stderr 通过管道读取（因此命令在那里看不到终端），除非加 --no-capture。',
  'cmd.run.example1': '运行任务并监视',
  'cmd.run.example2': '并生成带显存时间线的完整报告',
  'cmd.run.example3': '为脚本生成报告（任务保留 stdout 和 stderr）',
  'cmd.run.exitCodes': '命令自己的退出码；用法错误时（命令启动前）为 2。',
  'cmd.libs.summary': '每个框架会加载每个 CUDA 动态库的哪一份，以及正在运行的进程实际加载了什么',
  'cmd.libs.description':
    '对找到的 Python 环境中的 torch、TensorFlow、JAX 和 CuPy，以及每个 --elf FILE，显示动态加载器会为每个 CUDA 动态库（cuDNN、cuBLAS、CUDA 运行时、' +
    'libcuda……）选中哪个文件以及原因（RPATH、LD_LIBRARY_PATH、RUNPATH、ld 缓存、框架预加载），无需导入框架。列出机器上的每一份副本，以及 GPU 进程（和 --pid PID）实际映射了' +
    '什么。环境内的路径相对于环境显示（-v：完整路径）。',
  'cmd.libs.example1': 'torch 加载哪个 cuDNN，为什么？',
  'cmd.libs.example2': '正在运行的任务实际映射了什么',
  'cmd.libs.example3': '任意 ELF 文件',
  'cmd.libs.exitCodes': '0 没有达到 --fail-on 级别的问题；1 有达到该级别的动态库检查结果；2 故障。',
  'cmd.procs.summary': 'GPU 进程：谁占用显存、从什么时候开始、是否为残留进程',
  'cmd.procs.description':
    '占用显存（或 GPU 设备文件）的进程，可疑者在前：GPU、PID、用户、显存、运行时长、状态、父进程（父进程已退出并由 NAME 收养时显示 gone→NAME）、容器（相同或不同的 PID 命名空间）、判定（本任务、活跃' +
    '、空闲、孤儿、已暂停、僵尸、其他用户、不可见、未知）和命令行。只有凭证据才判定为残留（孤儿、已暂停、僵尸、空闲）：“孤儿”需要证明启动它的进程已退出，“空闲”需要其所有者已登出；父进程是 PID 1 或某个守护进程、又没' +
    '有任何证据的进程判为“未知”。gpu-env-doctor fix 会安全地结束残留进程，其余的不动。--watch [SECONDS] 持续刷新直到 Ctrl-C：在终端上原地刷新，否则一张表接一张表输出（加 ' +
    '--json 时每行一个 JSON 文档）。',
  'cmd.procs.example1': '现在谁占用着显存',
  'cmd.procs.example2': '共享服务器的管理员：只看 GPU 0 和 2，只看 alice',
  'cmd.procs.example3': '类似 watch nvidia-smi，附带判定',
  'cmd.procs.exitCodes': '0 （所显示的进程中）没有残留进程占用显存；1 有；2 故障。',
  'cmd.compat.summary': '某个框架版本需要什么（CUDA、cuDNN、驱动、Python、GPU 架构），以及本机是否满足',
  'cmd.compat.description':
    'SPEC 是 pip 写法的框架和版本：torch==2.1.0+cu121、tensorflow==2.12、jax[cuda12]==0.4.30、' +
    'paddlepaddle-gpu==2.6.1.post120（paddle==3.0.0 表示某个版本的所有 CUDA 构建）。输出该构建需要什么（CUDA、cuDNN、驱动、Python、GPU 架构）及每条事实的来' +
    '源，以及本机（或已保存的快照）是否满足。',
  'cmd.compat.example1': '本机能用这个构建吗？',
  'cmd.compat.example2': '只看该构建需要什么',
  'cmd.compat.example3': '另一台机器，依据它的快照',
  'cmd.compat.exitCodes': '0 满足（或 --no-machine）；1 不满足；2 SPEC 有误或输入无法读取。',
  'cmd.fix.summary': '确认后执行安全的修复；--dry-run 只打印计划',
  'cmd.fix.description':
    '根据当前的检查结果和 GPU 进程的判定生成计划，显示出来，经 y/N 确认后执行其中安全的部分：\n  - 结束残留的 GPU 进程（孤儿、已暂停、长时间空闲、僵尸进程的父进程）：先 SIGTERM，宽限期（默认 5 秒）' +
    '后再 SIGKILL。判定残留需要证据（启动它的进程已退出、已暂停或僵尸状态、长时间空闲且所有者已登出）；“未知”的进程列为不处理，并说明原因。每次发信号前都会重新读取 PID 的启动时间，必须与快照一致，因此绝不会误伤' +
    '被复用的 PID。仍在工作的进程（有 CPU 占用）、其他用户的进程（除非以 root 运行并加 --force）、shell、守护进程和服务管理器、调用 gpu-env-doctor 的进程、PID 1、内核线程，以及' +
    '在这里没有占用 GPU 的 PID（其他命名空间的）都绝不会被结束。\n  - 把诊断要求的环境变量设置（例如 TF_FORCE_GPU_ALLOW_GROWTH=true）写入 ' +
    './gpu-env-doctor.env，由你自己 source。绝不修改 shell 的 rc 文件。\n安装软件包、更换驱动和重建环境只打印命令，绝不执行。加 --redact 时打印的内容会脱敏；计划仍按真实事实执' +
    '行（env 文件中也是真实的值）。',
  'cmd.fix.example1': '显示计划，询问，然后执行',
  'cmd.fix.example2': '只看计划',
  'cmd.fix.example3': '在脚本中：不询问，SIGTERM 与 SIGKILL 之间间隔 10 秒',
  'cmd.fix.exitCodes':
    '0 没有达到 --fail-on 级别、仍待处理的问题；1 有（某个操作未执行或失败，或有只能由你手动解决的问题）；2 用法错误，或没有可用于确认的终端且未加 --yes。',
  'cmd.preamble.summary': '放在训练脚本开头的 Python 自检代码块',
  'cmd.preamble.description':
    '输出一段放在训练脚本开头的 Python 代码。任务启动时它打印 Python、框架、CUDA 和 cuDNN 的版本、GPU 及其空闲显存，并在其他进程已占用显存时发出警告（通过 nvidia-smi，没有 ' +
    'nvidia-smi 时通过 NVML）。对 TensorFlow，它在任何运算之前开启按需分配显存。它只需要标准库和框架本身，不需要 gpu-env-doctor，输出写到 stderr。建议保存为模块并最先导入，而不' +
    '是直接粘贴。',
  'cmd.preamble.example1': '然后在 train.py 第一行写 "import gpu_check"',
  'cmd.preamble.example2': '或者加在脚本前面',
  'cmd.preamble.exitCodes': '0 已输出；2 没有给出或不认识 --framework。',
  'cmd.snapshot.summary': '把本机的事实输出为一个 JSON 文档',
  'cmd.snapshot.description':
    '把探测收集到的所有事实（快照）输出为 JSON。之后可在任何地方用 gpu-env-doctor check --from machine.json 判断；用 diff 比较两份；用 fleet 合并多份。输出始终是 ' +
    'JSON（接受 --json，但不改变任何东西）。--redact 会替换用户名和主机名、主目录、地址、GPU UUID 和序列号以及密钥（便于附到 issue 中）。',
  'cmd.snapshot.example1': '保存本机',
  'cmd.snapshot.example2': '附到公开的 issue 中',
  'cmd.snapshot.example3': '在任意笔记本上判断它',
  'cmd.snapshot.exitCodes': '0 已输出；2 用法错误或工具自身故障。',
  'cmd.diff.summary': '两份快照之间的差异，按影响排序',
  'cmd.diff.description':
    '逐项比较两份快照（用 "gpu-env-doctor snapshot" 保存的，或 "check --json" 的输出）：驱动、CUDA、每个框架加载的 cuDNN、框架构建、nvidia-* wheel 包、' +
    'conda 包、GPU 型号和显存、现在占用了 GPU 大部分显存的进程、环境变量。差异按改变 GPU 任务行为的可能性排序；每组只说明一次原因。只给一个文件时，与本机（现在探测）比较。"-" 从标准输入读取快照。当时的' +
    '状态（PID、时间戳、已用显存）不列出，除非加 --all。',
  'cmd.diff.example1': '本机从昨天到现在变了什么',
  'cmd.diff.example2': '两台机器，用于 issue',
  'cmd.diff.exitCodes': '0 没有差异；1 有差异；2 故障。',
  'cmd.fleet.summary': '多台机器的快照：分组、离群机器、整个集群的检查结果',
  'cmd.fleet.description':
    '合并多台机器的快照（来自 "gpu-env-doctor snapshot" 或 "check --json"，每个节点一个文件；会在文件夹中查找 *.json）。按配置（驱动、GPU、框架构建）给机器分组，指出离群机器（驱' +
    '动、cuDNN、wheel 包或环境与集群三分之二的机器不同的），并在每台机器上运行所有检查：哪些检查在哪些节点上失败。无法读取的文件会报告并跳过。',
  'cmd.fleet.example1': '集群的每个节点',
  'cmd.fleet.example2': '可分享的报告',
  'cmd.fleet.exitCodes': '0 没有机器有达到 --fail-on 级别的检查结果；1 有；2 一份快照也读不了，或其他故障。',
  'cmd.completion.summary': 'bash、zsh 或 fish 的命令补全',
  'cmd.completion.description':
    '为你的 shell 输出补全脚本：命令、每个命令的选项，以及取值固定的选项的值（--fail-on、--color、--format、--framework、--lang）。每个 shell 加载一次，或保存到 shell ' +
    '读取补全的位置。',
  'cmd.completion.example1': 'bash，当前 shell 生效（把这一行加入 ~/.bashrc 即可保留）',
  'cmd.completion.example2': 'zsh：保存到补全路径，然后开一个新 shell',
  'cmd.completion.example3': 'fish',
  'cmd.completion.exitCodes': '0 已输出；2 没有给出 shell 或不认识该 shell。',
  'registry.check': '检查本机，给出带证据和修复方法的检查结果（默认命令）',
  'registry.explain': '读取报错日志，按可能性排列根因，给出证据和修复方法',
  'registry.run': '运行命令，监视显存，失败时结合失败那一刻的状态分析原因',
  'registry.libs': '每个框架会加载每个 CUDA 动态库的哪一份，以及正在运行的进程实际加载了什么',
  'registry.procs': 'GPU 进程：谁占用显存、从什么时候开始、是否为残留进程',
  'registry.compat': '某个框架版本需要什么（CUDA、cuDNN、驱动、Python、GPU 架构），以及本机是否满足',
  'registry.fix': '确认后执行安全的修复；--dry-run 只打印计划',
  'registry.preamble': '放在训练脚本开头的 Python 自检代码块',
  'registry.snapshot': '把本机的事实输出为一个 JSON 文档',
  'registry.diff': '两份快照之间的差异，按影响排序',
  'registry.fleet': '多台机器的快照：分组、离群机器、整个集群的检查结果',
  'registry.completion': '命令补全：completion bash|zsh|fish（把输出加入你的 shell）',

  // reports: Markdown, HTML and their model (src/report/)
  'report.made': '{tool} {version} · 报告生成于 {at}',
  'report.htmlFooter': '{tool} {version} · 报告生成于 {at} · 本文件自包含：没有脚本，不加载任何外部内容。',
  'report.runEnded': '{exit}，用时 {duration}。',
  'report.runEndedHtml': '{exit}，用时 {duration}；共输出 {lines} 行。',
  'report.runEndedHtmlKept': '{exit}，用时 {duration}；共输出 {lines} 行，保留了最后 {kept} 行。',
  'report.diagnosis': '诊断',
  'report.nothingOutput': '输出中没有指向已知原因的内容。',
  'report.col.area': '方面',
  'report.col.finding': '检查结果',
  'report.all': '全部',
  'report.theMachine': '本机',
  'report.noOtherProblem': '任务失败时未发现其他问题',
  'report.noProblemsFound': '未发现问题',
  'report.gpuMemory': '显存',
  'report.gpuMemoryCaption': '显存（{caption}）',
  'report.col.gpu': 'GPU',
  'report.col.total': '总量',
  'report.col.thisJob': '本任务',
  'report.col.otherProcesses': '其他进程',
  'report.col.notAttributed': '未归属',
  'report.col.reserved': '驱动保留',
  'report.col.free': '空闲',
  'report.notSampled': '未采样显存。',
  'report.peakLine':
    'GPU {gpu}：峰值 {peak}，总量 {total}，余量 {headroom}；每 {interval} 毫秒采样一次，共 {samples} 次',
  'report.peakLineJob':
    'GPU {gpu}：峰值 {peak}，总量 {total}，本任务最多 {job}，余量 {headroom}；每 {interval} 毫秒采样一次，共 {samples} 次',
  'report.peakHtml': 'GPU {gpu}：峰值占用 {peak}，总量 {total}；余量 {headroom}',
  'report.peakHtmlJob': 'GPU {gpu}：峰值占用 {peak}，总量 {total}，本任务最多 {job}；余量 {headroom}',
  'report.col.pid': 'PID',
  'report.col.whose': '归属',
  'report.col.peak': '峰值',
  'report.col.seen': '出现时段',
  'report.failedAt': '任务在 {at} 时失败。',
  'report.memoryOverTime': '显存随时间变化',
  'report.findingsEvidence': '检查结果：证据和修复方法',
  'report.diagnosisEvidence': '诊断：证据和修复方法',
  'report.versions': '版本',
  'report.col.what': '项目',
  'report.col.version': '版本',
  'report.libraryResolution': '动态库解析',
  'report.librariesSummary': '框架加载的 {n} 个动态库{missing, plural, =0 {} other {，其中 # 个未找到}}',
  'report.col.loadedBy': '加载者',
  'report.col.library': '动态库',
  'report.col.resolvesTo': '解析到',
  'report.col.via': '方式',
  'report.notFound': '未找到',
  'report.logTitle': '{title}（{n} 行）',
  'report.facts': '事实',
  'report.command': '命令',
  'report.findings': '检查结果',
  'report.passed': '通过',
  'report.notChecked': '未检查',
  'report.processesSeen': '运行期间出现的进程',
  'report.keyUsed': 'GPU 上的占用（所有进程）',
  'report.keyJob': '本任务的占用',
  'report.keyTotal': '总量',
  'report.keyFailure': '失败时刻',
  'report.keyInterval': '每 {interval} 毫秒采样一次',
  'report.logLines': '{n} 行',
  'report.logLinesHit': '{n} 行（证据已高亮）',
  'report.htmlCounts': '{errors} 个错误，{warnings} 个警告 · {checks} 项检查',
  'report.htmlCountsUnknown': '{errors} 个错误，{warnings} 个警告，{unknown} 个未知 · {checks} 项检查',
  'report.svgUsed': 'GPU {gpu} 上的显存占用',
  'report.svgJob': '本任务的显存占用',
  'report.svgFailed': '失败',
  'model.titleRunFailed': 'gpu-env-doctor run：任务失败',
  'model.titleRunSucceeded': 'gpu-env-doctor run：任务成功',
  'model.titleRunFailedOn': 'gpu-env-doctor run：{host}，任务失败',
  'model.titleRunSucceededOn': 'gpu-env-doctor run：{host}，任务成功',
  'model.titleCommand': 'gpu-env-doctor {command}',
  'model.titleCommandOn': 'gpu-env-doctor {command}：{host}',
  'model.runSucceeded': '命令成功（{exit}）。',
  'model.runFailed': '命令失败（{exit}）。',
  'model.runFailedLikely': '命令失败（{exit}）：最可能的原因：{cause}。',
  'model.mostLikely': '最可能：{cause}（{pct}%）。',
  'model.nothingInLog': '日志中没有指向已知原因的内容。',
  'model.errorsWarnings': '{errors} 个错误，{warnings} 个警告。',
  'model.warningsNoErrors': '{warnings} 个警告，没有错误。',
  'model.noGpuVerdict': '看不到 GPU：已跳过 GPU 相关检查。',
  'model.whenFailed': '任务失败时',
  'model.afterEnded': '任务结束后',
  'model.at': '{time}',
  'model.thisJob': '本任务',
  'model.notAttributed': '不属于任何已列出的进程',
  'model.reserved': '驱动保留',
  'model.free': '空闲',
  'model.nvidiaDriver': 'NVIDIA 驱动',
  'model.pythonAt': 'Python（{where}）',
  'model.cpuOnly': '仅 CPU 构建',
  'model.fact.host': '主机',
  'model.fact.collected': '采集时间',
  'model.fact.system': '系统',
  'model.fact.driver': '驱动',

  // check: the runner's own lines, gpu.* (src/judge/checks/run-checks.ts, src/judge/checks/gpu/)
  'check.ok': '{title}：正常',
  'check.notApplicable': '{title}：{reason}',
  'check.crashed': '{title}：检查本身出错了（{error}）。请把它作为 gpu-env-doctor 的缺陷报告。',
  'title.gpu.presence': 'GPU',
  'gpu.presence.noDriverAnswer': 'nvidia-smi 没有响应',
  'gpu.presence.none': '驱动有响应，但没有列出任何 GPU',
  'gpu.presence.noneEvidence': 'nvidia-smi -q -x 中没有 <gpu> 元素',
  'gpu.presence.noneFix':
    '在容器中：启动容器时带上 GPU（docker run --gpus all；Kubernetes：申请 nvidia.com/gpu）。在宿主机上：查看内核日志。',
  'gpu.presence.ok': '{count} × {names}（计算能力 {cc}），驱动 {driver}（可运行 CUDA ≤ {cuda}）',
  'gpu.presence.okNoCc': '{count} × {names}，驱动 {driver}（可运行 CUDA ≤ {cuda}）',
  'gpu.presence.mig': 'GPU {gpu} 处于 MIG 模式：任务只能看到分配给它的 MIG 实例，而不是整个 GPU',
  'gpu.presence.migFix':
    '在 CUDA_VISIBLE_DEVICES 中用 UUID 选择一个 MIG 实例（nvidia-smi -L 可列出），如果需要整个 GPU，则关闭 MIG。',
  'gpu.presence.prohibited': 'GPU {gpu} 的计算模式为 Prohibited：任何进程都无法在它上面创建 CUDA 上下文',
  'gpu.presence.prohibitedFix': '把计算模式改回 Default。',
  'gpu.presence.exclusive':
    'GPU {gpu} 为 Exclusive_Process 模式，且已被 PID {pids} 使用：其他进程会得到 "CUDA-capable device(s) is/are busy or unavailable"',
  'gpu.presence.exclusiveFix': '换一个 GPU，或结束占用它的进程。',
  'title.gpu.driver': 'NVIDIA 驱动',
  'gpu.driver.moduleMismatch': '已加载的内核模块是驱动 {loaded}，而 nvidia-smi 的库是 {lib}：更换驱动后没有重启',
  'gpu.driver.moduleMismatchFix': '重启机器（或卸载后重新加载 nvidia 内核模块），使内核模块与用户态库版本一致。',
  'gpu.driver.ok': '驱动 {driver}，最高支持 CUDA {cuda}（它能运行的最高 CUDA 版本，不是已安装的版本）',
  'gpu.driver.noToolsModule': 'NVIDIA 内核模块已加载，但 PATH 中没有 nvidia-smi：缺少驱动的用户态工具',
  'gpu.driver.noToolsDevices': '/dev/nvidia* 存在，但 PATH 中没有 nvidia-smi',
  'gpu.driver.noToolsDevicesContainer':
    '/dev/nvidia* 存在，但 PATH 中没有 nvidia-smi（容器启动时没有使用 NVIDIA 运行时或没有 utility 能力）',
  'gpu.driver.noToolsFixContainer':
    '启动容器时使用 NVIDIA 运行时并带上 utility 能力（docker run --gpus all，或 NVIDIA_DRIVER_CAPABILITIES=compute,utility）。',
  'gpu.driver.noToolsFix': '安装与已加载驱动版本对应的驱动工具包（例如 Ubuntu 上的 nvidia-utils-<branch>）。',
  'gpu.driver.notLoaded': 'nvidia-smi 无法与 NVIDIA 驱动通信：内核模块没有加载',
  'gpu.driver.notLoadedFix':
    '加载驱动：查看 `lsmod | grep nvidia` 和 `dmesg | grep -i nvidia`。内核更新后，模块通常需要为新内核重新编译（DKMS）；安全启动（Secure Boot）会阻止未签名的模块。',
  'gpu.driver.nvmlMismatch': 'Failed to initialize NVML: Driver/library version mismatch —— 驱动已升级，但机器没有重启',
  'gpu.driver.nvmlMismatchFix':
    '仍在运行的内核模块是旧版本，而库是新版本。重启（或在没有进程使用 GPU 时卸载并重新加载 nvidia 模块）。',
  'gpu.driver.timeout': 'nvidia-smi 没有及时响应：驱动可能卡死了',
  'gpu.driver.timeoutFix':
    '在内核日志中查找 Xid 错误；GPU 从总线上掉线，或某个进程卡在驱动里，都会让 nvidia-smi 卡住。无显示器的服务器上关闭持久模式也会让每次调用都很慢。',
  'gpu.driver.failed': 'nvidia-smi 失败：{message}',
  'gpu.driver.failedFix': '手动运行 nvidia-smi 查看完整信息；在内核日志中查找 Xid 错误。',
  'gpu.driver.inContainer': '在 {kind} 容器中',
  'gpu.driver.noGpuContainerCuda':
    '此容器中看不到 GPU，而 {builds} {n, plural, =1 {是} other {都是}} CUDA 构建：容器启动时没有带上 GPU',
  'gpu.driver.noGpuContainer':
    '此容器中看不到 GPU（没有 nvidia-smi，没有 /dev/nvidia*）：如果这里的任务需要 GPU，说明容器启动时没有带上 GPU',
  'gpu.driver.noGpuContainerFix':
    '启动容器时带上 GPU：docker run --gpus all（或配合 NVIDIA Container Toolkit 使用 --runtime=nvidia）；在 Kubernetes 中，在 pod 的 ' +
    'resources.limits 里申请 nvidia.com/gpu。',
  'gpu.driver.noGpuCuda':
    '本机没有 NVIDIA GPU 或驱动，但 {builds} {n, plural, =1 {是} other {都是}} CUDA 构建：这里的任务会在 CPU 上运行，或在需要 CUDA 的地方失败',
  'gpu.driver.noGpuCudaFix': '在有 NVIDIA GPU 的机器上运行任务；如果本机有 GPU，则在本机安装 NVIDIA 驱动。',
  'gpu.driver.noGpu': '本机没有 NVIDIA GPU 或驱动（没有 nvidia-smi，没有 /proc/driver/nvidia）',
  'gpu.driver.noGpuFix':
    '这里没有可检查的内容。要在这里判断一台 GPU 机器：gpu-env-doctor check --from 该机器上保存的快照（gpu-env-doctor snapshot > machine.json）。',
  'title.gpu.health': 'GPU 健康状况（ECC、页退役、行重映射）',
  'gpu.health.noGpu': '没有 GPU',
  'gpu.health.ecc': '自驱动加载以来有 {n} 个不可纠正的 ECC 错误',
  'gpu.health.retirementPending': '有待执行的页退役（需要重置）',
  'gpu.health.remapPending': '有待执行的行重映射（需要重置 GPU）',
  'gpu.health.remapFailed': '行重映射失败：GPU 的备用行已经用完',
  'gpu.health.lifetime': 'GPU {gpu}：生命周期内共有 {n} 个不可纠正的 ECC 错误，自驱动加载以来没有',
  'gpu.health.problems': 'GPU {gpu}（{name}）：{problems}',
  'gpu.health.fix':
    '这个 GPU 上的任务可能因看起来像软件缺陷的 CUDA 错误而失败。先把任务迁走，空闲时重置它（待执行的页退役和行重映射在重置时生效）；如果错误再次出现，请检查硬件（DCGM 诊断）。',
  'title.node.driver-library': '驱动库与已加载的内核模块一致',
  'title.node.compute-mode': 'GPU 计算模式允许任务进入',
  'title.node.persistence': '持久模式',
  'title.node.pcie-link': 'PCIe 链路以满宽度和满速运行',
  'title.node.clocks': 'GPU 时钟没有被降频',
  'title.node.shm': '共享内存（/dev/shm）大小',
  'title.node.mig': 'MIG 设备可用',
  'title.node.cuda-init': 'NVML 正常时 CUDA 也能启动',
  'title.node.device-nodes': '每个 GPU 都有设备节点',
  'node.noModule': '没有加载 NVIDIA 内核模块',
  'node.noLinkFacts': 'nvidia-smi 没有给出 PCIe 链路信息',
  'node.noClockFacts': 'nvidia-smi 没有给出时钟事件原因',
  'node.noShm': '/dev/shm 上没有挂载任何东西',
  'node.driverLibrary.ok': 'libcuda 和 NVML 与内核模块是同一版本（{version}）',
  'node.driverLibrary.mismatch': '{lib} {version}（{path}）与已加载的内核模块 {kernel} 不一致',
  'node.driverLibrary.nvml':
    'NVML 无法启动：nvidia-smi 和框架的设备查询会报 “Failed to initialize NVML: Driver/library version mismatch”',
  'node.driverLibrary.cuda':
    'CUDA 驱动 API 初始化失败（cuInit：CUDA_ERROR_SYSTEM_DRIVER_MISMATCH，错误 803）：没有框架能看到 GPU',
  'node.driverLibrary.fix':
    '驱动已升级，但仍加载着旧的内核模块：重启（或在没有 GPU 进程运行时卸载并重新加载 nvidia 模块）。',
  'node.computeMode.prohibited': 'GPU {gpu} 处于 PROHIBITED 计算模式：任何进程都无法在它上面创建 CUDA 上下文',
  'node.computeMode.held': 'GPU {gpu} 处于 {mode} 计算模式，且进程 {pids} 已占用它：其他进程都会被拒绝',
  'node.computeMode.busy':
    '下一个进程会收到 CUDA 的 “CUDA-capable device(s) is/are busy or unavailable”（cudaErrorDevicesUnavailable）',
  'node.computeMode.mps': 'GPU {gpu} 由 MPS 服务器（PID {pid}）独占：CUDA 客户端通过 MPS 共享它',
  'node.computeMode.free': 'GPU {gpu} 处于 {mode} 计算模式：同一时间只允许一个进程（目前没有）',
  'node.computeMode.fix': '等占用者结束；如果不需要独占，把计算模式改回 DEFAULT（需要 root）。',
  'node.persistence.off':
    '{n, plural, other {GPU}} {gpus} 的持久模式已关闭：第一次 CUDA 调用和 nvidia-smi 要等驱动重新初始化 GPU（变慢，不是失败）',
  'node.persistence.fix': '运行持久化守护进程，让驱动在任务之间保持 GPU 已初始化。',
  'node.pcie.slow':
    'GPU {gpu} 的 PCIe 链路运行在 gen {gen} x{width}，最高为 gen {genMax} x{widthMax}：与 GPU 之间的数据传输更慢（变慢，不是失败）',
  'node.pcie.details':
    '链路比插槽允许的窄，通常是卡没有插到位、使用了转接卡，或插槽的通道数更少；负载下代数偏低，则可能是 BIOS 设置或信号问题。',
  'node.pcie.fix': '在负载下再读一次链路；如果仍低于最大值，重新插卡，或检查插槽和 BIOS 的 PCIe 设置。',
  'node.clocks.slowed': 'GPU {gpu} 因 {reasons} 被降频运行（变慢，不是失败）',
  'node.clocks.details':
    'sw_power_cap：功耗上限；sw/hw thermal slowdown：温度；hw_slowdown 和 hw_power_brake_slowdown：由板卡或电源要求。',
  'node.clocks.fix': '检查功耗上限和温度；满负载时触及功耗上限是正常的，温度降频则不正常。',
  'node.clocks.fixHw': '硬件降频来自板卡（温度、电源）：检查散热和供电；如果持续出现，请检查硬件。',
  'node.shm.small': '/dev/shm 只有 {mib} MiB：PyTorch DataLoader 的工作进程和 NCCL 都把共享内存放在这里',
  'node.shm.smallContainer':
    '这个容器里的 /dev/shm 只有 {mib} MiB（Docker 默认 64 MiB）：PyTorch DataLoader 的工作进程和 NCCL 都把共享内存放在这里',
  'node.shm.dataloader': '几个批次就能把它填满，DataLoader 工作进程随即因 “Bus error” 退出',
  'node.shm.nccl': 'NCCL 无法在本机各 GPU 之间创建共享内存段',
  'node.shm.fix': '调大 /dev/shm（需要 root），或减少 DataLoader 工作进程数。',
  'node.shm.fixContainer': '用更大的 --shm-size（或 --ipc=host）启动容器；在容器内部无法更改。',
  'node.devices.fewer':
    'nvidia-smi 列出 {gpus} 个 GPU，但只有 {nodes} 个 GPU 设备节点（/dev/nvidiaN）；缺少的控制节点：{missing}',
  'node.devices.lacking': 'nvidia-smi 列出的 {list} 没有设备节点：CUDA 在这里无法打开它；缺少的控制节点：{missing}',
  'node.devices.fix': '创建设备节点（nvidia-modprobe，需要 root）或重新加载驱动。',
  'node.devices.fixContainer':
    '容器丢失了或没有被分配 GPU 的设备节点：带上 GPU（--gpus）重新启动它；在 cgroup v1 的主机上，systemd daemon-reload 可能会把它们拿走。',
  'node.devices.notSeen': '这里看不到任何 /dev/nvidia*（另一个根目录？）',
  'title.node.kernel-log': '内核日志中没有 Xid 错误',
  'node.kernelLog.notRead': '没有读取内核日志（不是本机，或没有要求读取）',
  'node.kernelLog.needsPermission': 'root 或 CAP_SYSLOG（kernel.dmesg_restrict = {restrict}）',
  'node.kernelLog.unreadable': 'Xid 错误：未知：读取内核日志需要 {needs}',
  'node.kernelLog.unreadableFix': '在主机上以 root 读取（容器没有 CAP_SYSLOG 时看不到它）。',
  'node.kernelLog.unknownCode': '见 NVIDIA 的 Xid 列表',
  'node.kernelLog.xid': '内核日志中有 {bus} 上的 {codes}',
  'node.kernelLog.xidAgo': '内核日志中有 {bus} 上的 {codes}，最近一次在 {ago} 分钟前',
  'node.kernelLog.fixHardware':
    '硬件或驱动故障：把任务迁走，重置 GPU（或重启），如果再次出现请检查 GPU（DCGM 诊断）；那时失败的任务就是因此失败的。',
  'node.kernelLog.fixApp':
    '是运行的程序自身的错误（其内核中的非法地址或断言）：用 CUDA_LAUNCH_BLOCKING=1 重新运行，找出出错的调用；GPU 本身没有问题。',
  'node.mig.off': '没有 GPU 开启 MIG',
  'node.mig.none': 'GPU {gpu} 开启了 MIG，但没有创建任何 MIG 设备：CUDA 在这块 GPU 上无处可运行',
  'node.mig.noneConsequence':
    'CUDA 在这块 GPU 上看不到设备（“no CUDA-capable device is detected”或“busy or unavailable”）',
  'node.mig.noneFix': '（以 root）创建 GPU 实例和计算实例，或关闭 MIG（需要重置 GPU）。',
  'node.mig.device': '{name}（{total} MiB 中空闲 {free} MiB）',
  'node.mig.split': 'GPU {gpu} 被 MIG 分成 {n} 个设备：{list}',
  'node.mig.details': '作业只看到分给它的 MIG 设备（CUDA_VISIBLE_DEVICES=MIG-…）及其显存，而不是整块 GPU 的。',
  'node.cudaInit.unknown':
    '这里 CUDA 无法启动（{call}：{name}，错误 {code}），而 NVML 和 nvidia-smi 正常：nvidia_uvm 模块处于异常状态（通常在休眠恢复之后）',
  'node.cudaInit.noUvm':
    '这里 CUDA 无法启动（{call}：{name}，错误 {code}），而 NVML 和 nvidia-smi 正常，且缺少 /dev/nvidia-uvm',
  'node.cudaInit.consequence': '每个框架在第一次调用 CUDA 时失败；torch.cuda.is_available() 为 False',
  'node.cudaInit.fix': '（以 root，且没有 CUDA 进程在运行时）重新加载 nvidia_uvm 模块，或重启机器。',
  'node.cudaInit.fixNoUvm': '（以 root）加载 nvidia_uvm 并创建其设备节点；在容器中，带上 GPU 重新启动容器。',
  'node.cudaInit.notRun': '需要 check --deep（第一次 CUDA 调用）',
  'node.kernelLog.inJob': '作业运行期间，内核日志在 {bus} 上记录了 {codes}：GPU 故障很可能就是它失败的原因',
  'node.kernelLog.notInJob': '作业运行期间（开机后 {from}-{to} 秒）内核日志中没有 Xid',
  'node.kernelLog.unreadableJob': '作业期间的 Xid 错误：未知：读取内核日志需要 {needs}',

  // processes: verdicts and why (src/judge/procs/), memory.headroom, memory.holders
  'verdict.this job': '本任务',
  'verdict.active': '活跃',
  'verdict.idle': '空闲',
  'verdict.orphaned': '孤儿进程',
  'verdict.stopped': '已暂停',
  'verdict.zombie': '僵尸进程',
  'verdict.other user': '其他用户',
  'verdict.invisible': '不可见',
  'verdict.unknown': '未知',
  'adopt.parentUnreadable': '无法读取它的父进程',
  'adopt.pid1': '它是 PID 1，所在 PID 命名空间的 init 进程（容器的主进程）',
  'adopt.outside': '它的父进程在此 PID 命名空间之外（通过 docker exec 或 nsenter 进入的进程，或命名空间的 init 进程）',
  'adopt.service': '它运行在 systemd 服务 {unit} 中：由服务管理器维持（systemctl status {unit}）',
  'adopt.parentPidUnreadable': '无法读取它的父进程（PID {ppid}）',
  'adopt.startedAfter': '它的父进程 {parent} 比它启动得晚，说明启动它的进程已退出，由 {name} 收养',
  'adopt.session':
    '它的会话（{sid}）与父进程 {parent} 的会话（{parentSid}）不同：fork 会保留会话，说明启动它的进程已退出，由 {name} 收养',
  'adopt.sessionNone':
    '它的会话（{sid}）与父进程 {parent} 的不同，后者在这里没有会话：fork 会保留会话，说明启动它的进程已退出，由 {name} 收养',
  'adopt.supervisor':
    '它的父进程是 {parent}，可能是它启动了这个进程（服务、受监管的程序、容器中的任务），也可能是收养了它；没有证据表明启动它的进程已退出',
  'adopt.alive': '它的父进程 {parent} 仍在运行',
  'protect.self': '它是 gpu-env-doctor 自身或其祖先进程（启动它的 shell 或任务）',
  'protect.pid1': '它是 PID 1，此 PID 命名空间的 init 进程：结束它会结束其中的一切（整个容器）',
  'protect.kthread': '它是内核线程',
  'protect.otherNs':
    'nvidia-smi 列出的是 PID {smiPid}，但在这里该 PID 是 {name}，并没有打开 /dev/nvidia*（已读取所有进程打开的文件）：这个编号指的是另一个 PID 命名空间中的进程' +
    '（nvidia-smi 报告的是宿主机的 PID），而不是这里的',
  'protect.aProcess': '某个进程',
  'protect.mps': '它是 MPS 控制守护进程或服务器：该 GPU 的每个 CUDA 客户端都经由它运行',
  'reason.self': '运行 gpu-env-doctor 的进程或其父进程',
  'reason.invisible': '不在此 /proc 中：在另一个容器或 PID 命名空间中，或在宿主机上',
  'reason.kthread': '内核线程：它自身不可能占用显存',
  'reason.zombie': '僵尸进程：它已退出，但父进程还没有回收它',
  'reason.stopped': '已暂停（Ctrl-Z 或 SIGSTOP）：它什么也不做，却一直占着显存',
  'reason.traced': '在调试器或跟踪器下暂停（tracing stop）：可能有人正在检查它',
  'reason.workingUnder': '正在工作（{cpu}% CPU），父进程为 {parent}：服务、nohup 任务或守护进程',
  'reason.running': '正在运行',
  'reason.mps': 'MPS 服务器或控制守护进程：为该 GPU 的 CUDA 客户端服务',
  'reason.otherUser': '属于其他用户（{user}）',
  'reason.idle': '空闲：已运行 {hours} 小时，几乎没有 CPU 占用（CPU 时间 {cpu} 秒）',
  'reason.idleLoggedOut':
    '空闲：已运行 {hours} 小时，几乎没有 CPU 占用（CPU 时间 {cpu} 秒），且其所有者 {user} 已登出（其进程都没有终端）',
  'reason.idleOwnerIn':
    '空闲：已运行 {hours} 小时，几乎没有 CPU 占用（CPU 时间 {cpu} 秒），但其所有者已登录（{owner}）：它可能在等待工作（notebook、服务器程序）',
  'reason.you': '你',
  'reason.unknownIdle': '{why}。它已运行 {hours} 小时，几乎没有 CPU 占用（CPU 时间 {cpu} 秒）',
  'reason.exited': '它在 gpu-env-doctor 读取期间退出了（显存正在释放）',
  'reason.leftover': '它的父进程已退出：这是已结束任务的残留进程',
  'reason.leftoverWorker': '它是 Python 父进程已退出的工作进程（multiprocessing、DataLoader）：该任务的残留进程',
  'reason.leftoverKernel': '它是服务器已退出的 Jupyter 内核：已无法再连接到它',
  'reason.adoptedWorking': '它的父进程已退出，但它仍在工作：{signs}',
  'reason.detached': '它是有意独立运行的（{how}）：启动它的 shell 已退出，但没有迹象表明它的工作已完成',
  'reason.listens': '它在 {addresses} 上监听',
  'reason.connections': '它有 {n} 个打开的网络连接',
  'reason.wroteOutput': '它在 {s} 秒前写过输出文件',
  'reason.byNohup': 'nohup：它忽略挂断信号',
  'reason.bySetsid': 'setsid：它是自己会话的首进程',
  'reason.byGroup': '它是自己进程组的首进程',
  'reason.byMux': '在终端复用器 {name}（PID {pid}）之下',
  'reason.byDaemon': '守护进程：没有终端，工作目录为 /，没有输入',
  'reason.byLostSession': '被留下继续运行：它的会话已结束，且没有终端',
  'title.memory.headroom': '空闲显存',
  'memory.noGpu': '没有 GPU',
  'memory.holderLine': '{who} 占用 {mib}：{verdict}，{reason}',
  'memory.holderLineLife': '{who} 占用 {mib}：{verdict}，{reason}；已运行 {age}，CPU 时间 {cpu} 秒：{cmd}',
  'memory.totals': '总量 {total} MiB，已用 {used} MiB，空闲 {free} MiB',
  'memory.totalsGiB': '总量 {total}，已用 {used}，空闲 {free}',
  'memory.freeOk': 'GPU {gpu} {name}：空闲 {free}，总量 {total}',
  'memory.freeOkReserve': 'GPU {gpu} {name}：空闲 {free}，总量 {total}（PID {pid}，{fw}，预先占用了 {reserved}）',
  'memory.otherGpu': '或者在有空间的 GPU {gpus} 上运行（见下面的命令）。',
  'memory.gpuOr': ' 或 ',
  'memory.otherGpuFree': '或者在空闲的 GPU（{gpus}）上运行：下面的命令选用 GPU {first}。',
  'memory.noHolder': '没有任何已列出的进程占用它：可能有另一个容器或虚拟机共享这个 GPU；请在宿主机上查看。',
  'memory.allLeftovers':
    '{n, plural, =1 {占用者是残留进程} other {这 # 个占用者都是残留进程}}（{verdicts}）：结束{n, plural, =1 {它} other {它们}}即可释放显存。',
  'memory.someLeftovers': '结束残留进程（{pids}）；其他占用者正在工作或不属于你，请等待它们结束或询问其所有者。',
  'memory.unknownHolders':
    '没有证据表明 {pids} 是残留进程，因此 gpu-env-doctor fix 不会处理{n, plural, =1 {它} other {它们}}：如果你确定不再需要，请自己结束{n, plural, =1 {它} ' +
    'other {它们}}；否则请等待，或换一个 GPU。',
  'memory.working': '占用者正在工作或不属于你：请等待、询问其所有者，或换一个 GPU。',
  'memory.zombieParent': '僵尸进程在父进程回收它之前一直占着显存：结束或重启其父进程（PID {ppids}）。',
  'memory.reserveHolder': 'PID {pid} 运行的是 {fw}，它的 {mib} 大部分是预先占用的：{remedy}。',
  'memory.noContext':
    'GPU {gpu} 仅剩 {free} 空闲显存（总量 {total}）：不够创建新的 CUDA 上下文和 cuDNN（约 {floor}），任何 GPU 任务都无法在上面启动',
  'memory.low':
    'GPU {gpu} 仅剩 {free} 空闲显存（总量 {total}）：需要更多显存的任务会因显存不足而失败（训练任务启动和 cuDNN 的算法搜索通常需要 {min} 或更多）',
  'title.memory.holders': '占用显存的进程',
  'memory.noGpuInfo': '没有 GPU 信息',
  'holders.theGpu': 'GPU',
  'holders.holdsOn': '{who} 在 {gpu} 上占用 {mib}',
  'holders.stateLine': '状态 {state}，父进程 {ppid}（{parent}），已运行 {age}，CPU 时间 {cpu} 秒：{cmd}',
  'holders.message': '{who} 在 {gpu} 上占用 {mib}：{reason}',
  'holders.messageFw': '{who}（{fw}）在 {gpu} 上占用 {mib}：{reason}',
  'holders.mustKeep': '{fix}如果它必须继续运行：{remedy}。',
  'holders.fixOtherNs':
    '占用者不是这里的这个进程：请到 nvidia-smi 的 PID 真实存在的地方查看（在宿主机上：`nvidia-smi`，然后在那里 `ps -p PID`）。gpu-env-doctor fix 绝不会结束它。',
  'holders.fixProtected': 'gpu-env-doctor fix 绝不会结束它：如果它的任务已完成，请改为停止它所在的容器或服务。',
  'holders.fixZombie': '僵尸进程本身不占用任何东西，但它的父进程（PID {ppid}）可能占用：结束或重启其父进程。',
  'holders.fixStopped': '它已被暂停（Ctrl-Z），但仍占着显存。在它的 shell 中用 `fg` 恢复它，或结束它。',
  'holders.fixOtherUser': '请 {user} 结束它，或换一个 GPU。',
  'holders.fixOtherUserCvd': '请 {user} 结束它，或换一个 GPU（CUDA_VISIBLE_DEVICES）。',
  'holders.itsOwner': '其所有者',
  'holders.fixInvisible':
    '从这里看不到它（在另一个容器中或在宿主机上）。请在宿主机上查看：在那里运行 `nvidia-smi`，或 `fuser -v /dev/nvidia*`。',
  'holders.fixUnknown':
    '没有证据表明它是残留进程，因此 gpu-env-doctor fix 不会处理。如果你确定不再需要它，请自己结束它。',
  'holders.fixDefault': '如果它是你的且不再需要，请结束它（gpu-env-doctor fix 会安全地完成）。',

  // memory.unattributed, system.platform, env.library-path
  'title.memory.unattributed': '没有可见所有者的显存',
  'unattr.missing': 'GPU {gpu}：有 {mib} 已被占用，却不属于任何已列出的进程',
  'unattr.noneListed':
    'nvidia-smi 没有列出任何进程，但显存已被占用：通常是另一个容器或虚拟机共享了这个 GPU，或者处在 nvidia-smi 无法对应的 PID 命名空间中。',
  'unattr.fewer': 'nvidia-smi 列出的显存少于实际占用：其余部分属于从这里看不到的进程。',
  'unattr.usedListed': '已用 {used}，已列出的进程 {listed}',
  'unattr.deviceOnly': 'PID {pid}（{name}，{user}）打开了 /dev/nvidia*，但没有被列出',
  'unattr.fix': '在宿主机上（而不是容器内）查找所有者：谁打开了设备文件。',
  'unattr.invisible': 'GPU {gpu}：PID {pid} 占用 {mib}，但不在此 /proc 中（在另一个容器中或在宿主机上）',
  'unattr.invisibleEvidence': 'nvidia-smi 列出 PID {pid} 占用 {mib}；这里不存在 /proc/{pid}',
  'unattr.invisibleFix': 'nvidia-smi 报告的是宿主机的 PID。请在宿主机上查找这个 PID，或询问运行另一个容器的人。',
  'title.system.platform': '系统',
  'platform.line': '{os}，内核 {kernel}，{arch}，{where}',
  'platform.lineModule': '{os}，内核 {kernel}，{arch}，{where}，NVIDIA 内核模块 {module}',
  'platform.noContainer': '不在容器中',
  'platform.inContainer': '在 {kind} 容器中',
  'platform.wslSuffix': '{where}，WSL',
  'platform.unknownOs': '未知操作系统',
  'platform.containerDetection': '容器检测',
  'platform.wsl': 'WSL2：GPU 由 Windows 驱动提供；不报告每个进程的显存，因此无法指出占用者',
  'platform.wslEvidence': 'Microsoft 内核或 /usr/lib/wsl/lib',
  'platform.containerBlind': '在容器内看不到其他容器或宿主机的进程：它们占用的显存显示为未归属',
  'title.env.library-path': 'LD_LIBRARY_PATH 和 LD_PRELOAD',
  'llp.compat':
    'LD_LIBRARY_PATH 把前向兼容的 libcuda 放在了最前面（{folders}）：它只在数据中心 GPU 且内核驱动为相应较旧版本时有效，否则会报 "Error 803: system has ' +
    'unsupported display driver / cuda driver combination"',
  'llp.compatFix': '除非内核驱动比你运行的 CUDA 版本旧，否则去掉 compat 文件夹。',
  'llp.details':
    '用 pip 安装的 PyTorch、TensorFlow 和 JAX 自带 CUDA 和 cuDNN；这里的文件夹会在库的 RUNPATH 之前被搜索，可能遮蔽它们（“CUDA 动态库”一项会指出何时发生）。',
  'llp.empty': 'LD_LIBRARY_PATH 中有空条目，加载器会把它当作当前目录',
  'llp.preload': 'LD_PRELOAD 把一个 CUDA 动态库强制加载进每个进程：{value}',
  'llp.preloadDetails': '预加载的库优先于每个框架自带的副本，无论版本如何。',
  'llp.preloadFix': '除非你确定这里的每个框架都是针对这个库的确切版本构建的，否则取消设置它。',
  'llp.cudaHome': 'CUDA_HOME/CUDA_PATH={home}：用于编译扩展（nvcc）；用 pip 安装的框架无论如何都加载自带的 CUDA 运行时',
  'llp.environment': '环境变量',
  'llp.lists': 'LD_LIBRARY_PATH 包含 {folders}',
  'llp.driverOnly':
    'LD_LIBRARY_PATH 包含 {folders}：框架只从那里加载驱动（libcuda、NVML），CUDA 动态库则用各自自带的文件',
  'llp.noneFrom': 'LD_LIBRARY_PATH 包含 {folders}：没有框架从那里加载 CUDA 动态库',
  'llp.loadsFrom': 'LD_LIBRARY_PATH 包含 {folders}；框架从那里加载 {names}',

  // check titles, why a check did not apply, libraries, python.environments
  'title.env.allocators': '框架显存策略变量',
  'title.env.debug': '调试变量',
  'title.env.visible-devices': 'GPU 可见性（CUDA_VISIBLE_DEVICES）',
  'title.libs.compat-libcuda': '前向兼容 libcuda 与驱动匹配',
  'title.libs.cudnn-sublibrary-mismatch': 'cuDNN 子库与 libcudnn 匹配',
  'title.libs.duplicate-versions': '每个框架的每个 CUDA 动态库只有一份',
  'title.libs.ld-library-path-shadowing': 'LD_LIBRARY_PATH 没有覆盖框架自带的 CUDA 动态库',
  'title.libs.loaded': 'GPU 进程加载的动态库',
  'title.libs.missing': '框架需要的动态库都能找到',
  'title.libs.unloadable': '框架找到的动态库文件都能加载',
  'title.python.conda-pip-mix': '同一个库的 conda 和 pip 副本',
  'title.python.cpu-only-build': '带 CUDA 的框架构建',
  'title.python.deep-conv': 'GPU 上的卷积（--deep=frameworks）',
  'title.python.duplicate-dist-info': '重复安装的包',
  'title.python.environments': 'Python 环境',
  'title.python.import-failed': '框架导入（--deep=frameworks）',
  'title.python.nvidia-wheel-conflict': 'nvidia-* wheel 包与框架锁定的版本一致',
  'title.versions.cudnn': 'cuDNN 与框架构建',
  'title.versions.driver-cuda': '驱动与框架的 CUDA',
  'title.versions.gpu-arch': '框架构建中的 GPU 架构',
  'title.versions.nvcc': 'nvcc 与框架的 CUDA',
  'title.versions.python': 'Python 版本与框架',
  'applies.noLibraries': '此快照中没有动态库信息（生成时没有运行动态库探测）',
  'applies.noPythonFacts': '此快照中没有 Python 信息',
  'applies.noPythonEnv': '没有找到 Python 环境',
  'applies.noPythonInterpreter': '没有找到 Python 解释器',
  'applies.noPythonEnvs': '此快照中没有 Python 环境',
  'applies.noFrameworks': '在已扫描的 Python 环境中没有找到 PyTorch、TensorFlow、JAX 或 PaddlePaddle',
  'applies.deepConv': '运行 check --deep=frameworks，在每个框架中试跑一次卷积',
  'applies.deepImport': '运行 check --deep=frameworks，在各自的进程中导入每个框架',
  'applies.noFrameworkToTry': '没有可试的框架（查看过的环境中没有安装 torch、tensorflow、jax）',
  'applies.noFrameworkInstalled': '查看过的环境中没有安装框架',
  'applies.cpuExpected': '本机没有 NVIDIA GPU：使用 CPU 构建是正常的',
  'lib.cudart': 'CUDA 运行时',
  'lib.libcuda': '驱动库 libcuda',
  'lib.library': '动态库',
  'lib.sublibrary': 'cuDNN 子库 {family}',
  'lib.versionUnknown': '版本未知',
  'via.preloaded': '预加载',
  'dup.ok':
    '{consumer} 加载 {lib} {version}（{via}）；本机上还有 {others}，{n, plural, =1 {这一份} other {这些}}它没有使用',
  'dup.otherAt': '{version}（{path}）',
  'dup.details':
    '查询 ld 缓存的工具（python -m torch.utils.collect_env、ldconfig -p）报告的是另一份副本；实际加载的是上面这个文件（可用 gpu-env-doctor libs --pid ' +
    'PID 查看正在运行的进程）。',
  'dup.wouldLoad': '{consumer} 会从 {path} 加载 {lib} {version}，而不是它自带的 {own}（{ownPath}）',
  'dup.fix': '把框架自带的文件夹放在最前面，让它的副本优先（LD_LIBRARY_PATH 在 DT_RUNPATH 和 ld 缓存之前被搜索）。',
  'unload.messageCrash':
    '{consumer}：最先找到的 {lib} 是 {path}（{via}），一个被截断的文件：加载器会映射它，进程随即崩溃',
  'unload.messageError': '{consumer}：最先找到的 {lib} 是 {path}（{via}），它无法加载；加载器不会再去尝试后面的副本',
  'unload.whenDlopen': '在 {by} 运行时打开它的时候',
  'unload.whenStart': '在启动时',
  'unload.whenImport': '在 import 时',
  'unload.crash': '{consumer} {when}因 SIGBUS 崩溃（退出码 135），没有 Python 回溯',
  'unload.fails': '{consumer} {when}无法加载它（OSError 或该库自己的错误）',
  'unload.ignored': '加载器会提示（“cannot be preloaded … ignored”）并忽略它，进程在没有它的情况下继续运行（{from}）',
  'unload.goodBehind': '永远不会被用到：{path}（{version}，经由 {via}）',
  'unload.fixLlp': '从 LD_LIBRARY_PATH 中去掉 {dir}：它把损坏的文件放在了正常副本的前面。',
  'unload.fixPreload': '不要再预加载 {path}：取消设置 LD_PRELOAD（或设置为不含这个文件的值）。',
  'unload.fixEtcPreload': '从 /etc/ld.so.preload 中删除指向 {path} 的那一行（需要 root）：本机每个进程都会加载它。',
  'unload.fixFile': '替换 {path}：它被截断或者不是动态库（重新安装提供它的包）；加载器会停在它这里。',
  'dup.preloaded':
    '{consumer} 加载的 {lib} {version} 来自 {path}，由 {from} 强制加载；它自带的 {own}（{ownPath}）也被加载了，但没有被使用',
  'dup.preloadedDetails':
    '加载器最先加载 {from}，而第一个具有某个 soname 的对象会响应之后对该 soname 的所有请求：框架之后按路径加载的自带副本虽然被映射，但其中的函数从不会被调用。cuDNN 随后打开的是预加载副本的子库。',
  'dup.preloadedFix': '停止预加载它，让框架自带的副本真正运行。',
  'dup.preloadedFixEtc': '从 /etc/ld.so.preload 中删除指向 {path} 的那一行（需要 root），让框架自带的副本真正运行。',
  'loaded.unreadable': '进程 {pid}：{message}',
  'loaded.mapsUnreadable': '无法读取 maps',
  'loaded.ok': '进程 {pid} 加载了 {libs}',
  'loaded.okFw': '进程 {pid}（{fw}）加载了 {libs}',
  'loaded.none': '没有 CUDA 动态库',
  'loaded.differs': '进程 {pid} 为 {family} 加载了 {loaded}，而模拟预期的是 {expected}',
  'loaded.nothing': '无',
  'loaded.differsDetails':
    '该进程可能修改了 LD_LIBRARY_PATH 或自行加载了库；以实际加载的文件为准。如果能复现，请报告这个问题。',
  'envs.nameInterpreter': '请指定一个解释器（…/bin/python3）或环境文件夹。',
  'envs.jaxPlugin': '{env} 中的 JAX：{plugin} 与 jaxlib {jaxlib} 不匹配；JAX 不会加载该插件，会退回到 CPU',
  'envs.jaxPluginFix': '安装与 jaxlib 版本相同的插件和 PJRT（或把它们一起升级）。',
  'envs.more': '另外找到 {n} 个 Python 环境，没有查看（check --all-envs 会全部查看）',
  'envs.summary': '{env}：{stack}',
  'envs.summaryPy': '{env}（Python {py}）：{stack}',
  'envs.summaryPyActive': '{env}（Python {py}，当前激活）：{stack}',
  'envs.summaryActive': '{env}（当前激活）：{stack}',
  'envs.noFramework': '没有安装 GPU 框架',
  'envs.buildUnknown': '构建未知：没有 build_info.py',
  'envs.torchLoads': 'torch 加载 cuDNN {version}',
  'envs.archList': 'torch 架构列表 {list}',
  'envs.jaxBackend': 'JAX 后端 {backend}',
  'envs.tfSees': 'TensorFlow 看到 {n} 个 GPU',
  'envs.distributions': '{n} 个发行包，{wheels} 个 nvidia-* wheel 包',

  // compatibility verdicts, shared by versions.* and compat (src/judge/compat/judge.ts)
  'judge.unknownVersion': '（版本未知）',
  'judge.driverNone': '没有 NVIDIA 驱动响应，因此无法知道它能否运行 {label} 的 CUDA {cuda} 运行时',
  'judge.driverNoData': 'gpu-env-doctor 的数据中没有 CUDA {cuda}（{label}）在 {os} 上的最低驱动版本',
  'judge.driverOld': '{label} 自带 CUDA {cuda} 运行时，需要 NVIDIA 驱动 {min} 或更新；本机驱动是 {driver}',
  'judge.driverOldLimit':
    '{label} 自带 CUDA {cuda} 运行时，需要 NVIDIA 驱动 {min} 或更新；本机驱动是 {driver}（最高可运行 CUDA {limit}）',
  'judge.driverCompat':
    '驱动 {driver} 通过小版本兼容运行 {label} 的 CUDA {cuda} 运行时（需要 {min}+；CUDA {cuda} 的完整驱动版本是 {full}）',
  'judge.driverOk': '驱动 {driver} 可以运行 {label} 的 CUDA {cuda} 运行时（需要 {min}+）',
  'judge.gpuLine': 'GPU {gpu}：{name}，计算能力 {cc}',
  'judge.ccUnknown': 'GPU {gpu}（{name}）的计算能力未知',
  'judge.paddleNoCode':
    'CUDA {cuda} 无法为 GPU {gpu}（{name}，计算能力 {cc}）生成代码：只有当 {label} 带有驱动可以即时编译（JIT）的 PTX 时才能在上面运行；否则会出现 "no kernel ' +
    'image is available for execution on the device"。请使用 CUDA 更新的构建。',
  'judge.minCcOk': 'GPU {gpu}（{name}，{cc}）受 {label} 支持（需要 {min}+）',
  'judge.minCcFail': '{label} 需要计算能力 {min} 或更高；GPU {gpu}（{name}）是 {cc}',
  'judge.archsUnknown': '不知道 {label} 是为哪些 GPU 架构构建的',
  'judge.targets': '{label} 的目标架构：{list}',
  'judge.noKernels':
    '{label} 没有适用于 GPU {gpu}（{name}，{sm}）的核函数，也没有可即时编译（JIT）的 PTX：会出现 "no kernel image is available for execution on ' +
    'the device"',
  'judge.noKernelsSoft':
    '{label} 没有适用于 GPU {gpu}（{name}，{sm}）的核函数，也没有可即时编译（JIT）的 PTX：会出现 "no kernel image is available for execution on ' +
    'the device"（此构建的架构列表未经确认）',
  'judge.ptxOld':
    '{label} 只能通过即时编译它的 {ptx} PTX 在 GPU {gpu}（{cc}）上运行，这需要驱动 {full}+（本机是 {driver}）：会出现 "the provided PTX was ' +
    'compiled with an unsupported toolchain"',
  'judge.ptxJit':
    '{label} 没有适用于 GPU {gpu}（{cc}）的 SASS；驱动会即时编译它的 {ptx} PTX（首次启动慢，核函数可能更慢）',
  'judge.sass': '{label} 含有适用于 GPU {gpu}（{name}）的 {sm} 代码',
  'judge.sameFamily': '{label} 用它的 {sm} 代码在 GPU {gpu}（{cc}）上运行（同一架构系列）',
  'judge.pyOk': 'Python {py} 受 {label} 支持',
  'judge.pyMin': '{label} 需要 Python {min} 或更新；此环境中是 {py}',
  'judge.pyOkRange': 'Python {py} 受 {label} 支持（{range}）',
  'judge.pyExperimental': 'Python {py} 对 {label} 只是实验性支持（正式支持：{range}）',
  'judge.pyFail': '{label} 支持 Python {range}；此环境中是 {py}',
  'judge.cudnnCudaMajor': '{pkg} 是用于 CUDA {pkgCuda} 的 cuDNN，但 {label} 运行的是 CUDA {cuda}',
  'judge.cudnnMinOk': 'cuDNN {loaded} 适用于 {label}（需要 cuDNN {major} 的 {min}+）',
  'judge.cudnnMinFail':
    '{label} 需要 cuDNN {major} 中 {min} 或更新的版本；它找到的是 {loaded}（"Outdated cuDNN installation found"）',
  'judge.cudnnOtherMajor': '主版本不同（构建时用的是 {built}）',
  'judge.cudnnOlder': '比构建时用的 {built} 旧',
  'judge.cudnnNewer': '比构建时用的 {built} 新，cuDNN 的兼容性规则允许这样',
  'judge.cudnnSame': '与构建时用的 {built} 相同',
  'judge.cudnnLoads': '{label} 加载 cuDNN {loaded}：{detail}',
  'judge.cudnnLoadsFail': '{label} 加载 cuDNN {loaded}：{detail}；{why}',
  'judge.cudnnCc': 'cuDNN {loaded} 支持计算能力 {min} 及以上；GPU {gpu}（{name}）是 {cc}',
  'judge.nvccSame': 'nvcc（CUDA {nv}）与 {label} 使用的 CUDA 相同',
  'judge.paddleNvccSame':
    '{label} 加载本机的 CUDA 动态库（Paddle 2.x 不自带）；这里的工具包是 CUDA {nv}，与它的 CUDA {cuda} 主版本相同',
  'judge.paddleNvccOther':
    '{label} 加载本机的 CUDA {major} 动态库（Paddle 2.x 不自带：库搜索路径上的 cuBLAS、cuDNN……必须是 CUDA {major} 的构建），但这里的工具包是 CUDA {nv}。请另外' +
    '安装 CUDA {cuda} 工具包（或 conda 的 cudatoolkit={cuda}），或改用 PaddlePaddle 3.x，它的 wheel 包自带 CUDA 动态库。',
  'judge.nvccTorchSame': '用它编译 CUDA 扩展没有问题（torch.utils.cpp_extension 只会对小版本不同发出警告）。',
  'judge.nvccTorchOther':
    '只有为它编译 CUDA 扩展（torch.utils.cpp_extension）时才需要 CUDA {major} 的 nvcc：它拒绝其他主版本。',
  'judge.nvccOther':
    'nvcc 是 CUDA {nv}，而 {label} 使用 CUDA {cuda}：这是正常的，不是错误。框架自带 CUDA 运行时（pip 的 nvidia-* 包或捆绑的库），运行时从不使用 nvcc 或 ' +
    '/usr/local/cuda。{ext}',

  // explain: the engine's reasons about memory, verdicts, terminal and Markdown renderers
  'why.xlaShrinking': 'XLA 先申请了 {size}，随后用更小的大小重试（共 {n} 次）：它的预分配放不进空闲显存',
  'why.xlaFraction': '预分配是 GPU 显存的固定比例，所以当已有其他东西占用了部分显存时就会失败',
  'why.xlaTakenBefore':
    '失败的请求（{requested}）放得进预分配最初申请的 {size}：作业本身并不超出 GPU；显存在本进程分配任何东西之前就已被占用（另一个进程，或另一个框架的内存池）',
  'why.cupyNothing':
    'CuPy 还没有分配任何显存（"allocated so far: 0 bytes"）时，{bytes} 字节就放不下了：显存被其他东西占用了（或者请求超过了 GPU 容量）',
  'why.rawOom':
    'PyTorch 抛出的是原始的 CUDA out-of-memory 错误，而不是其分配器的 OutOfMemoryError：失败发生在创建 CUDA 上下文或库句柄时，这只会在 GPU 显存已满时发生',
  'why.poolRegionSmall':
    '框架的显存池连 {size} 都没能从 GPU 拿到（它的分配器按启动时的空闲显存向设备申请区域）：作业自己还没分配任何东西时，GPU 就已几乎被占满（另一个进程，或本进程中的另一个框架）',
  'why.darknetFirstLayer': 'darknet 在构建第一层时显存不足，此时网络自己的缓冲区还一个都没有：GPU 早已被占用',
  'why.darknetOwn':
    'darknet 的每个网络缓冲区都由它自己分配（没有内存池，也不预分配）：这里显存不足，是网络本身太大（darknet 的建议：在 .cfg 中调大 subdivisions，或调小 batch、width、height）',
  'why.xlaContextOom':
    'XLA 在创建设备的 stream executor（它的 CUDA 上下文）时显存不足，此时作业还没有分配任何东西：GPU 已经被占满；随后的“no supported devices found”由此而来',
  'why.freeAtStart': '框架启动时只有 {free} 空闲（总量 {total}，已有 {pct}% 被其他东西占用）',
  'why.tooLargeNever': '请求的大小（{requested}）超过了整个 GPU（{total}）：永远放不下',
  'why.tfPoolLeaves':
    'TensorFlow 的内存池占了 GPU 共 {total} 中的 {pool}：剩下的 {left} 不够一个 CUDA 上下文和 cuDNN/cuBLAS 句柄使用' +
    '（让它按需增长：allow_growth / TF_FORCE_GPU_ALLOW_GROWTH=true）',
  'why.tooLargeAny': '请求的大小（{requested}）超过了现有最大的 GPU（{largest}）：在任何 GPU 上都放不下',
  'why.tooLarge': '请求的大小（{requested}）超过了整个 GPU（{total}）',
  'why.noRoomForLarger': '对于超过 GPU 容量的请求，其他进程无论如何也腾不出空间',
  'why.processHolds': '进程 {pid} 占用 {size}',
  'why.othersOfGpu': '{list}（GPU 总量 {total}）',
  'why.othersOfGpuSelf': '{list}（GPU 总量 {total}）；本进程只占用 {self}',
  'why.wouldHaveFit': '如果没有其他进程，本任务（{self} + 请求的 {requested}）本来放得下',
  'why.jobSmall': '任务本身只用了 GPU 的一小部分',
  'why.smallShare': '{list}（只占 GPU 的一小部分）',
  'why.selfHolds': 'GPU 上没有列出其他进程：显存是被本进程自己占用的',
  'why.selfHoldsOf': 'GPU 上没有列出其他进程：显存是被本进程自己占用的（{self}，总量 {total}）',
  'why.noOtherListed': 'PyTorch 没有列出 GPU 上的其他进程',
  'why.otherFrameworkInProcess':
    '本进程占用了 {self}，但 PyTorch 自己的显存池只有 {pool}：本进程中有 {foreign} 在 PyTorch 之外被占用，远多于一个 CUDA 上下文和库句柄所需（同一进程里的另一个框架，如 JAX ' +
    '或 TensorFlow，预留了它的显存池）',
  'why.contextsOnly': '{list}：每个不超过一个 CUDA 上下文的大小，并不是它们占满了 GPU',
  'why.usedElsewhere':
    'GPU 的 {total} 中有 {elsewhere} 在本进程之外被占用（本进程：{self}），远超一个 CUDA 上下文：是另一个进程占着',
  'why.freeEnough':
    'GPU 上仍有 {free} 空闲，而请求只有 {requested}：不是其他进程占用的显存挡住了它（是本进程自己的上限或缓存）',
  'why.paddleNothing':
    'Paddle 还没有分配任何显存，而申请 {requested} 时只有 {available} 可用：显存在 Paddle 分配之前就被占用了（另一个进程，或另一个框架的显存池）',
  'why.paddleHolds':
    'Paddle 自己占用了 {allocated}，申请 {requested} 时只剩 {available}：任务需要的显存超过了 GPU 的容量',
  'why.paddleElsewhere': 'GPU 的 {total} 中有 {elsewhere} 既不属于 Paddle 也不可用：是另一个进程占着',
  'why.fragmented': 'PyTorch 有 {unalloc} 已保留但未分配，不少于请求的 {requested}：空间就在缓存里，只是碎成了太小的块',
  'why.fragmentedHalf': 'PyTorch 有 {unalloc} 已保留但未分配（达到请求的一半或更多）',
  'why.littleUnalloc': '只有 {unalloc} 已保留但未分配',
  'why.legacyOthers':
    'PyTorch 只保留了 {reserved}，空闲 {free}：有 {unaccounted}（GPU 的 {pct}%）被这个 PyTorch 之外的其他进程占用',
  'why.legacySmall': '这个 PyTorch 只占用了 GPU 的一小部分',
  'why.legacyNotReserved':
    '{unaccounted}（GPU 的 {pct}%）不是这个 PyTorch 保留的：属于其他进程，或本进程的 CUDA 动态库',
  'why.legacyMost': '这个 PyTorch 占用了 GPU 的大部分（保留 {reserved}，总量 {total}）',
  'why.legacyCache':
    'PyTorch 保留了 {reserved}，但只分配了 {allocated}：有 {cached} 留在缓存里，多于请求的 {requested}，只是碎成了太小的块',
  'why.legacyCacheLess': '{cached} 已保留但未分配（少于请求的 {requested}）',
  'explain.nothing': '输入中没有指向已知 GPU、CUDA、cuDNN 或驱动故障的内容。',
  'explain.notEnough': '输入中有与 GPU 相关的信息，但不足以判断原因。',
  'explain.familyOnly': '输入中有 GPU 故障的字眼，但不是已知的报错信息：按此类故障通常的原因排序，置信度较低。',
  'explain.ambiguousLine': '仅凭这一行无法判断是 {n} 个原因中的哪一个。',
  'explain.ambiguousLog': '仅凭日志无法判断是 {n} 个原因中的哪一个。',
  'explain.mostLikelySetting': '最可能：{setting} 的值框架无法解析（{pct}%）。',
  'explain.mostLikely': '最可能：{cause}（{pct}%）。',
  'explain.settingTitle': '{setting} 的值框架无法解析',
  'explain.inputLine': '{sources}：{n} 行',
  'explain.inputNoGpu':
    '{sources}：{n} 行；本机没有可用的 NVIDIA GPU，因此只根据日志判断（请在 GPU 机器上运行 explain，或用 --from 指定它的快照）',
  'explain.inputWith': '{sources}：{n} 行，结合 {host} 的事实',
  'explain.thisMachine': '本机',
  'explain.contextRead': '（读取了 {n} 行上下文）',
  'explain.pasteWhole': '请粘贴完整的报错信息及其上方的几行（以及你的 CUDA/cuDNN/驱动版本）以便诊断。',
  'explain.addV': '（所有匹配的行、从输入中读到的事实和根因 id：加 -v）',
  'explain.check': '检查：',
  'explain.cheapest': '先做最省事的检查：{test}：',
  'explain.cheapestNoCmd': '先做最省事的检查：{test}。',
  'explain.decides': '决定性的检查：',
  'explain.onMachine': '（在失败的那台机器上运行），或粘贴报错上方的几行',
  'explain.onMachineCudnn':
    '（在失败的那台机器上运行：它能区分 cuDNN 无法启动和 cuDNN 拿不到显存），或粘贴报错上方的几行',
  'explain.ifFirst': '如果是第一个：',
  'explain.machineWhere': '（本机）',
  'explain.signals': '信号',
  'explain.weights': '权重：共 {total}，第一个原因占 {pct}%',
  'explain.factsRead': '从输入中读到的事实',
  'explain.machineNote': '本机：{note}',
  'fact.framework': '框架',
  'fact.frameworkVersion': '框架版本',
  'fact.buildCuda': '构建所用 CUDA',
  'fact.cuda': 'CUDA',
  'fact.driverCuda': '驱动支持的 CUDA',
  'fact.cudnn': 'cuDNN',
  'fact.driver': '驱动',
  'fact.os': '操作系统',
  'fact.python': 'Python',
  'fact.install': '安装方式',
  'fact.container': '容器',
  'fact.line': '{label}：{value}（第 {n} 行）',
  'fact.noLine': '{label}：{value}',
  'fact.gpu': 'GPU：{name}（第 {n} 行）',
  'fact.gpuCc': 'GPU：{name}（计算能力 {cc}）（第 {n} 行）',

  // explain: Markdown (src/report/views/explain/markdown.ts)
  'explain.md.input': '输入：{sources}（{n} 行）。',
  'explain.md.inputWith': '输入：{sources}（{n} 行），结合 {host} 的事实。',
  'explain.md.inputNoGpu': '输入：{sources}（{n} 行）；本机没有可用的 NVIDIA GPU，因此只根据日志判断。',
  'explain.md.candidate': '候选原因',
  'explain.md.confidence': '置信度',
  'explain.md.check': '检查',
  'explain.md.decides': '决定性的检查：在失败的那台机器上运行 `gpu-env-doctor check --deep`，或粘贴报错上方的几行。',
  'explain.md.machine': '（本机）',

  // explain: the fix of each root cause (src/judge/explain/fixes/fixes.ts)
  'fix.oom.smaller': '把任务变小：减小 batch size 或输入尺寸（图像分辨率、序列长度）。',
  'fix.oom.torchAccum': '用梯度累积保持等效 batch（多个小步，然后 optimizer.step()）。',
  'fix.oom.torchAmp':
    '使用混合精度（torch.autocast("cuda", dtype=torch.bfloat16)，或 float16 配合 GradScaler），大模型再加上激活检查点（torch.utils.checkpoint）。',
  'fix.oom.torchBenchmark': '设置 torch.backends.cudnn.benchmark = False：benchmark 会尝试需要大工作空间的卷积算法。',
  'fix.oom.tfAmp': "使用混合精度：tf.keras.mixed_precision.set_global_policy('mixed_float16')。",
  'fix.oom.tfAccum': '用梯度累积保持等效 batch。',
  'fix.oom.jax': '大模型使用 bfloat16 参数/激活，并使用 jax.checkpoint（重计算）。',
  'fix.held.kill': 'kill {pid}    # 仅当进程 {pid} 是你的且不再需要时（先检查：ps -o pid,user,etime,cmd -p {pid}）',
  'fix.held.hostPid':
    'PID {pid} 来自日志：在容器中它是宿主机的 PID（NVML 报告的是宿主机 PID），在这里可能不存在，或者是另一个进程。请在这台机器上运行 gpu-env-doctor fix，它会自己找到占用者。',
  'fix.held.mapped':
    '日志中的 PID {pid} 在这里是 PID {local}（nvidia-smi 报告的是宿主机 PID；按打开了 GPU 的进程对应）',
  'fix.held.endIt': '结束占用显存的进程（用上面的命令找到它；如果是你的且已完成，`kill PID`）。',
  'fix.held.mustKeep': '或者，如果它必须继续运行：{remedy}',
  'fix.held.freeGpu': '或者在空闲的 GPU 上运行：CUDA_VISIBLE_DEVICES=<空闲 GPU 的序号> python ...',
  'fix.held.text':
    '显存被其他进程占用。释放它、等它结束，或换一个 GPU。残留的进程（数据加载 worker、Jupyter 内核、已暂停的任务）在退出前一直占着显存。',
  'fix.held.textPids':
    '显存被其他进程占用（PID {pids}）。释放它、等它结束，或换一个 GPU。残留的进程（数据加载 worker、Jupyter 内核、已暂停的任务）在退出前一直占着显存。',
  'fix.held.textTorch':
    '显存被其他进程占用。释放它、等它结束，或换一个 GPU。残留的 worker（DataLoader、Jupyter 内核、已暂停的任务）在退出前一直占着显存。',
  'fix.held.textPidsTorch':
    '显存被其他进程占用（PID {pids}）。释放它、等它结束，或换一个 GPU。残留的 worker（DataLoader、Jupyter 内核、已暂停的任务）在退出前一直占着显存。',
  'fix.prealloc.jax':
    'JAX 在第一次运算时预先占用 75% 的显存。关闭预分配，或给它更小的比例，让 cuDNN/cuBLAS 和其他进程有空间。',
  'fix.prealloc.tf':
    'TensorFlow 启动时会占用几乎全部显存，不给 cuDNN/cuBLAS 句柄或第二个进程留空间。开启按需分配显存：在任何运算之前对每个 GPU 调用 ' +
    'tf.config.experimental.set_memory_growth(gpu, True)（TF1：config.gpu_options.allow_growth = True），或设置环境变量。',
  'fix.prealloc.any':
    '某个框架预先占用了大部分显存。TensorFlow：开启按需分配显存（TF_FORCE_GPU_ALLOW_GROWTH=true）。JAX：关闭预分配' +
    '（XLA_PYTHON_CLIENT_PREALLOCATE=false）或降低其比例。',
  'fix.frag':
    'PyTorch 的缓存中有足够的显存，但碎成了比请求小的块。让分配器扩展段而不是切分（PyTorch 2.1+），旧版本则限制切分大小；在阶段之间释放缓存（评估后调用 torch.cuda.empty_cache()）。',
  'fix.frag.tf':
    'TensorFlow 的 BFC 分配器中有足够的显存，但碎成了比请求小的块。改用 CUDA 自己的流序分配器来管理显存（TF_GPU_ALLOCATOR=cuda_malloc_async，TensorFlow 2.5+）。',
  'fix.frag.jax':
    'XLA 的显存池中有足够的显存，但碎成了比请求小的块。让 JAX 按需分配、释放不再使用的显存（XLA_PYTHON_CLIENT_ALLOCATOR=platform：较慢，但不保留显存池）。',
  'fix.frag.cupy':
    'CuPy 的显存池会保留释放的块以便复用，但它们碎成了比请求小的块。在阶段之间把它们还回去：cupy.get_default_memory_pool().free_all_blocks()。',
  'fix.frag.other':
    '框架的显存池中有足够的显存，但碎成了比请求小的块。在阶段之间释放它的缓存，或让它按需分配而不是从池中分配。',
  'fix.cudnn.needCompiled': 'cuDNN {version} 或同一主版本中更新的小版本',
  'fix.cudnn.needBuilt': 'cuDNN（框架构建时所用的版本）',
  'fix.cudnn.text':
    '加载的 cuDNN 与框架构建不符；请安装 {need}，或安装针对你现有 cuDNN 构建的框架版本。用 gpu-env-doctor libs 查看实际加载的是哪一份。',
  'fix.cudnn.textRuntime':
    '加载的 cuDNN（{runtime}）与框架构建不符；请安装 {need}，或安装针对你现有 cuDNN 构建的框架版本。用 gpu-env-doctor libs 查看实际加载的是哪一份。',
  'fix.tfSystem.tested':
    'TensorFlow {version} 从库搜索路径（LD_LIBRARY_PATH）加载 CUDA {cuda} 和 cuDNN {cudnn}（它的测试构建），不使用 pip 的 nvidia-* wheel。',
  'fix.tfSystem.text':
    '早于 2.14 的 TensorFlow 从库搜索路径（LD_LIBRARY_PATH）加载 CUDA 和 cuDNN，不使用 pip 的 nvidia-* wheel。',
  'fix.cuda.text':
    '框架是针对 CUDA {wanted} 构建的，与已安装的不同。请安装那个 CUDA 运行时（并存安装即可），或安装针对你的 CUDA 构建的框架。',
  'fix.cuda.textOther':
    '框架是针对另一个 CUDA 版本构建的，与已安装的不同。请安装那个 CUDA 运行时（并存安装即可），或安装针对你的 CUDA 构建的框架。',
  'fix.cuda.own.torch': 'PyTorch 的 pip wheel 包自带 CUDA 运行时：请安装你的驱动所支持的 cuXXX 索引中的那一个。',
  'fix.cuda.own.tf':
    'TensorFlow 2.14+ 用 pip install "tensorflow[and-cuda]" 自带 CUDA 库（Linux）；更早的版本使用机器上安装的 CUDA，版本见其经过测试的构建表。',
  'fix.cuda.own.jax': 'jax[cuda12] 和 jax[cuda13] 以 pip wheel 包的形式自带 CUDA 库。',
  'fix.jax.cuda11':
    '输入中写的是 CUDA {cuda}：JAX 支持 CUDA 11 的最后一个版本是 0.4.25（jax[cuda11_pip]，需要 CUDA 11.8 和 cuDNN 8.6 或更新）；之后的版本需要 CUDA 12，' +
    'jax[cuda12] 会以 pip wheel 的形式带来它（需要 525.60.13 或更新的驱动）。',
  'fix.jax.cudaOld':
    '输入中写的是 CUDA {cuda}：JAX 针对它的 wheel 到 jaxlib 0.1.71 为止；当前版本需要 CUDA 12，jax[cuda12] 会以 pip wheel 的形式带来它（需要 ' +
    '525.60.13 或更新的驱动）。',
  'fix.cuda.own.ort':
    'onnxruntime-gpu 针对一个 CUDA 主版本构建，加载机器上找到的 CUDA 和 cuDNN：请按 ONNX Runtime 的 CUDA 要求表，安装与你的 onnxruntime-gpu 版本对应的版本。',
  'fix.cuda.own.cupy':
    'CuPy 的 wheel 包每个只对应一个 CUDA 主版本（cupy-cuda11x、cupy-cuda12x）：请安装与你的 CUDA 对应的那个。',
  'fix.cuda.own.paddle': 'paddlepaddle-gpu 2.x 使用机器上安装的 CUDA 库；3.x 的 wheel 包以 pip 依赖的形式自带这些库。',
  'fix.cuda.own.other': '用 pip 安装的框架可能以 nvidia-* wheel 包的形式自带 CUDA 运行时。',
  'fix.driver.text':
    'NVIDIA 驱动比所用 CUDA 要求的旧。请更新驱动，或安装针对你的驱动所支持的 CUDA 构建的框架（nvidia-smi 中显示为 "CUDA Version"）。',
  'fix.driver.textDc':
    'NVIDIA 驱动比所用 CUDA 要求的旧（它支持 CUDA {dc}）。请更新驱动，或安装针对你的驱动所支持的 CUDA 构建的框架（nvidia-smi 中显示为 "CUDA Version"）。',
  'fix.driver.textMin':
    'NVIDIA 驱动比所用 CUDA 要求的旧。请把驱动更新到 {min} 或更新版本，或安装针对你的驱动所支持的 CUDA 构建的框架（nvidia-smi 中显示为 "CUDA Version"）。',
  'fix.driver.textDcMin':
    'NVIDIA 驱动比所用 CUDA 要求的旧（它支持 CUDA {dc}）。请把驱动更新到 {min} 或更新版本，或安装针对你的驱动所支持的 CUDA 构建的框架（nvidia-smi 中显示为 "CUDA ' +
    'Version"）。',
  'fix.driver.manual': '安装更新的 NVIDIA 驱动（发行版的软件包或 NVIDIA 安装程序；需要 root 权限，通常还要重启）。',
  'fix.missing.text':
    '框架需要的动态库不在加载器的搜索路径上。请安装它（pip 安装的框架用 nvidia-* wheel 包；否则用 CUDA/cuDNN 软件包），或把它所在的文件夹加入 LD_LIBRARY_PATH（Windows 上是 ' +
    'PATH）。',
  'fix.missing.textLib':
    '框架需要的动态库（{lib}）不在加载器的搜索路径上。请安装它（pip 安装的框架用 nvidia-* wheel 包；否则用 CUDA/cuDNN 软件包），或把它所在的文件夹加入 ' +
    'LD_LIBRARY_PATH（Windows 上是 PATH）。',
  'fix.missing.textSystem':
    '框架需要的某个动态库不在加载器的搜索路径上。请安装它（CUDA/cuDNN 软件包），或把它所在的文件夹加入 LD_LIBRARY_PATH（Windows 上是 PATH）。',
  'fix.missing.textLibSystem':
    '框架需要的动态库（{lib}）不在加载器的搜索路径上。请安装它（CUDA/cuDNN 软件包），或把它所在的文件夹加入 LD_LIBRARY_PATH（Windows 上是 PATH）。',
  'fix.conflict':
    '同一个 CUDA 动态库有两份副本相互冲突，先加载的是错误的那份（LD_LIBRARY_PATH、conda 环境与 pip wheel 包混用、系统自带的副本）。把过时的副本从搜索路径中去掉，让框架构建时所用的那份被加载。',
  'fix.pipMirror':
    '在中国大陆下载慢时，pip 可加 -i https://pypi.tuna.tsinghua.edu.cn/simple 使用镜像（或 pip config set global.index-url 设为默认）；' +
    'PyTorch 的 CUDA 版 wheel 仍需 --index-url 指向 download.pytorch.org 或其镜像。',
  'fix.pipMirrorOther':
    '在中国大陆下载慢时，pip 可加 -i https://pypi.tuna.tsinghua.edu.cn/simple 使用镜像（或 pip config set global.index-url 设为默认）。',
  'fix.preload.text':
    'LD_PRELOAD 把 {lib} 强制加载进每个程序，但加载器无法使用它。把它从 LD_PRELOAD 中去掉（或指向一份完好的副本），然后重新运行。',
  'fix.preload.textWhy':
    'LD_PRELOAD 把 {lib} 强制加载进每个程序，但加载器无法使用它（{why}）。把它从 LD_PRELOAD 中去掉（或指向一份完好的副本），然后重新运行。',
  'fix.driver.mismatch':
    'Error 803：加载的 CUDA 驱动库（libcuda）与内核驱动不是同一版本。最常见的是 LD_LIBRARY_PATH 上有一个比已安装驱动更旧的 CUDA compat 包（…/compat）：把该文件夹从 ' +
    'LD_LIBRARY_PATH 中去掉，让驱动自带的 libcuda 被加载；更新驱动无济于事。',
  'fix.driver.mismatchReboot':
    '如果搜索路径上没有 compat 文件夹，而驱动刚升级过：重启（或重新加载 nvidia 内核模块），让内核驱动与 libcuda 版本一致。',
  'fix.arch.text':
    '已安装的构建不含此 GPU 的代码。请安装用支持它的 CUDA 版本构建的版本；比构建最低要求还旧的 GPU 需要旧版本或从源码构建。',
  'fix.arch.textCc':
    '已安装的构建不含此 GPU（计算能力 {cc}）的代码。请安装用支持它的 CUDA 版本构建的版本；比构建最低要求还旧的 GPU 需要旧版本或从源码构建。',
  'fix.arch.source.torch': 'PyTorch 从源码构建时，只为 TORCH_CUDA_ARCH_LIST 中列出的架构生成代码。',
  'fix.arch.source.tf':
    'TensorFlow 从源码构建时，只为 TF_CUDA_COMPUTE_CAPABILITIES（./configure 会询问）中的计算能力生成代码。',
  'fix.arch.source.jax':
    'jaxlib 从源码构建时，只为 build/build.py 的 --cuda_compute_capabilities 中的计算能力生成代码。',
  'fix.arch.source.ort':
    'ONNX Runtime 从源码构建时，只为 CMAKE_CUDA_ARCHITECTURES（build.sh --cmake_extra_defines）中的架构生成代码。',
  'fix.arch.source.cupy': 'CuPy 从源码编译时，只为 CUPY_NVCC_GENERATE_CODE 中的架构生成代码。',
  'fix.arch.source.mxnet': 'MXNet 从源码构建时，只为 MXNET_CUDA_ARCH 中的架构生成代码。',
  'fix.novis':
    '进程看不到任何 GPU。检查 CUDA_VISIBLE_DEVICES（为空，或序号不存在）、驱动是否已加载，以及在容器中 GPU 是否已传入（docker run --gpus all、Kubernetes ' +
    'nvidia.com/gpu）。',
  'fix.container.noRuntime':
    'Docker 没有可用于 --gpus 的运行时：主机上没有安装 NVIDIA Container Toolkit，或者 Docker 没有为它配置并重启。请安装该工具包，在 Docker 中注册，重启 Docker，' +
    '然后用 --gpus all 重新启动容器。',
  'fix.container.configureRuntime':
    '在主机上：安装 nvidia-container-toolkit，然后执行 sudo nvidia-ctk runtime configure --runtime=docker && ' +
    'sudo systemctl restart docker',
  'fix.container.lostDevices':
    '任务运行在容器中，而容器里 NVML 的“Unknown Error”表示容器失去了对 /dev/nvidia* 的访问：主机上的 systemd daemon-reload 会删除 NVIDIA ' +
    '运行时设置的设备规则。GPU 和驱动都没有问题，需要把它们重新交给容器。',
  'fix.container.restart': '重启容器（启动时会重新设置它的设备访问）。',
  'fix.container.symlinks':
    '为避免再次发生，在主机上执行：sudo nvidia-ctk system create-dev-char-symlinks --create-all（NVIDIA Container Toolkit 针对此错误的排错说明）',
  'fix.container.noGpus':
    '任务运行在容器中，而容器只有在启动时分配了 GPU 才能看到它：docker run --gpus all（或 --runtime=nvidia），在 Kubernetes 中申请 nvidia.com/gpu ' +
    '资源。在容器内，CUDA_VISIBLE_DEVICES 不能把分配给它的 GPU 隐藏掉。',
  'fix.fault.text':
    'GPU 或驱动处于异常状态（Xid/ECC 错误、升级驱动后没有重启、休眠/唤醒）。查看内核日志，然后重置驱动或重启机器；持续报错的 GPU 需要更换。',
  'fix.fault.reboot':
    '重启机器（或重新加载驱动：sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia nvidia_uvm）。',
  'fix.fault.drain': '在集群上：把节点排空（drain）并报告给管理员。',
  'fix.bug':
    '这看起来是所用框架版本的缺陷。升级到最新的补丁版本（或退回到上一个能用的版本），并在它的 issue 列表中搜索这条报错信息。',
  'fix.other': '原因不在 GPU 配置上（主机内存、程序本身或其数据）。请看证据行。',
  'fix.setting.allocConf': 'PyTorch 的 CUDA 缓存分配器选项，逗号分隔的 key:value 对',
  'fix.setting.memFraction': 'JAX 预分配的显存比例，0 到 1 之间的数',
  'fix.setting.allowGrowth': 'TensorFlow 按需增长显存的开关，只能是小写的 "true" 或 "false"',
  'fix.setting.text':
    '{name} 的值框架无法解析。先不设置它运行一次以确认，然后在设置它的地方改正（shell 配置文件、任务脚本、容器环境）。',
  'fix.setting.textKnown':
    '{name} 的值框架无法解析（{what}，例如 {name}={example}）。先不设置它运行一次以确认，然后在设置它的地方改正（shell 配置文件、任务脚本、容器环境）。',

  // serve's help (src/commands/serve.ts)
  'cmd.serve.summary': 'GPU 服务器的本地实时网页：按进程和用户显示显存、残留的占用者、空闲 GPU、检查结果',
  'cmd.serve.description':
    '本机 GPU 的实时网页：每个 GPU 按进程（用户、框架、判定、运行时长、命令）显示显存，各框架的显存策略，哪些 GPU 空闲以及使用它的 CUDA_VISIBLE_DEVICES 行，最近一小时的显存，以及 check ' +
    '的检查结果（每 --check-interval 秒一次）。页面会自动更新（server-sent events）；没有 JavaScript 时它是一个会自动重新加载的完整页面。它只读取：页面上的任何操作都不会结束进程' +
    '（这由 gpu-env-doctor fix 在询问后完成）。\n\n除非用 --host 指定，它只监听 127.0.0.1；其他地址的每个请求都需要令牌：启动时生成并打印一个，或从 --token-file ' +
    'FILE 读取（至少 {minToken} 个字符）。加 --fleet DIR 时，它根据 DIR 中的快照（每个节点一个文件，由 "gpu-env-doctor snapshot" 写入；见 ' +
    'examples/kubernetes 和 examples/slurm）显示多台机器，每台一行。--redact 会隐藏用户名、主机名和命令行。',
  'cmd.serve.example1': '本机的页面：http://127.0.0.1:{port}/',
  'cmd.serve.example2': '给整个实验室用，带令牌',
  'cmd.serve.example3': '每个节点一行，来自各节点写入的快照',
  'cmd.serve.exitCodes': '0 用 Ctrl-C 停止；2 地址不可用，或选项有误。',
  'registry.serve': 'GPU 服务器的本地实时网页：按进程和用户显示显存、残留的占用者、空闲 GPU、检查结果',
  'registry.mcp':
    '供编程助手使用的 Model Context Protocol 服务（stdio）：check、explain、procs、libs、compat、snapshot、修复计划（只读）',
  'cmd.mcp.summary': '通过 Model Context Protocol（stdio）把本工具提供给编程助手',
  'cmd.mcp.description':
    '在标准输入和输出上运行 Model Context Protocol 服务。所有工具都是只读的：check、explain\n（日志文本或文件）、procs、libs、compat、snapshot，以及 ' +
    'fix_plan（fix 的演练计划：不结束任何进程，\n不写任何文件）。每个工具返回对应命令加 --json 时输出的 JSON。检查结果说明页作为资源提供。加上\n--redact 时所有回答都会脱敏。按 ' +
    'README 里的一行配置即可加入编程助手。',
  'cmd.mcp.example1': '启动服务（通常由编程助手替你启动）',
  'cmd.mcp.example2': '加入编程助手，并替换用户名、主机名和密钥',
  'cmd.mcp.exitCodes': '0 客户端关闭了连接；2 用法错误或工具本身出错。',

  // explain: the test that tells causes apart (src/judge/explain/fixes/tests.ts); Windows and WSL sentences
  // (src/judge/platform/adapt-fix.ts)
  'test.heldOther': '看看是否有其他进程占用显存',
  'test.jaxPrealloc': '关闭预分配后重新运行',
  'test.tfGrowth': '开启按需分配显存后重新运行',
  'test.eitherPrealloc': '开启按需分配显存（TensorFlow）或关闭预分配（JAX）后重新运行',
  'test.halfBatch': '把 batch size 减半后重新运行：如果通过，说明任务本身需要的显存超过了 GPU 容量',
  'test.fragTf': '改用 CUDA 的流序分配器代替 TensorFlow 的 BFC 显存池后重新运行',
  'test.fragJax': '让 JAX 按需分配、不使用显存池后重新运行',
  'test.fragCupy': '在分配之前释放 CuPy 的显存池（cupy.get_default_memory_pool().free_all_blocks()）后重新运行',
  'test.fragAny': '在失败的那次分配之前释放框架的缓存后重新运行',
  'test.expandable': '开启 expandable segments 后重新运行',
  'test.cudnnTorch': '比较 PyTorch 构建时所用的 cuDNN 和实际加载的 cuDNN',
  'test.cudnnTf': '比较 TensorFlow 构建时所用的 cuDNN 和实际加载的 cuDNN',
  'test.cudnnAny': '查看每个框架加载的是哪个 cuDNN',
  'test.cudaTf': '比较 TensorFlow 构建时所用的 CUDA 和已安装的 CUDA',
  'test.cudaTorch': '比较 PyTorch 构建时所用的 CUDA 和 CUDA 工具包',
  'test.cudaAny': '查看每个框架加载的是哪个 CUDA 运行时',
  'test.driverCuda': '读取驱动支持的最高 CUDA 版本（"CUDA Version"）',
  'test.loaderFinds': '查看加载器能找到哪些 CUDA 动态库',
  'test.whichCopy': '查看每个库先加载的是哪一份',
  'test.archTorch': '比较 GPU 的计算能力与构建所含的架构',
  'test.cc': '读取 GPU 的计算能力',
  'test.listGpus': '列出任务能看到的 GPU',
  'test.xid': '在内核日志中查找 Xid 或 ECC 错误',
  'test.latestPatch': '用框架最新的补丁版本重新运行',
  'win.wslDriver':
    '在 Windows 上（不是在 WSL 里）：从 nvidia.com 安装或更新 NVIDIA 驱动，然后在 Windows 命令行中重启 WSL：wsl --shutdown',
  'win.tfTested':
    'TensorFlow {series} 在 Windows 上是用 CUDA {cuda} 和 cuDNN {cudnn} 测试的；conda 那一行会把两者都装进当前环境（tensorflow[and-cuda] 这个 ' +
    'extra 只适用于 Linux）。',
  'win.tfSetup': 'conda 和 pip 那几行会在当前环境中装好 TensorFlow {version}（CUDA {cuda}，cuDNN {cudnn}）。',
  'win.shells':
    '在 Windows 上，`set` 行用于 cmd（Anaconda Prompt），`$env:` 行用于 PowerShell，`export` 用于 Git Bash；都只在当前窗口有效。',
  'win.whereCopies': 'where.exe {dll} 会按 Windows 查找的顺序列出 PATH 上的各份副本。',
  'win.driver':
    '从 nvidia.com（或 NVIDIA App / GeForce Experience）安装更新的 Windows 版 NVIDIA 驱动，然后重启 Windows。',
  'win.driverBranch':
    '从 nvidia.com（或 NVIDIA App / GeForce Experience）安装更新的 Windows 版 NVIDIA 驱动（{branch} 分支或更新），然后重启 Windows。',
  'win.restart': '重启 Windows（更新或重置驱动后都需要）。',
  'win.cvd': '{cmd}（cmd）或 {ps}（PowerShell），然后启动 python',
  'win.k.condaBin':
    'conda 的 CUDA 和 cuDNN DLL（%CONDA_PREFIX%\\Library\\bin）只在激活的环境中才在 PATH 上（conda activate NAME）。',
  'win.k.dllSearch':
    'Windows 依次在程序所在文件夹、System32、PATH 中查找 DLL（从不读 LD_LIBRARY_PATH）；错误 126 / "DLL load failed" 表示这个 DLL（或它依赖的某个 DLL）不在' +
    '其中任何一处。',
  'win.k.tfNative':
    'TensorFlow 2.10 是最后一个在原生 Windows 上支持 GPU 的版本；TensorFlow 2.11 及以后只能在 WSL2 中使用 GPU。tensorflow[and-cuda] 附加包（2.14+）' +
    '安装的是仅限 Linux 的 nvidia-* wheel 包。',
  'win.k.jax':
    'JAX 只发布 Linux 的 CUDA wheel 包：在 Windows 上请在 WSL2 中运行它（在 Linux 环境里安装 jax[cuda12]）。',
  'win.k.expandable':
    'PyTorch 的 expandable_segments 分配器选项在 Windows 上不可用（它会警告 "expandable_segments not supported on this platform" 并忽略该' +
    '选项）。',
  'win.k.processes':
    '在 Windows 上用 taskkill /PID N /F 结束进程（不加 /F 时，python.exe 这类控制台程序只会被请求关闭）；先用 tasklist /V /FI "PID eq N" 查看它属于谁。' +
    'GPU 运行在 WDDM 模式时，nvidia-smi 在 Windows 上能列出进程，但不显示它们的显存。',
  'win.k.wslDriver':
    'WSL2 使用 Windows 主机的 NVIDIA 驱动：请在 Windows 上更新驱动；不要在 WSL 里安装 Linux 版 NVIDIA 驱动（它会替换 WSL 的 libcuda 桩库，导致 CUDA 不可用）。',
  'win.k.wslLibcuda':
    '在 WSL2 中，libcuda.so 来自 /usr/lib/wsl/lib（由 Windows 驱动挂载）；它必须留在加载器的搜索路径上。',
  'win.k.dll': '{dll} 是 {library}（{version}）{how}。',
  'win.k.dllHow': '：{providers}',
  'win.k.dllOr': '，或 ',

  // env.allocators and what frameworks do with their settings (src/checks/env/allocator*.ts)
  'alloc.torchOldImport':
    'PyTorch（2.9 之前）在第一次 CUDA 调用时抛出 RuntimeError "Error parsing CachingAllocator::AllocatorConfig settings"',
  'alloc.torchAbort':
    "PyTorch 在 import 时就中止，你的任何代码都还没运行：\"terminate called after throwing an instance of 'c10::Error' … " +
    '{error}"（SIGABRT，退出码 134）',
  'alloc.torchAbortUnknown':
    "PyTorch 2.9 及以后在 import 时就中止，你的任何代码都还没运行：\"terminate called after throwing an instance of 'c10::Error' … " +
    '{error}"（SIGABRT，退出码 134）；2.9 之前则在第一次 CUDA 调用时抛出 RuntimeError',
  'alloc.torchOldFirstCall':
    'PyTorch（2.9 之前）能够导入，然后在第一次 CUDA 调用时抛出 RuntimeError（{quoted}）；任务就此结束',
  'alloc.torchFirstCall': 'PyTorch 能够导入，然后第一次 CUDA 调用抛出 {type}: {error} —— 任务就此结束（退出码 1）',
  'alloc.cpuFallback':
    'CUDA 插件初始化失败（"Jax plugin configuration error"），JAX 退回到 CPU：任务不用 GPU 运行，退出码为 0',
  'alloc.jaxBoth':
    'JAX 会在 CPU 上运行：XLA_CLIENT_MEM_FRACTION 和 XLA_PYTHON_CLIENT_MEM_FRACTION 同时设置了，JAX 不接受',
  'alloc.jaxBothQ':
    'ValueError "XLA_CLIENT_MEM_FRACTION is specified together with XLA_PYTHON_CLIENT_MEM_FRACTION"：{fallback}',
  'alloc.jaxBothFix': '只保留其中一个（XLA_PYTHON_CLIENT_MEM_FRACTION 是旧名称）。',
  'alloc.jaxNaN': 'JAX 会在 CPU 而不是 GPU 上运行：{name}="{value}" 不是数字',
  'alloc.jaxNaNQ': "ValueError: could not convert string to float: '{value}' —— {fallback}",
  'alloc.jaxNaNFix': '用小数给出 JAX 预分配的显存比例（0.5 为一半），或取消设置（默认 75%）。',
  'alloc.jaxOver':
    '{name}={value} 要求 JAX 预分配超过整个 GPU 的显存：预分配会失败并逐步减小直到放得下，然后任务占着几乎整个 GPU 运行',
  'alloc.jaxNotFraction': '{name}={value} 不是 0 到 1 之间的比例：不知道 JAX 会怎么处理',
  'alloc.jaxOverQ':
    'JAX 对尝试的每个大小都记录 "Failed to allocate device memory … RESOURCE_EXHAUSTED"，然后运行，占着几乎全部显存（不给其他进程留任何空间）',
  'alloc.jaxZeroQ': 'JAX 接受这个数；分配器得到的上限为零或负数',
  'alloc.jaxFractionFix': '用小数给出 JAX 预分配的显存比例（0.5 为一半）。',
  'alloc.jaxPrealloc': 'XLA_PYTHON_CLIENT_PREALLOCATE="{value}" 不会关闭预分配：JAX 只有在 false、False 或 0 时才关闭',
  'alloc.jaxPreallocQ':
    'JAX 在第一次运算时预先占用 75% 的显存（或 XLA_PYTHON_CLIENT_MEM_FRACTION 指定的比例），就像没有设置这个变量一样',
  'alloc.jaxPreallocFix': '用 false 阻止 JAX 在第一次运算时预先占用 75% 的显存。',
  'alloc.jaxAllocator':
    'JAX 会在 CPU 而不是 GPU 上运行：XLA_PYTHON_CLIENT_ALLOCATOR="{value}" 不是 default、platform、bfc、cuda_async 之一',
  'alloc.jaxAllocatorQ': 'ValueError "XLA_PYTHON_CLIENT_ALLOCATOR env var must be …"：{fallback}',
  'alloc.jaxAllocatorFix': '取消设置，或使用 platform（按需分配，慢但省显存）。',
  'alloc.tfGrowth':
    'TF_FORCE_GPU_ALLOW_GROWTH="{value}" 被忽略：TensorFlow 只认 "true" 或 "false"（小写），因此它在启动时会占用几乎全部显存',
  'alloc.tfGrowthQ':
    'TensorFlow 记录 "The TF_FORCE_GPU_ALLOW_GROWTH environment variable is set but could not be parsed: ' +
    '\\"{value}\\". Valid values are \\"true\\" or \\"false\\""，并保持 allow_growth 关闭：它会占用几乎全部显存，GPU 上的第二个进程会失败',
  'allocators.tfFix': '使用 TensorFlow 能识别的小写值。',
  'allocators.tfAlloc': 'TF_GPU_ALLOCATOR="{value}" 不是 TensorFlow 认识的分配器（cuda_malloc_async）',
  'allocators.tfAllocFix': '取消设置，或设为 cuda_malloc_async。',
  'allocators.breaks': '"{token}" 破坏了 key:value,key:value 的结构',
  'allocators.unknownKey': '"{key}" 不是 PyTorch 认识的选项',
  'allocators.badValue': '{key} 的值 PyTorch 不接受',
  'allocators.abortsImport': 'PyTorch 在 import 时中止',
  'allocators.failsFirstCall': 'PyTorch 在第一次 CUDA 调用时失败',
  'allocators.torchMessage': '{when}：{name} —— {what}',
  'allocators.torchFix': '选项是用逗号分隔的 key:value 对，名称和取值见 PyTorch 文档（True/False 首字母大写）。',
  'allocators.torchFixImport':
    '选项是用逗号分隔的 key:value 对，名称和取值见 PyTorch 文档（True/False 首字母大写）。在改正之前，任何导入 torch 的程序都无法运行。',
  'allocators.both':
    'PYTORCH_ALLOC_CONF 和 PYTORCH_CUDA_ALLOC_CONF 都设置了，且值不同：较新的 PyTorch 读取 PYTORCH_ALLOC_CONF，忽略另一个',
  'allocators.bothFix': '只保留其中一个。',
  'allocators.tfGrows': 'TensorFlow 按需分配显存',
  'allocators.jaxNoPrealloc': 'JAX 不预分配',
  'allocators.jaxFraction': 'JAX 预分配 {pct}%',
  'allocators.torchConf': 'PyTorch 分配器：{conf}',

  // env.visible-devices, env.debug
  'cvd.hidesAll': 'CUDA_VISIBLE_DEVICES="{value}" 隐藏了所有 GPU',
  'cvd.noSuchNone': 'CUDA_VISIBLE_DEVICES 中的 "{entry}" 不对应本机的任何 GPU：看不到任何 GPU',
  'cvd.noSuch': 'CUDA_VISIBLE_DEVICES 中的 "{entry}" 不对应本机的任何 GPU；CUDA 会忽略它以及它之后的所有条目',
  'cvd.nvd': 'NVIDIA_VISIBLE_DEVICES="{value}"：容器运行时不会把任何 GPU 挂载进从这里启动的容器',
  'cvd.nvdFix':
    '对需要 GPU 的容器设置 NVIDIA_VISIBLE_DEVICES=all（或 GPU 的序号/UUID），或使用 docker run --gpus all。',
  'cvd.gpusHere': '本机的 GPU：{list}',
  'cvd.none': '无',
  'cvd.fix': '使用序号 0-{max}，或 nvidia-smi -L 打印的 UUID。',
  'cvd.fixEmpty': '使用序号 0-{max}，或 nvidia-smi -L 打印的 UUID，或取消设置该变量以看到所有 GPU。',
  'cvd.mapping': '它的 GPU {i} = 物理 GPU {p}（{name}）',
  'cvd.sees': '这里的任务看到的是：{mapping}',
  'cvd.seesDetails': '框架从 0 开始给可见的 GPU 编号；nvidia-smi 给物理 GPU 编号。',
  'cvd.mixed':
    'GPU 型号混用，且 CUDA_DEVICE_ORDER 不是 PCI_BUS_ID：CUDA 按最快优先给 GPU 编号，因此序号 N 不是 nvidia-smi 的 GPU N',
  'cvd.mixedFix': '让 CUDA 按 nvidia-smi 的方式给 GPU 编号。',
  'cvd.mig':
    'CUDA_VISIBLE_DEVICES 指定了 GPU {gpu} 上的 MIG 设备 {entry}（{profile}，GPU 实例 {gi}，计算实例 {ci}）：作业能用的是 {total} MiB 中空闲的 ' +
    '{free} MiB',
  'cvd.migUnchecked':
    'CUDA_VISIBLE_DEVICES 指定了 MIG 设备 {entry}：本机开启了 MIG，但没有读到 MIG UUID（nvidia-smi -L），未核对',
  'cvd.migDetails': '拿到 MIG 设备的作业把该实例当作自己的 GPU 0，只有该实例的显存和 SM，而不是整块 GPU 的。',
  'cvd.migOne': 'CUDA_VISIBLE_DEVICES 指定了多个 MIG 设备：作业只用 {first}；{rest} 它看不到',
  'cvd.migOneConsequence': '一个 CUDA 进程只枚举一个 MIG 设备：其余的对这个作业闲置',
  'cvd.migOneFix': '每个 MIG 设备启动一个进程，各自设置 CUDA_VISIBLE_DEVICES。',
  'debug.blocking': 'CUDA_LAUNCH_BLOCKING=1 让每次核函数启动都变成同步：便于定位出错的行，但训练会慢很多',
  'debug.blockingFix': '定位到错误后取消设置。',
  'debug.ptxJit': 'CUDA_FORCE_PTX_JIT=1 忽略已编译的 GPU 代码，改为即时编译 PTX：启动慢，构建中没有 PTX 时会失败',
  'debug.unset': '取消设置。',
  'debug.cacheDisable': 'CUDA_CACHE_DISABLE=1 让每次启动都重新编译 PTX',
  'debug.eager': 'CUDA_MODULE_LOADING=EAGER 在启动时加载所有核函数：比默认的 LAZY 占用更多显存，启动也更慢',
  'debug.eagerFix': '取消设置（从 CUDA 12.2 起默认为 LAZY）。',

  // libs.missing, libs.cudnn-sublibrary-mismatch, libs.compat-libcuda, libs.ld-library-path-shadowing
  'missing.cannotLoad': '{consumer}：{lib} 无法加载（{error}）',
  'missing.cannotLoadBy': '{consumer}：{lib} 无法加载（{error}）（{by} 需要它）',
  'missing.notFound': '{consumer}：找不到 {lib}',
  'missing.notFoundBy': '{consumer}：找不到 {lib}（{by} 需要它）',
  'missing.searched': '{lib}：已搜索 RPATH、LD_LIBRARY_PATH、RUNPATH、ld 缓存和默认文件夹',
  'missing.searchedNone': '{lib}：已搜索',
  'missing.elsewhere': '在 {path} 有一份副本，但不在搜索路径上',
  'missing.driverFix': 'NVIDIA 驱动库没有安装或不可见（在容器中：使用 NVIDIA 运行时启动，--gpus all）。',
  'missing.elsewhereFix': '把已有副本所在的文件夹加入 LD_LIBRARY_PATH，或在框架的环境中安装提供 {lib} 的包。',
  'missing.installFix':
    "安装提供 {lib} 的包（pip 安装的框架：对应的 nvidia-* wheel 包，例如 pip install 'torch[cuda]' 会把它们一起装上）。",
  'sublib.mixed': '{consumer} 从 {dir} 加载 libcudnn {version}，而它的子库 {subs} 来自 {dirs}',
  'sublib.mixedLlp': '{consumer} 从 {dir} 加载 libcudnn {version}，而它的子库 {subs} 来自 {dirs}（LD_LIBRARY_PATH）',
  'sublib.llpFix': 'libcudnn 加载子库时，LD_LIBRARY_PATH 会在它自己的文件夹之前被搜索；请从中去掉 {dirs}。',
  'sublib.ownFix': '让子库从 libcudnn 自己的文件夹（{dir}）解析。',
  'sublib.process': '进程 {pid} 同时加载了 libcudnn {version} 和 {subs}',
  'sublib.processFix': '在所有 libcudnn* 文件都来自同一个文件夹的环境中重启该进程（搜索顺序见 gpu-env-doctor libs）。',
  'compatcuda.unknown': '正在使用前向兼容的 libcuda（{path}），但内核驱动版本未知',
  'compatcuda.unknownOwn': '正在使用前向兼容的 libcuda（{path}），但它的版本未知',
  'compatcuda.copy': '{path}：libcuda {version}（前向兼容包）',
  'compatcuda.kernel': '内核驱动 {version}',
  'compatcuda.usedBy': '使用者：{who}',
  'compatcuda.older':
    '前向兼容的 libcuda {version} 比内核驱动 {kernel} 旧：CUDA 会报错 803（system has unsupported display driver / cuda driver ' +
    'combination）',
  'compatcuda.olderDetails': 'cuda-compat 库只有比内核驱动新时才有用；较旧的绝不能出现在搜索路径上。',
  'compatcuda.llpFix': '把 {dir} 从 LD_LIBRARY_PATH 中去掉，让驱动自己的 libcuda {kernel} 被加载。',
  'compatcuda.cacheFix':
    'compat 文件夹是通过 ld 缓存找到的：把它从 /etc/ld.so.conf.d 中删除并运行 ldconfig，或卸载 cuda-compat 包。',
  'compatcuda.ok': '正在使用前向兼容：libcuda {version} 运行在内核驱动 {kernel} 之上（仅数据中心 GPU 支持）',
  'llpshadow.older':
    '{lib} {version} 比 {consumer} 自带的 {own} 旧：可能缺少构建所调用的函数（在加载时或首次使用时报错），也可能正常工作',
  'llpshadow.instead': '{lib} {version}，而不是它自带的 {own}',
  'llpshadow.message': 'LD_LIBRARY_PATH 使 {consumer} 加载 {what}',
  'llpshadow.fix': '把 {dirs} 从 LD_LIBRARY_PATH 中去掉（用 pip 安装的框架自带 CUDA 动态库，不需要它也能找到）。',

  // python.conda-pip-mix, python.cpu-only-build, python.duplicate-dist-info, python.nvidia-wheel-conflict,
  // python.import-failed
  'condapip.message': '{env} 中的 {names} 同时来自 conda 和 pip',
  'condapip.detail': '{lib}：conda {conda} / pip {pip}',
  'condapip.conda': '{name} {version}',
  'condapip.condaBuild': '{name} {version}，构建 {build}',
  'condapip.condaChannel': '{name} {version}，来自 {channel}',
  'condapip.condaBuildChannel': '{name} {version}，构建 {build}，来自 {channel}',
  'condapip.pip': '{name} {version}，由 {installer} 安装',
  'condapip.unknownInstaller': '未知的安装程序',
  'condapip.fix':
    '让这个环境的 CUDA 动态库只由一个包管理器负责。最干净的做法是新建一个只用一种方式安装的环境（全用 conda：pytorch/tensorflow + cudnn 来自同一个 channel；或全用 pip：框架的 ' +
    'wheel 包自带 nvidia-* 库）。就地修复：删掉其中一方，再用另一方重装框架。先查看框架实际加载的是哪一份：gpu-env-doctor libs。',
  'cpuonly.rocm': 'ROCm（AMD）构建（{hip}）',
  'cpuonly.cpu': '仅 CPU 构建',
  'cpuonly.torchRow':
    '从 PyTorch 的 CUDA wheel 索引重装（{tag}：这个驱动（CUDA {cuda}）能运行的最新 CUDA 版本）。torchvision 和 torchaudio 必须来自同一个索引。',
  'cpuonly.torch':
    '重装带 CUDA 的 PyTorch 构建（在 https://pytorch.org/get-started/locally/ 选择驱动支持的 CUDA 版本）。',
  'cpuonly.tf': '安装带 CUDA 动态库的 TensorFlow（Linux）：[and-cuda] 这个 extra 会带来匹配的 nvidia-* wheel 包。',
  'cpuonly.tfCpu':
    '安装带 CUDA 动态库的 TensorFlow（Linux）：[and-cuda] 这个 extra 会带来匹配的 nvidia-* wheel 包。必须先卸载 tensorflow-cpu：两个包提供的是同一个模块。',
  'cpuonly.jaxRow': '安装 JAX 的 CUDA 插件（{tag}，对应这个驱动的 CUDA {cuda}）；它必须与 jaxlib 版本相同。',
  'cpuonly.jax': '安装带 CUDA 插件的 JAX：pip install -U "jax[cuda12]"（驱动支持 CUDA 13 时用 cuda13）。',
  'cpuonly.message': '{env} 中的 {fw} {version} 是{what}：它不会使用 NVIDIA GPU',
  'cpuonly.jaxEvidence': 'jaxlib {version}，没有 jax-cuda*-plugin 包',
  'cpuonly.jaxEvidenceHip': 'jaxlib {version}，没有 jax-cuda*-plugin 包（已安装 {hip}）',
  'dupdist.message': '{name} 在 {env} 中安装了 {n} 次（{versions}）',
  'dupdist.messageFolders': '{name} 在 {env} 中安装了 {n} 次（{versions}），位于不同的 site-packages 文件夹',
  'dupdist.noVersion': '（名称中没有版本）',
  'dupdist.fix': '重装一次，只保留一个元数据文件夹和一套文件。如果 pip 拒绝，手动删除过时的文件夹后重装。',
  'dupdist.fixKeep':
    '重装一次，只保留一个元数据文件夹和一套文件（这里是 {keep}；选择你需要的版本）。如果 pip 拒绝，手动删除过时的文件夹后重装。',
  'pin.requires': '{by} {byVersion} 要求 {name}{spec}',
  'pin.requiresExtra': '{by} {byVersion} 要求 {name}{spec}（extra [{extra}]）',
  'pin.installed': '已安装 {name} {version}',
  'pin.notInstalled': '没有安装 {name}',
  'pin.missing': '{pin}，但 {env} 中没有安装',
  'pin.missingFix': '安装被锁定的 wheel 包（pip 跳过了它，或它被卸载了）；没有它，{by} 会加载系统中随便哪一份。',
  'pin.conflict': '{broken} 和 {met} 锁定的 {name} 版本互不兼容：已安装 {installed}，需要 {needed}',
  'pin.wrong': '{pin}，但 {env} 中安装的是 {installed}',
  'pin.conflictFix':
    '一个环境无法同时满足两个锁定。给每个框架各自的环境（venv 或 conda 环境），各自安装自己的 CUDA wheel 包；或者选择在 {name} 上一致的框架版本（查看各自的 Requires-Dist）。',
  'pin.wrongFix': '安装 {by} 构建时所针对的版本（pip 后来装了另一个版本，或使用了 --no-deps）。',
  'import.noOutput': '没有输出',
  'import.stderrOf': '{fw} 探测的 stderr',
  'import.hung': '{env} 中的 {name}：import 卡住了（{detail}）',
  'import.crashed': '{env} 中的 {name}：import 崩溃了（{detail}）',
  'import.fails': '{env} 中的 {name} 无法导入：{error}',
  'import.fix':
    '把报错粘贴给 gpu-env-doctor explain 来排列原因。缺少或不匹配的库，通常在这个环境中用 CUDA wheel 包重装框架即可解决。',

  // python.deep-conv
  'deep.noGpu': '{env} 中的 {name} 看不到 GPU（{reason}），尽管本机有 GPU',
  'deep.noGpuFix':
    '请看 gpu.* 和 env.* 的检查结果（CUDA_VISIBLE_DEVICES、容器的 GPU 访问）。上面框架 stderr 的末尾通常会说明原因。',
  'deep.factRaised': '{name}：卷积在 {env} 中运行成功，但 {call} 抛出了 {type}: {message}',
  'deep.factCudnnFix': '查看框架加载的是哪个 cuDNN、构建时针对的是哪个（gpu-env-doctor libs）。',
  'deep.factFix': '在你的环境中运行同样的调用以查看完整报错：python -c "import {fw}; …"。',
  'deep.pass': '{name}：GPU 上的卷积在 {env} 中运行成功',
  'deep.passCudnn': '{name}：GPU 上的卷积在 {env} 中运行成功，cuDNN {cudnn}',
  'deep.passTime': '{name}：GPU 上的卷积在 {env} 中运行成功（{seconds} 秒）',
  'deep.passCudnnTime': '{name}：GPU 上的卷积在 {env} 中运行成功，cuDNN {cudnn}（{seconds} 秒）',
  'deep.prealloc': '{name}：按当前配置卷积失败，改用 {growth} 后运行成功：问题在显存，不在 cuDNN',
  'deep.preallocCrowded':
    '{name}：按当前配置卷积失败，改用 {growth} 后运行成功：问题在显存，不在 cuDNN —— {lowFree}；{held}',
  'deep.asConfigured': '按当前配置：{error}',
  'deep.memory': '{name}：卷积拿不到显存（{signature}）：问题不在 cuDNN，而是显存被占用了',
  'deep.memoryAlso': '{name}：卷积拿不到显存（{signature}），改用 {growth} 也一样：问题不在 cuDNN，而是显存被占用了',
  'deep.memoryLow': '{name}：卷积拿不到显存（{signature}）：问题不在 cuDNN，而是显存被占用了 —— {lowFree}',
  'deep.memoryAlsoLow':
    '{name}：卷积拿不到显存（{signature}），改用 {growth} 也一样：问题不在 cuDNN，而是显存被占用了 —— {lowFree}',
  'deep.memoryHeldFix':
    '显存被其他进程占用。结束你自己的残留进程（gpu-env-doctor procs 会指出是哪些），或换一个有空间的 GPU。',
  'deep.memorySelfFix':
    '没有其他东西占用显存；是框架本身拿不到足够的显存。请看 memory.* 的检查结果，然后减少任务的占用（batch size）或框架的预留。',
  'deep.cudnn': '{name}：cuDNN 失败（{signature}），且没有报告显存不足：是 cuDNN 坏了，而不是显存不够',
  'deep.cudnnAlso':
    '{name}：cuDNN 失败（{signature}），改用 {growth} 也一样，且没有报告显存不足：是 cuDNN 坏了，而不是显存不够',
  'deep.cudnnFix':
    '查看框架加载的是哪个 cuDNN、构建时针对的是哪个（gpu-env-doctor libs），然后去掉遮蔽正确版本的那一份（通常是 LD_LIBRARY_PATH 中的某一项，或与 pip 版本并存的 conda ' +
    'cuDNN）。',
  'deep.other': '{name}：卷积在 {env} 中失败：{error}',
  'deep.otherFix': '把完整报错交给 gpu-env-doctor explain；它会排列原因。',
  'deep.growthTf':
    'TensorFlow 启动时会占用几乎全部显存；开启按需分配后只占用需要的部分。在 TensorFlow 启动前设置（或在任何运算之前调用 ' +
    'tf.config.experimental.set_memory_growth(gpu, True)）。',
  'deep.growthJax':
    'JAX 在第一次运算时预分配 75% 的显存；关闭预分配后只占用需要的部分（或降低 XLA_PYTHON_CLIENT_MEM_FRACTION）。',
  'deep.growthHeld': '其他进程也占用着显存：见 gpu-env-doctor procs。',
  'deep.growthTorch':
    '释放缓存显存并关闭 cuDNN benchmark 后卷积运行成功：任务已接近显存上限。保持 torch.backends.cudnn.benchmark 关闭，在阶段之间释放缓存显存，或在 GPU 上腾出空间。',
  'deep.holds': 'PID {pid} {name} 在 GPU {gpus} 上占用 {mib}',
  'deep.lowFree': 'GPU {gpu} 仅剩 {free} 空闲（总量 {total}）',

  // what frameworks do with mixed or replaced cuDNN (src/judge/checks/libraries/cudnn-mix.ts)
  'mix.cudnnAccepts': 'cuDNN 本身接受这种混用：{what}',
  'mix.cudnnMayRefuse':
    'cuDNN 自己的检查可能会以 CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH 拒绝第一次卷积（libcudnn {main} 配子库 {others}），也可能正常运行',
  'mix.torchRan': 'PyTorch 的卷积在这种混用下能运行（在 torch {version} 上见过：conv2d 运行成功）',
  'mix.torchNoCheck': 'PyTorch 的卷积本身不检查版本；{inner}',
  'mix.torchRaises':
    '第一次调用 torch.backends.cudnn.version() 或 is_acceptable()（你的代码、torch.nn 的 LSTM/GRU、torch.utils.collect_env）会抛出 ' +
    'RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against {built} but found runtime version ' +
    '{reported}；之后的调用会通过（torch 缓存了版本）',
  'mix.torchPasses': 'PyTorch 的版本检查能通过（构建时用 {built}，cuDNN 报告 {reported}）',
  'mix.tfRefuses':
    'TensorFlow 启动时拒绝 cuDNN："Loaded runtime CuDNN library: {loaded} but source was compiled with: {built}"',
  'mix.tfCompares': 'TensorFlow 会比较它加载的 cuDNN（{reported}）与构建所用的版本；小版本更旧或主版本不同都会被拒绝',
  'mix.tfComparesBuilt':
    'TensorFlow 会比较它加载的 cuDNN（{reported}）与构建所用的版本（{built}）；小版本更旧或主版本不同都会被拒绝',
  'mix.jaxRan': 'JAX 的卷积在这种混用下能运行（在 JAX {version} 上见过：libcudnn {libcudnn} 配 {subs} 子库）',
  'mix.jaxNoCheck': 'JAX 本身不比较子库版本；{inner}',
  'mix.torchRefuses':
    'PyTorch 在它的 cuDNN 版本检查处拒绝："cuDNN version incompatibility: PyTorch was compiled against {own} but found runtime ' +
    'version {loaded}"',
  'mix.torchAccepts': 'PyTorch 的版本检查接受 {loaded}（构建时用 {own}）；更新的 cuDNN 通常能用',
  'mix.tfAccepts': 'TensorFlow 接受主版本相同、小版本更新的 cuDNN（{loaded}，构建时为 {own}）',
  'mix.jaxAccepts':
    'JAX 接受不低于其构建最低要求的任何 cuDNN；{loaded} 是否满足，文件中看不出来（不满足时 JAX 会打印 "Outdated cuDNN installation found"）',
  'mix.thisOne': '这一个',

  // libs.cudnn-smoke (src/judge/checks/libraries/cudnn-smoke.ts)
  'title.libs.cudnn-smoke': 'cuDNN 能在每个 GPU 上运行卷积（--deep）',
  'smoke.applies': '运行 check --deep，加载 cuDNN 并在每个 GPU 上运行一次卷积',
  'smoke.nothing': '没有可测试的内容',
  'smoke.announce': '--all-envs --deep：将启动 {starting}；不启动：{refused}',
  'smoke.announceDeep': '--all-envs --deep=frameworks：将用 {starting} 导入各框架；不启动：{refused}',
  'smoke.announceNone': '无',
  'smoke.notRun': '未对 {env} 运行：{why}',
  'smoke.noStart': 'cuDNN 冒烟测试无法启动：{detail}',
  'smoke.crashed': '加载 {who} 的 CUDA 动态库导致进程崩溃（{detail}）',
  'smoke.killed': '被信号结束',
  'smoke.noReport': 'cuDNN 冒烟测试没有给出结果（{detail}）',
  'smoke.noOutput': '没有输出',
  'smoke.noLoad': '{who} 的 CUDA 动态库无法加载：{error}',
  'smoke.noLoadFix': '查看每个库选中的是哪一份，以及原因。',
  'smoke.noGpu': 'cuDNN 冒烟测试没有报告任何 GPU（{detail}）',
  'smoke.visible': '可见 {n} 个',
  'smoke.stopped': 'cuDNN 冒烟测试在 {where} 上中止：{crash}',
  'smoke.ran': 'cuDNN 用 {who} 的文件在 {where} 上运行了一次卷积（{time}）',
  'smoke.ranVersion': 'cuDNN {version} 用 {who} 的文件在 {where} 上运行了一次卷积（{time}）',
  'smoke.workspace':
    'cuDNN 在 {where} 上能工作，但创建 CUDA 上下文后只剩 {free} 空闲，拿不到尝试所有算法的卷积所需的 {need}（TensorFlow 和 JAX 的自动调优、' +
    'torch.backends.cudnn.benchmark）；用最小的工作空间（{ws}）时运行成功',
  'smoke.workspaceDetails':
    '不做自动调优的任务（PyTorch 默认用启发式选一个算法）也许仍能启动；做自动调优的会以 "Failed to get convolution algorithm" 或 CUDNN_STATUS_ALLOC_FAILED ' +
    '/ NOT_INITIALIZED 失败。',
  'smoke.tiny': 'cuDNN 在 {where} 上连一个很小的卷积都运行不了：创建 CUDA 上下文后只剩 {free} 空闲（{error}）',
  'smoke.mixed': 'cuDNN 报告的版本是 {reported}，而 libcudnn 是 {main}：它的子库来自 {dirs}',
  'smoke.anotherCopy': '另一份副本',
  'smoke.mixedDetails':
    'cuDNN 9 报告的是它实际运行的子库的版本。把它与构建时所用版本比较的框架会拒绝继续（PyTorch 在 torch.backends.cudnn.version() 处抛出 "cuDNN version ' +
    'incompatibility"；PyTorch 2.11 在系统 cuDNN 排在 LD_LIBRARY_PATH 最前面时就是这样）。',
  'smoke.overruled': '{label} 自己的卷积运行成功（--deep=frameworks），以它的结果为准；原生测试的结果是：{message}',
  'smoke.heldFix':
    '这个 GPU 上的显存被其他进程占用（{held}）：释放它（gpu-env-doctor procs 会指出哪些是残留进程）、等它结束，或换一个 GPU。',
  'smoke.freeFix': '在任务启动前释放显存，或给任务换一个 GPU（CUDA_VISIBLE_DEVICES）。',
  'smoke.freeOrOther': '释放显存，或换一个 GPU。',
  'smoke.driverFix':
    '加载的 libcuda 与内核驱动不匹配：查看加载的是哪一份以及原因（通常是 LD_LIBRARY_PATH 上的 cuda-compat 文件夹），或更新驱动。',
  'smoke.conflictFix': '查看每个库加载的是哪一份以及原因，让所有 cuDNN 文件都来自同一份。',
  'smoke.visibleFix': '检查 CUDA_VISIBLE_DEVICES 和容器的 GPU 访问权限。',
  'smoke.frameworksFix': '运行框架自己的卷积，看看框架的结果。',

  // compat's proposals and fixes (src/judge/compat/fixes.ts), versions.* fallbacks
  'cfix.torch':
    'torch {version}+{variant}（CUDA {cuda}，cuDNN {cudnn}）是能在驱动 {driver}{ccs, select, none {} other {、计算能力 ' +
    '{ccs}}}{python, select, none {} other {、Python {python}}} 上运行的最新 PyTorch 构建。torchvision/torchaudio 请从同一个索引安装，以' +
    '保持匹配。',
  'cfix.tf':
    'TensorFlow {series}（用 CUDA {cuda}、cuDNN {cudnn} 测试）是能在驱动 {driver}{python, select, none {} other {、Python ' +
    '{python}}} 上运行的最新版本{andCuda, select, yes {；[and-cuda] 会以 pip 包的形式安装它的 CUDA 和 cuDNN} other {；它需要另外安装 CUDA 和 ' +
    'cuDNN（conda 命令会把两者锁定到环境中）}}。',
  'cfix.jax':
    'jax {version} 配 CUDA {major} {kind, select, plugin {插件} other {wheel 包}}，是能在驱动 {driver}{python, select, none {} ' +
    'other {、Python {python}}} 上运行的最新 JAX。',
  'cfix.paddle':
    'paddlepaddle-gpu {pip}（CUDA {cuda}{cudnn, select, none {} other {，cuDNN {cudnn}}}）是能在驱动 {driver}{ccs, select, ' +
    'none {} other {、计算能力 {ccs}}}{python, select, none {} other {、Python {python}}} 上运行的最新 PaddlePaddle 构' +
    '建{bundles, select, yes {；它以 pip 包的形式自带 CUDA 和 cuDNN} other {；它需要本机有 CUDA {cuda} 和 cuDNN {cudnnRaw}（Paddle 2.x ' +
    '不自带）}}。',
  'cfix.upgrade': '或者把 NVIDIA 驱动升级到 {min} 或更新版本，然后重启。',
  'cfix.upgradeFull':
    '或者把 NVIDIA 驱动升级到 {min} 或更新版本（{full}+ 是 CUDA {cuda} 的完整驱动，PTX 即时编译需要它），然后重启。',
  'cfix.upgradeJit': '或者把 NVIDIA 驱动升级到 {min} 或更新版本（CUDA {cuda} 的驱动：PTX 即时编译需要它），然后重启。',
  'cfix.windowsDriver': '从 nvidia.com 安装 NVIDIA 驱动 {min} 或更新版本，然后重启',
  'cfix.cudnnMin':
    '在这个环境中安装针对 CUDA {cuda} 构建、版本不低于 {min} 的 cuDNN {major}，并且不要让 LD_LIBRARY_PATH 把另一个 libcudnn 排在前面。',
  'cfix.cudnnBuilt':
    '让 {fw} 加载它构建时所用的 cuDNN（{built}）：在这个环境中安装 CUDA {cuda} 版本的它，并且不要让 LD_LIBRARY_PATH / LD_PRELOAD 把另一个 libcudnn 排在前面。',
  'vfix.cudnnArch': '使用仍然支持这个 GPU 的 cuDNN 版本。',
  'vfix.cudnnBuilt': '安装框架构建时所用的 cuDNN。',
  'vfix.noArch': 'gpu-env-doctor 的数据中，这个框架没有任何构建含有此 GPU 的代码。',
  'vfix.driver': '把 NVIDIA 驱动升级到 {version} 或更新版本。',
  'vfix.python': '使用 {fw} {version} 支持的 Python 版本（{required}）。',

  // explain: reasons from the machine's facts, the setting and Xid errors
  'why.m.holder': '现在：PID {pid}（{name}，用户 {user}）在 GPU {gpus} 上占用 {mib}：{reason}',
  'why.m.holderFw': '现在：PID {pid}（{fw}，{name}，用户 {user}）在 GPU {gpus} 上占用 {mib}：{reason}',
  'why.m.holderPolicy': '现在：PID {pid}（{name}，用户 {user}）在 GPU {gpus} 上占用 {mib}：{reason}；{policy}',
  'why.m.holderFwPolicy': '现在：PID {pid}（{fw}，{name}，用户 {user}）在 GPU {gpus} 上占用 {mib}：{reason}；{policy}',
  'why.m.job': '{self} + {requested}',
  'why.m.jobOthers': '{self} + {requested} + 其他进程占用的 {others}',
  'why.m.inProcess': '本机上 PID {pid} 同时加载了 PyTorch 和 {fw}：{fw} 在同一进程中预留了它的显存池',
  'why.m.poolsCompete':
    '现在：PID {pid}（{fw}）在 GPU {gpus} 上以预分配的显存池占用 {mib}（{policy}）；本任务自己的显存池随后拿不到' +
    '它最初要的大小：两个预分配的显存池在争同一块 GPU',
  'why.m.poolNotStray': 'PID {pid} 占用的是预分配的显存池，而不是遗留的显存：原因是预分配',
  'why.m.inJob':
    '失败时，本任务的进程 PID {pid} 同时加载了 {fws}，占用 {mib}（共 {total}），而 {failing} 自己几乎一点也没分到：' +
    '显存在同一进程中被 {other} 的显存池占着',
  'why.m.notOtherProcess': '显存被本任务自己的进程（PID {pid}）占着，而不是被其他进程占着',
  'why.m.jobHoldsIt': '失败时没有其他进程占用超过一个 CUDA 上下文的显存；本任务自己的进程占用了 {mib}（共 {total}）',
  'why.m.tooLarge': '请求的大小（{requested}）超过了这台机器上每一块 GPU 的全部显存（{total}）',
  'why.m.fits': '如果没有 {who}，本任务（{job}）放得进 {total}',
  'why.m.notFits': '即使没有 {who}，本任务（{job}）也放不进 {total}',
  'why.m.fitsLog': '如果没有 {who}，本任务（{job}）放得进 GPU 的 {total}（日志所写的总量）',
  'why.m.notFitsLog': '即使没有 {who}，本任务（{job}）也放不进 GPU 的 {total}（日志所写的总量）',
  'why.m.noneNow': '现在没有其他进程占用显存（总共只用了 {mib}）',
  'why.m.memNow': '现在的显存：{list}',
  'why.m.memGpu': 'GPU {gpu} 已用 {used}，总量 {total}',
  'why.m.driverOld': '驱动 {driver} 最高支持 CUDA {cuda}；框架构建需要 CUDA {need}',
  'why.m.driverEnough': '驱动 {driver} 支持 CUDA {cuda}，足够 {need} 使用',
  'why.m.driverNote': '驱动 {driver}，最高 CUDA {cuda}，{n} 个 GPU',
  'why.m.arch': 'GPU {gpu}（{name}）是 {sm}；构建中只有 {archs}',
  'why.m.cvd': 'CUDA_VISIBLE_DEVICES="{cvd}"，但本机只有 {n} 个 GPU（序号 0-{max}）',
  'why.m.smiNote': 'nvidia-smi：{reason}：{message}',
  'why.m.smiReports': '现在：nvidia-smi 报告 {message}',
  'why.m.now': '现在：{message}',
  'why.s.image':
    '在 {name} 上，CUDA 和 cuDNN 库随运行时镜像提供：那里的 cuDNN 故障通常意味着框架版本与镜像的 cuDNN 不符（由 notebook 安装或锁定，或是镜像更新后遗留的）',
  'why.s.session': '{name} 会话独占它的 GPU',
  'why.s.jupyter':
    '任务运行在 Jupyter 内核中：每个内核在关闭或重启前一直占着它分配的显存，因此另一个打开的 notebook（或残留的内核）经常占着显存',
  'why.x.hard': 'Xid {xids}：NVIDIA 文档中列为硬件、显存（ECC）、NVLink、总线或固件故障的错误',
  'why.x.app': 'Xid {xids}：通常由应用自己的核函数引发（非法地址、MMU 故障）',
  'why.x.appAgainst': 'Xid {xids} 通常是应用错误',
  'why.fw.reserves': '除非另行设置，{fw} 启动时会预先占用大部分显存',

  // explain: reasons from versions (src/judge/explain/analyse/versions.ts)
  'why.v.lookFor': '框架要找的是 {lib}（CUDA {wanted}），但安装的是 CUDA {installed}：框架构建与工具包不匹配',
  'why.v.cudaInstalled': '装了 CUDA，只是不是 {wanted} 版本',
  'why.v.notComplete': 'CUDA {installed} 正是所要求的版本，却找不到 {lib}：没有装完整，或不在库搜索路径上',
  'why.v.tfWheels': 'TensorFlow 的 wheel 包会找它构建时所用的 CUDA 版本（{lib}）；找不到时，往往是装了另一个 CUDA 版本',
  'why.v.cudnnWanted': '需要 cuDNN {wanted}，但安装的是 cuDNN {installed}',
  'why.v.ortCudnn': 'onnxruntime-gpu {version} 的 CUDA {cuda} 构建链接的是 cuDNN {cudnn}，但所述的是 cuDNN {stated}',
  'why.v.ortCuda': 'onnxruntime-gpu {version} 的 CUDA {cuda} 构建需要 CUDA {cuda} 的库，但所述的是 CUDA {stated}',
  'why.v.ortRequires':
    'ONNX Runtime 的 CUDA 提供程序要求 {lib} {need}.*，但所述的是 {lib} {stated}：onnxruntime-gpu 的构建与已安装的版本不匹配',
  'why.v.symbol':
    '某个编译好的 Python 扩展引用了已安装框架中没有定义的 C++ 符号：这个扩展是针对框架的另一个版本构建的（请针对当前版本重新构建或重装该扩展）',
  'why.v.symbolOwn':
    '某个编译好的 Python 扩展引用了它自己的函数，但它编译出的文件中没有一个定义了它：构建时漏掉了某个源文件（请重新构建该扩展，如有 CUDA 源文件也一并构建）',
  'why.v.symbolOwnAgainst': '缺少的函数是扩展自己的，不是框架的',
  'why.v.symbolAgainst': '库是在的；只是其中某个符号与扩展构建时所针对的不同',
  'why.v.cudnnSymbol':
    '加载的 cuDNN 中没有二进制链接时用到的 {symbol}：它是针对另一个 cuDNN 版本构建的，与实际加载的版本不同',
  'why.v.jaxOldCudnn': 'JAX 认为过旧的组件是 {name}',
  'why.v.jaxTorchCudnn':
    'PyTorch 也在同一个程序里，并自带 cuDNN：一个进程只加载一个 libcudnn，先加载的那个生效（请先 import JAX，或让两者的 cuDNN 版本一致）',
  'why.v.jaxOldCuda': 'JAX 认为过旧的组件是 {name}，它属于 CUDA 工具包',
  'why.v.ldPathCudnn':
    'PyTorch 指出 LD_LIBRARY_PATH 中有 CUDA/cuDNN 目录（只有这时才会这样打印），而它自带 cuDNN {compiled}：加载的 {runtime} 来自 LD_LIBRARY_PATH，排' +
    '在了自带的那份之前',
  'why.v.olderCopy':
    '安装的是 cuDNN {stated}，加载的却是 {runtime}：另一份更旧的副本先被找到了（PATH/LD_LIBRARY_PATH、conda 环境、系统文件夹）',
  'why.v.paddleCudnn':
    'paddlepaddle-gpu {pip} 是针对 cuDNN {built} 构建的，而安装的是 cuDNN {stated}：Paddle 加载系统中的 cuDNN，主次版本不同正是 Paddle 自己会警告的不匹配',
  'why.v.paddle1xCudnn':
    'paddlepaddle-gpu {pip}（{series} 版本针对 CUDA {cuda} 的构建）要求 cuDNN {min} 或更新，' +
    '而安装的是 cuDNN {stated}：Paddle 加载系统中找到的 cuDNN',
  'why.v.paddleCuda':
    'paddlepaddle-gpu {pip} 是针对 CUDA {built} 构建的，而说明中的 CUDA 是 {stated}：Paddle 加载系统中找到的 CUDA 库',
  'why.v.insufficient': '在没有 GPU 访问权限的容器中，CUDA 运行时找不到驱动，会报告为 "insufficient"',
  'why.v.driverPtx': '驱动 {driver} 比 CUDA {cuda} 自带的 {need} 旧，因此无法即时编译该工具包的 PTX',
  'why.v.driverMin': '驱动 {driver} 比 CUDA {cuda} 要求的最低版本 {need} 旧',
  'why.v.driverEnough': '按所述版本，驱动 {driver} 对 CUDA {cuda} 来说足够新',
  'why.v.torchArch': 'PyTorch {version} 是针对 {archs} 构建的；{gpu} 是 {sm}，这些架构都不能在它上面运行',
  'why.v.torchArchOk': 'PyTorch {version} 含有能在 {sm} 上运行的代码',
  'why.v.tfCudnn':
    'TensorFlow {version} 构建时用的是 cuDNN {built}；cuDNN {cudnn} 不满足要求（需要主版本相同、小版本相同或更新）',
  'why.v.tfCudnnOk': 'cuDNN {cudnn} 适用于 TensorFlow {version}（构建时用 {built}）',
  'why.v.tfCuda': 'TensorFlow {version} 构建时用的是 CUDA {built}；安装的是 CUDA {cuda}',
  'why.v.tfCudaOk': 'CUDA {cuda} 正是 TensorFlow {version} 构建时所用的',
  'why.v.tfPredates':
    'TensorFlow {version} 构建时用的 CUDA {built} 早于 {gpu}（{sm}）：即使能运行，也只能靠又慢又不可靠的 PTX 即时编译',
  'why.v.compilerOlder':
    'CUDA {cuda} 能为 {sm} 编译，所以拒绝它的 {compiler} 不是 CUDA {cuda} 的：运行的是更旧的一个（PATH 中靠前的 nvcc、指向另一个工具包的 CUDA_HOME、加载了另一个 ' +
    'libnvrtc）',
  'why.v.compilerPredates':
    'CUDA {cuda} 早于 {sm}：它的 {compiler} 无法为这块 GPU 编译；需要更新的 CUDA（以及为它构建的框架版本）',
  'why.v.compilerDropped':
    'CUDA {cuda} 已不再面向 {sm}：它的 {compiler} 无法为这块 GPU 编译；需要更旧的 CUDA（以及为它构建的框架版本）',
  'why.v.buildCuda': '该构建使用 CUDA {cuda}，无法面向 {gpu}（{sm}）生成代码',
  'why.v.jaxlibMajors': 'jaxlib {version} 是针对 CUDA {majors} 构建的；安装的是 CUDA {cuda}',
  'why.v.jaxlibTag': '已安装的 jaxlib 是它的 CUDA {major} 构建；安装的是 CUDA {cuda}',
  'why.v.jaxlibMin': 'jaxlib {version}（{variant}）需要 CUDA {min} 或更新；安装的是 CUDA {cuda}',
  'why.v.jaxlibMinOk': 'CUDA {cuda} 满足 jaxlib {version} 的最低要求（{min}）',
  'why.v.jaxlibMinUnsure':
    'jaxlib {version}（{variant}）需要 CUDA {min} 或更新；"CUDA {cuda}" 看不出已安装的小版本是否达到',
  'why.v.jaxCudnn': 'jaxlib {version} 需要 cuDNN {need} 或同一主版本中更新的小版本；安装的是 cuDNN {cudnn}',
  'why.v.jaxCudnnOk': 'cuDNN {cudnn} 满足 jaxlib {version} 的最低要求（{need}）',

  // explain: PaddlePaddle's fixes (src/judge/explain/paddle.ts)
  'paddle.aCudaLib': '某个 CUDA 动态库',
  'paddle.yourBuild': '你的 paddlepaddle-gpu 构建',
  'paddle.k.loadingWindows':
    '在 Windows 上，Paddle 从 PATH 和 CUDA 的 bin 文件夹加载 cudnn64_<major>.dll（cuDNN 8.3+ 还需要那里有 zlibwapi.dll）。',
  'paddle.couldNotOpen': 'Paddle 无法打开 {lib}。',
  'paddle.couldNotOpen126':
    'Paddle 无法打开 {lib}（Windows 错误 126：这个 DLL 或它依赖的 DLL 不在 PATH 的任何文件夹中）。',
  'paddle.v2NoLibs':
    'Paddle 2.x 不自带 CUDA 动态库：它在第一次 GPU 调用时打开本机的 cuDNN、cuBLAS……，因此 {label} 需要它们已安装且在库搜索路径上。',
  'paddle.unversioned':
    'Paddle 打开的是不带版本号的 libcudnn.so：如果系统的 cuDNN 包只有带版本号的文件（libcudnn.so.<major>；-dev 包才会加上这个链接），也会同样失败。',
  'paddle.cudnnin':
    'Paddle 2.5 和 2.6 也有内置 cuDNN 的构建（paddlepaddle.org.cn 的 …/cudnnin/ 索引），而所有 3.x 的 wheel 包都把 cuDNN 作为 pip 依赖一起安装。',
  'paddle.cudnn':
    'Paddle 构建时用的是 cuDNN {built}{found, select, none {} other {，而在本机找到的是 {found}}}：比构建所用版本更旧（或主版本不同）的 cuDNN "may ' +
    'cause serious incompatible bug"，这是 Paddle 自己的原话。请安装 cuDNN {want} 并让它成为库搜索路径上的那一份，或安装针对你现有 cuDNN 构建的 ' +
    'paddlepaddle-gpu。',
  'paddle.seeWarning': '（见它的警告）',
  'paddle.orNewer': '{built} 或更新的 {major}.x',
  'paddle.ofBuild': '与构建相符的版本',
  'paddle.driver':
    'Paddle 构建时用的是 CUDA {compiled}{driverCuda, select, none {} other {，但驱动只支持 CUDA {driverCuda}（Paddle 所说的 "CUDA ' +
    'runtime version in your machine" 指的是驱动的版本）}}。请更新 NVIDIA 驱动{min, select, none {} other {到 {min} 或更新版本}}，或安装针对驱动' +
    '所支持 CUDA 的 paddlepaddle-gpu 构建{fits, select, none {} other {（{fits}）}}。',
  'paddle.cudaV2':
    '{label} 需要本机有 CUDA {cuda} 的动态库（Paddle 2.x 不自带）。请安装那个 CUDA（与其他版本并存即可，放在库搜索路径上），或安装针对你现有 CUDA 的 paddlepaddle-gpu 构' +
    '建：{builds}。',
  'paddle.versionOfBuild': '其构建所用的版本',
  'paddle.cuda':
    '{label} 需要其构建所用的 CUDA。请安装那个 CUDA（与其他版本并存即可，放在库搜索路径上），或安装针对你现有 CUDA 的 paddlepaddle-gpu 构建：{builds}。',
  'paddle.arch':
    '这个 paddlepaddle-gpu 构建不含此 GPU 的代码。Paddle 的安装文档把 GPU 代际与 CUDA 构建对应起来（Ampere，sm_80/sm_86：CUDA 11 构建；Hopper，sm_90：' +
    'CUDA 12）：请安装用支持这个 GPU 的 CUDA 构建的版本{newest, select, none {} other {，例如 {newest}}}。',
  'paddle.prealloc':
    'Paddle 的 pip 包默认按需分配（FLAGS_allocator_strategy=auto_growth）；使用 naive_best_fit 或较大的 ' +
    'FLAGS_fraction_of_gpu_memory_to_use 时，Paddle 启动就会占用 GPU 的大部分显存，不给其他进程或 cuDNN 留空间。请使用 auto_growth。',
  'paddle.oom':
    '把任务变小：减小 batch size 或输入尺寸。使用混合精度（paddle.amp.auto_cast() 配合 paddle.amp.GradScaler），大模型再加上重计算' +
    '（paddle.distributed.fleet.utils.recompute）。Paddle 的报错信息会说明它已分配了多少、GPU 还剩多少：如果它自己占的份额很小，就是有其他进程占用了显存。',
  'paddle.noGpu':
    'Paddle 看不到 GPU（"GetCUDADeviceCount():0"）。可能装的是 CPU 版的 paddlepaddle 而不是（或同时还有）paddlepaddle-gpu，' +
    'CUDA_VISIBLE_DEVICES 可能隐藏了 GPU，或者驱动没有加载。',

  // explain: a catalog message's meaning with its reason (src/judge/explain/diagnose.ts)
  'explain.fragTitlePool': '框架的显存池碎片化',
  'why.sigOneReason': '{what}。放在这个原因下，即：{why}',
  'why.sigHere': '{what}。这里即：{why}',
  // a catalog row's meaning or reason in words true of any framework: shown where the row's own words name a
  // framework the input is not (src/judge/explain/readings.ts, neutralKey)
  'reading.neutral.pt-import-libcudart-missing': '无法加载某个 CUDA 动态库：加载器在其搜索路径上找不到这个名字的文件。',
  'reading.neutral.pt-import-libcudart-missing.cuda_toolkit_mismatch':
    '框架是针对另一个 CUDA 主版本构建的，与已安装的不同',
  'reading.neutral.tf-cudnn-loaded-mismatch-v3.cudnn_version_mismatch':
    '先加载了较旧的 cuDNN（其他包自带的副本，或系统的）',
  'reading.neutral.dnn.library_not_found': '框架没有可用的 cuDNN（未加载、版本不对，或初始化失败）',
  'reading.neutral.cuda-out-of-memory.framework_preallocation': '某个预先占用显存的框架占走了显存',
  'reading.neutral.nccl-cuda-malloc-failed.framework_preallocation': '某个框架预先占用了显存',
  'reading.neutral.cudnn-not-initialized.framework_preallocation': '某个框架预先占用了显存',
  'reading.neutral.xla-dnn-init-failed.library_conflict': '其他包或系统的 cuDNN 先于框架自带的 cuDNN 被加载',
  'reading.neutral.tf-cudnn-handle.framework_preallocation': '框架自己的预先占用，或同一进程中的另一个框架，占着显存',
  'reading.neutral.cudnn-internal-error.gpu_memory_exhausted': 'cuDNN 拿不到所需显存时的常见症状',
  'reading.neutral.xla.unable_to_launch_convolution': '无法启动融合卷积（一类已知的编译器缺陷）',
  'reading.neutral.ucx.sigbus':
    '进程收到 SIGBUS：内存映射文件的某一页无法提供，通常是 /dev/shm 已满（容器中 NCCL/UCX 的共享内存传输和数据加载工作进程），极少是硬件故障',
  'reading.neutral.jax-found-version-older.cudnn_version_mismatch': '加载了较旧的 cuDNN（系统的、conda 的或其他包的）',
  'reading.neutral.jax-found-version-older.cuda_toolkit_mismatch':
    '加载了较旧的 CUDA 运行时/cuBLAS/cuSOLVER/cuFFT/cuSPARSE，例如其他包固定版本的 nvidia-* wheel',
  'reading.neutral.caffe-cublas-check':
    '某次 cuBLAS 调用返回了非成功状态；状态名（例如 CUBLAS_STATUS_ALLOC_FAILED、CUBLAS_STATUS_ARCH_MISMATCH）跟在检查文本之后',
  'reading.neutral.tf-dso-could-not-load':
    'dlopen/LoadLibrary 加载某个 CUDA 动态库失败；缺少所需的库时，框架不使用 GPU',
  'reading.neutral.tf-dso-could-not-load.library_missing':
    '框架构建时所用版本的 CUDA 运行时/cuDNN/cuBLAS 没有安装，或不在 LD_LIBRARY_PATH/PATH 上',
  'reading.neutral.xla-no-supported-devices.framework_preallocation':
    '另一个进程中的框架预先占用了显存，因此创建上下文失败',
  'reading.neutral.tf-cannot-dlopen-gpu-libs':
    'cudart/cublas/cufft/curand/cusolver/cusparse/cudnn 中至少有一个无法加载，因此框架在 CPU 上运行',
  'reading.neutral.tf-cannot-dlopen-gpu-libs.library_conflict': '同一环境中的两个包带来了不同版本的 CUDA 库',
  'reading.neutral.cupy-oom.memory_held_by_other_process': '其他进程，或另一个框架的预先占用，占着显存',
  'reading.neutral.xla-driver-older-than-ptxas.driver_too_old': '驱动比框架所用的 CUDA 工具包旧',
  'reading.neutral.pt-no-cuda-gpus': 'CUDA 已初始化，但在至少需要一个设备时报告了零个设备',
  'explain.testCommand': '{test}：{command}',
  'explain.snapshotFacts': '机器事实来自快照 {file}：{sub}',
  'explain.err.cannotRead': '无法读取 {file}：{why}',
  'file.err.noSuchFile': '文件不存在',
  'file.err.permission': '没有权限',
  'file.err.isDir': '是一个目录',
  'explain.err.dirNotLog': '{file} 是一个目录，不是日志文件',
  'explain.err.empty': '输入为空（{inputs}）',
  'answer.next': '下一步：',
  'answer.nextMd': '下一步',
  'answer.candidates': '候选原因，以及区分它们的方法：',
  'answer.alternatives': '如果不是这个原因：',
  'answer.testDecides': '最省事的检验即可判定：{test}。',
  'answer.checkDecides':
    '在任务失败的机器上运行 check：它会读取驱动、动态库和显存情况，据此在这些原因之间做出判定（或者贴出报错上方的几行）。',
  'answer.checkDecidesCudnn':
    '在任务失败的机器上运行 check --deep：它的 cuDNN 测试能区分 cuDNN 无法启动和拿不到显存这两种情况（或者贴出报错上方的几行）。',
  'answer.onMachine': '在任务失败的机器上',
  'answer.tells': '区分方法：',
  'answer.alsoFits': '第 {line} 行（见原因 {rank}）也符合这个原因：{why}',
  'answer.alsoFitsBare': '第 {line} 行（见原因 {rank}）也符合这个原因',
  'answer.tellApart': '与原因 {rank} 的区分方法：{test}',
  'answer.tellApartCmd': '与原因 {rank} 的区分方法：{test}（{command}）',

  // fix's plan and results (src/report/views/fix.ts, src/judge/fix/plan.ts)
  'plan.onGpu': 'GPU {gpus} 上 {mib}',
  'plan.memUnknown': '显存 ?',
  'plan.leftAloneLine': 'PID {pid}（{user}）{cmd}：{mem}；{verdict}：{why}',
  'plan.old': '已运行 {age}',
  'plan.stepLine': '{who}：{mem}；{verdict}：{why}',
  'plan.stepLineAge': '{who}：{mem}，已运行 {age}；{verdict}：{why}',
  'plan.titleSnapshot': '{title}：计划（对快照不会执行任何操作）',
  'plan.titleLive': 'gpu-env-doctor fix：{host} 的计划',
  'plan.leftAlone': '不处理（fix 不会结束这些进程）：',
  'plan.keep': '保留',
  'plan.nothing': '没有需要修复的：没有残留的 GPU 进程，没有要写入的设置，也没有警告及以上级别的问题。',
  'plan.toEnd': '要结束的进程（先 SIGTERM，{grace} 秒后 SIGKILL；每个 PID 的启动时间都会先重新核对）：',
  'plan.skip': '跳过',
  'plan.notEnded': '未结束：{why}',
  'plan.end': '结束',
  'plan.gone': '已退出',
  'plan.settings': '要写入 {file} 的设置（加载方法：source {file}）：',
  'plan.conflict': '冲突',
  'plan.conflictLine': '{check} 要求 {name}={value}；保留了第一个值',
  'plan.unset': '（取消设置）',
  'plan.notWritten': '未写入：{why}',
  'plan.rebuild': '重建环境（请自己运行这些命令；fix 从不安装任何东西）：',
  'plan.forYou': '需要你自己做的（安装、更换驱动，以及 fix 不会自己做的其他事）：',
  'plan.parentOfZombie': 'PID {pid}（僵尸进程 {zombie} 的父进程）',
  'plan.ended': '已结束 {name}（{by}）',
  'plan.alreadyExited': '{name} 已经退出',
  'plan.refused': '拒绝处理 {name}：{why}',
  'plan.couldNotEnd': '无法结束 {name}：{why}',
  'plan.didNotEnd': '没有结束 {name}：{why}',
  'plan.wrote': '已写入 {file}；在任务的 shell 中加载它：source {file}',
  'plan.unchanged': '{file} 中已有这些设置；在任务的 shell 中加载它：source {file}',
  'plan.didNotWrite': '没有写入 {file}：{why}',
  'plan.window':
    '制定此计划前，已对每个进程观察 {s} 秒：CPU、输出文件，以及{gpu}；有工作、提供服务或有意独立运行的进程都会保留。',
  'plan.windowGpu.process': '每个进程的 GPU 活动（nvidia-smi pmon）',
  'plan.windowGpu.gpu': 'GPU 利用率（只有它是唯一占用者时才算它的）',
  'plan.windowGpu.none': 'GPU 活动（nvidia-smi 未提供，未读到）',
  'plan.gpuFreeNow': 'GPU {gpu} 现在空闲 {free}，总量 {total}',
  'plan.exitedSince': 'PID {pid}（{name}）在快照之后已经退出',
  'plan.zombieParent': '僵尸进程 PID {pid} 的父进程，它还没有回收该僵尸进程：僵尸进程已退出，但父进程还没有回收它',

  // procs: the frameworks' memory policies (src/gather/procfs/framework.ts) and the frame of the table
  // (src/report/views/procs.ts)
  'policy.jaxOff': '不预分配的 JAX（其中 XLA_PYTHON_CLIENT_PREALLOCATE=false）：它占用的是自己用到的部分（含缓存）',
  'policy.jaxOffRemedy':
    '这些显存是它自己的数组和 JAX 的缓存；任务结束时会释放（或调用 jax.clear_caches() 并删除数组）',
  'policy.jaxFraction': '其中 XLA_PYTHON_CLIENT_MEM_FRACTION={fraction}',
  'policy.jaxNotSet': '其中没有设置 XLA_PYTHON_CLIENT_PREALLOCATE',
  'policy.jaxUnreadable': '这里读不到它的环境变量；按默认值',
  'policy.jax': 'JAX，在第一次运算时预分配 GPU 的 {pct}（{how}）',
  'policy.jaxMatches': 'JAX，在第一次运算时预分配 GPU 的 {pct}（{how}）：{used} ≈ {total} 的 {pct}',
  'policy.jaxRemedy':
    '用 XLA_PYTHON_CLIENT_PREALLOCATE=false 启动那个任务（这样它只占用需要的部分），或用更小的 XLA_PYTHON_CLIENT_MEM_FRACTION（例如 .30）',
  'policy.tfGrowth': '开启了按需分配显存的 TensorFlow（其中 TF_FORCE_GPU_ALLOW_GROWTH=true）：它占用的是自己用过的部分',
  'policy.tfGrowthRemedy': 'TensorFlow 运行期间从不归还显存；进程结束时才会释放',
  'policy.tfKnown':
    '未开启按需分配显存的 TensorFlow：启动时占用几乎全部显存（其中 TF_FORCE_GPU_ALLOW_GROWTH 不是 "true"）',
  'policy.tfUnknown': 'TensorFlow：除非开启了按需分配显存，否则启动时会占用几乎全部显存（这里读不到它的环境变量）',
  'policy.tfRemedy':
    '用 TF_FORCE_GPU_ALLOW_GROWTH=true 启动那个任务（或在任何运算之前调用 tf.config.experimental.set_memory_growth(gpu, True)）',
  'policy.torch':
    'PyTorch：它的缓存分配器会保留已释放的块，因此它占用的部分可能是缓存而不是仍在使用的张量（只有进程自己能分辨：torch.cuda.memory_allocated() 与 memory_reserved()）',
  'policy.torchRemedy':
    '在那个进程中调用 torch.cuda.empty_cache() 可以归还缓存部分；仍在使用的张量要等它释放或进程结束',
  'policy.cupy': 'CuPy：它的内存池会保留已释放的块，因此它占用的部分可能是内存池缓存',
  'policy.cupyRemedy': '在那个进程中调用 cupy.get_default_memory_pool().free_all_blocks() 可以归还内存池缓存',
  'procs.gpuLine': 'GPU {gpu} {name}：已用 {used}，总量 {total}，空闲 {free}',
  'procs.noSmi': 'nvidia-smi 无法响应（{message}）：只显示打开了 /dev/nvidia* 的进程',
  'procs.noProc': '无法读取进程：{message}',
  'procs.noneFiltered': '这些 GPU 或该用户没有任何进程占用显存。',
  'procs.none': '没有进程占用显存。',
  'procs.reasonLine': 'PID {pid}：{verdict}：{reason}',
  'procs.evidenceLine': '依据：{evidence}',
  'procs.policyLine': 'PID {pid}（{mib}）：{summary}。',
  'procs.giveBack': '归还方法：{remedy}。',
  'procs.stale':
    '{n} 个残留进程占用着显存。要结束{n, plural, =1 {它} other {它们}}：gpu-env-doctor fix（它会先显示计划并询问）。',
  'procs.noStale': '没有残留进程占用显存。',
  'procs.nextShort': '没有残留进程占用显存，但{headline}。下一步（与 check 相同）：',

  // compat's own frame (src/commands/compat.ts, src/judge/compat/machine.ts)
  'compat.noGpuBuild': '此构建不支持 NVIDIA GPU',
  'compat.experimental': '实验性：{list}',
  'compat.note': '注：{note}',
  'compat.noGpu': '没有 GPU',
  'compat.snapshot': '快照 {file}（{sub}）',
  'compat.thisMachine': '本机（{host}）：驱动 {driver}，{gpus}',
  'compat.thisMachinePy': '本机（{host}）：驱动 {driver}，{gpus}，Python {python}',
  'compat.thatMachine': '那台机器（{host}）：驱动 {driver}，{gpus}',
  'compat.thatMachinePy': '那台机器（{host}）：驱动 {driver}，{gpus}，Python {python}',
  'compat.none': '无',
  'compat.buildsFit': '满足的构建：{list}',
  'compat.fitsThis': '结论：本机满足 {what}。',
  'compat.fitsThat': '结论：那台机器满足 {what}。',
  'compat.notFitsThis': '结论：本机不满足 {what}。',
  'compat.notFitsThat': '结论：那台机器不满足 {what}。',
  'compat.sources': '来源：',
  'compat.sourcesHint': '（{n} 个来源：-v 会列出）',
  'compat.activeEnv': '当前激活的 Python 环境',
  'compat.noGpuSupport': '{what} 的这个构建不支持 NVIDIA GPU',
  'compat.noSmiGpu': '本机没有 nvidia-smi 能看到的 NVIDIA GPU，因此无法运行 GPU 构建',
  'compat.noBuildFits': 'gpu-env-doctor 的数据中没有适合本机的 {fw} 构建。',
  'compat.doesNotFit': '{label} 不适合本机。',
  'compat.minorCompat':
    '驱动 {driver} 自身报告的是 CUDA {max}；CUDA {cuda} 的构建仍可在其上运行，靠的是 CUDA 的次版本兼容' +
    '（CUDA {major}.x 的程序可在任何 CUDA {major} 驱动上运行），需要 PTX JIT 的代码除外。',

  // usage errors of the parser (src/cli/args.ts) and the refusals of the option table (src/cli/options.ts)
  'refusal.run.json': 'run 的 stdout 和 stderr 属于任务本身；请用 --report FILE.json 把报告写入文件',
  'refusal.run.markdown': 'run 的 stdout 和 stderr 属于任务本身；请用 --report FILE.md 把报告写入文件',
  'refusal.run.from': 'run 监视的是它在本机启动的任务；判断已保存的快照请用 check --from',
  'refusal.snapshot.markdown': 'snapshot 以 JSON 输出事实；要可读的报告：gpu-env-doctor check --from FILE --markdown',
  'refusal.snapshot.html': 'snapshot 以 JSON 输出事实；要可读的报告：gpu-env-doctor check --from FILE --html OUT.html',
  'refusal.diff.from': 'diff 以参数接收快照：gpu-env-doctor diff A.json [B.json]',
  'refusal.diff.html': 'diff 没有 HTML 报告；请用 --markdown',
  'refusal.fleet.from': 'fleet 以参数接收快照：gpu-env-doctor fleet FILES|DIR',
  'refusal.fleet.markdown': 'fleet 没有 Markdown 报告；请用 --html FILE',
  'refusal.check.no-machine': 'check 判断的是一台机器：本机，或用 --from 指定的已保存快照',
  'refusal.deep': '它的输出不含 cuDNN 冒烟测试的结果；要运行该测试请用 gpu-env-doctor check --deep',
  'refusal.preamble.json': 'preamble 输出的是 Python 代码',
  'refusal.serve.page': '它提供的是网页（数据以 JSON 形式在 /state.json）',
  'refusal.serve.from': '它监视的是本机（已保存的快照请用 --fleet DIR）',
  'args.runDashes': '请把命令放在 -- 之后：{tool} run -- {cmd}',
  'args.unknownOption': '未知选项 {opt}（见 {help}）',
  'args.unknownOptionGuess': '未知选项 {opt}（是不是想用 --{guess}？见 {help}）',
  'args.notAnOption': '{opt} 不是 {who} 的选项（见 {help}）',
  'args.notAnOptionWhy': '{opt} 不是 {who} 的选项：{why}',
  'args.thisCommand': '此命令',
  'args.needsValue': '{opt} 需要一个值',
  'args.needsValueHint': '{opt} 需要一个值（{hint}）',
  'args.color': '--color 必须是 always、never 或 auto，而不是 "{value}"',
  'args.noValue': '{opt} 不接受值（收到的是 "{got}"）',
  'args.failOn': '--fail-on 必须是 "error" 或 "warn"，而不是 "{value}"',
  'args.oneFormat': '只能选择一种输出格式：{formats} 不能同时使用',
  'args.and': ' 和 ',
  'args.renamedEnvFile':
    '--env-file 已改名为 --env-out（Node 20 会在本工具启动前自行读取 --env-file 指定的文件）：{tool} fix --env-out FILE',
  'args.unknownFormat': '未知的 --format "{format}"（{allowed}）',

  // libs' own frame (src/report/views/libs.ts)
  'libs.noFramework':
    '在查看过的 Python 环境中没有找到带 CUDA 动态库的框架（torch、tensorflow、jax、cupy）；请用 --python PATH 或 --elf FILE。',
  'libs.environment': '（环境 {env}）',
  'libs.tablesWithV': '（每个框架加载的每个动态库、本机上的各份副本和运行中进程映射的文件：加 -v）',
  'libs.alsoReachable': '{lib}：还能通过 {via} 找到 {path}（{version}），但搜索顺序在后',
  'libs.via.rpath': 'rpath',
  'libs.via.runpath': 'runpath',
  'libs.via.ld_library_path': 'LD_LIBRARY_PATH',
  'libs.via.ld_cache': 'ld 缓存',
  'libs.via.default': '系统默认目录',
  'libs.via.preloaded': '预加载（{by}）',
  'libs.via.already_loaded': '已加载',
  'libs.via.already_loadedVia': '已加载（{via}）',
  'libs.via.not_found': '未找到',
  'libs.via.path': '按路径',
  'libs.via.dlopen': '{via}，dlopen',
  'libs.note': '注：{note}',
  'libs.copiesThat': '那台机器上的副本',
  'libs.copiesThis': '本机上的副本',
  'libs.subHidden': '（已隐藏 cuDNN 子库；-v 会显示）',
  'libs.loadedByProcesses': '正在运行的进程加载的动态库',
  'libs.notReadable': '无法读取',
  'libs.mapped': '映射了 {n} 个 CUDA 动态库',
  'libs.same': '与 libs 预测的文件相同',
  'libs.differ': '{n} 个与 libs 的预测不同',
  'libs.noFw': '没有识别出框架',
  'libs.loadedPredicted': '{family}：实际加载 {loaded}，libs 预测的是 {expected}',
  'libs.ldCache': 'ld 缓存：{source}（{format}，{n} 个条目）；LD_LIBRARY_PATH={llp}',
  'libs.ldCacheGlibc': 'ld 缓存：{source}（{format}，{n} 个条目，glibc {glibc}）；LD_LIBRARY_PATH={llp}',
  'libs.unreadable': '无法读取',
  'libs.unset': '（未设置）',
  'libs.noProblem': '未发现动态库问题。',

  // run's terminal lines (src/report/views/run.ts)
  'run.succeeded': '{exit}，用时 {duration}',
  'run.notSampled': '未采样显存',
  'run.gpuPeak': 'GPU {gpu} 峰值 {peak}，总量 {total}，余量 {headroom}',
  'run.gpuPeakJob': 'GPU {gpu} 峰值 {peak}，总量 {total}（本任务 {job}），余量 {headroom}',
  'run.failed': '命令失败（{exit}），用时 {duration}',
  'run.noOutput': '没有捕获到可以分析的输出（stdout 直接输出到终端；报错从 stderr 读取）。',
  'run.nothingInLast': '输出的最后 {n} 行中没有指向已知原因的内容。',
  'run.machineWhenFailed': '失败时的机器状态',
  'run.gpuMemory': '显存（{caption}）',
  'run.report': '报告：{path}',
  'run.sparkPeak': '峰值 {peak}，总量 {total}',
  'run.sparkPeakJob': '峰值 {peak}，总量 {total}，本任务 {job}',
  'run.span': '出现了 {n} 个 GPU 进程',
  'run.spanFailed': '在 {at} 失败；出现了 {n} 个 GPU 进程',
  'run.pidPeak': 'PID {pid}（{whose}）峰值 {peak}',
  'explain.signalLine': '{signature} ×{count}（第 {line} 行）：{summary}',
  'why.legacyFills': '这个 PyTorch 的张量占用 {allocated}，空闲 {free}（总量 {total}）：是任务自己占满了 GPU',
  'why.legacyNeither': '{total} 中有 {rest} 既不是这个 PyTorch 的张量，也不空闲：是它的缓存，或其他进程',
  'why.m.noGpuHere': '本机没有可用的 NVIDIA GPU 或驱动：它的事实对日志没有补充',
  'why.v.driverInstalled': '已安装驱动（{driver}）："insufficient" 的意思是它比所用的 CUDA 运行时旧，而不是没有驱动',
  'why.v.driverInstalledShort': '已安装驱动（{driver}）',
  'why.v.macos':
    '任务运行在 macOS（{os}）上：CUDA 从 10.2 之后就不再支持 macOS，近年的 Mac 用的是 AMD 或 Apple 的 GPU，因此看不到任何 CUDA 设备',
  'why.v.notNvidia': '所述 GPU（{name}）不是 NVIDIA GPU：CUDA 看不到任何设备',
  'why.v.containerNoGpu':
    '在容器中，驱动库（libcuda、libnvidia-ml）是通过 NVIDIA 运行时从宿主机提供的：容器启动时没有 GPU 访问权限',
  'why.v.torchPredatesLibs':
    'PyTorch {version} 是用 CUDA {built} 构建的，早于 {gpu}（{sm}）：那个 CUDA 版本的 cuBLAS/cuDNN 没有适用于它的内核',
  'why.v.tfPredatesLibs':
    'TensorFlow {version} 构建时用的 CUDA {built} 早于 {gpu}（{sm}）：那个 CUDA 的 cuBLAS/cuDNN 没有适用于它的核函数',
  'fix.novisCpuBuild':
    '已安装的框架构建不支持 CUDA，因此看不到 GPU。请安装它的 CUDA 构建（PyTorch：从 pytorch.org 选择适合你驱动的 CUDA wheel；JAX：jax[cuda12] 或 ' +
    'jax[cuda13]；MXNet：mxnet-cuXX；从源码构建：开启 CUDA 后重新构建）。',
  'fix.novisCpuBuild.torch':
    '已安装的 PyTorch 构建不支持 CUDA（CPU 版 wheel），因此看不到 GPU。请从 pytorch.org 安装适合你驱动的 CUDA wheel（pip install torch --index-url ' +
    'https://download.pytorch.org/whl/cuXXX）。',
  'fix.novisCpuBuild.jax':
    '已安装的 jaxlib 不支持 CUDA，因此 JAX 看不到 GPU。请安装它的 CUDA 构建：jax[cuda12] 或 jax[cuda13]，与你的驱动对应的那个。',
  'fix.novisCpuBuild.tf':
    '已安装的 TensorFlow 构建不支持 CUDA，因此看不到 GPU。在 Linux 上执行 pip install "tensorflow[and-cuda]"；' +
    'tf.test.is_built_with_cuda() 可以说明装的是哪种构建。',
  'fix.novisCpuBuild.other':
    '已安装的框架构建不支持 CUDA，因此看不到 GPU。请安装它的 CUDA 构建（从源码构建：开启 CUDA 后重新构建）。',

  'procs.col.gpu': 'GPU',
  'procs.col.pid': 'PID',
  'procs.col.user': '用户',
  'procs.col.memory': '显存',
  'procs.col.age': '运行时长',
  'procs.col.state': '状态',
  'procs.col.parent': '父进程',
  'procs.col.container': '容器',
  'procs.col.verdict': '判断',
  'procs.col.framework': '框架',
  'procs.col.command': '命令',
  'procs.cell.devFile': '设备文件',
  'procs.cell.gone': '已退出→{parent}',
  'procs.cell.otherMaybe': '其他?',
  'procs.cell.other': '其他',
  'procs.cell.same': '相同',

  'facts.title': '事实',
  'facts.system': '系统：{os}，内核 {kernel}，{arch}，容器：{container}{wsl, select, true {，WSL} other {}}',
  'facts.driver': '驱动 {driver}，CUDA ≤ {cuda}',
  'facts.driverModule': '驱动 {driver}，CUDA ≤ {cuda}，内核模块 {module}',
  'facts.gpu':
    'GPU {index}：{name}（sm {sm}，{bus}，{uuid}）显存已用 {used} / {total}，空闲 {free}；持久模式 {persistence}，计算模式 {computeMode}，' +
    'MIG {mig}，ECC {ecc}',
  'facts.process':
    'PID {pid} {user} {state} GPU {gpus} {mib} 运行 {age} ppid {ppid}{orphaned, select, true {（孤儿进程）} other ' +
    '{}}{framework}：{cmd}',
  'facts.env': '环境变量：{vars}',
  'facts.probes': '探测',
  'facts.colon': '：',
  'facts.probe': '{id} {ms} 毫秒',
  'facts.probeFailed': '{id} {ms} 毫秒（{message}）',
  'facts.failed': '失败',

  'list.and': ' 和 ',
  'smoke.head.cuda': 'CUDA 无法用 {who} 的文件启动',
  'smoke.head.cudnn': 'cuDNN 无法在 {where} 上启动',
  'smoke.head.cublas': 'cuBLAS 无法在 {where} 上启动',
  'smoke.head.conv': 'cuDNN 在 {where} 上执行卷积失败',
  'smoke.status': '{head}：{call} 返回 {code}：{meaning}',
  'smoke.unknownStatus': 'gpu-env-doctor 不认识这个状态码',
  'smoke.initLowFree': '{meaning}；创建 CUDA 上下文后显存只剩 {free}，原因很可能是显存不足',
  'smoke.returned': '{call} 返回 {name} = {code}{text}{asking, select, none {} other {，申请 {asking}}}',
  'smoke.theFrameworks': '各框架',
  'smoke.memEvidence':
    '创建 CUDA 上下文后：空闲 {free}，总量 {total}{after, select, none {} other {；测试后空闲 {after}}}',
  'smoke.conv':
    '{shape}（N×C×H×W）到 {channels} 个通道的 3×3 卷积，{workspace, select, largest {使用足以尝试所有算法的 workspace} other {使用最小的 ' +
    'workspace}}（{ws}；张量 {tensors}）',
  'smoke.convRan': '{what}：成功（算法 {algo}）',
  'smoke.convReturned': '{call} 返回 {name} = {code}{asking, select, none {} other {，申请 {asking}}}',
  'smoke.convFailed': '{what}：{result}{free, select, none {} other {，空闲 {free}}}',
  'smoke.timeAll': '共 {s} 秒',
  'smoke.timeContext': 'CUDA 上下文在 {s} 秒时就绪',
  'smoke.gpu': 'GPU {index}（{name}）',
  'smoke.device': 'CUDA 设备 {device}',

  'libs.col.library': '动态库',
  'libs.col.file': '文件',
  'libs.col.version': '版本',
  'libs.col.via': '来源',
  'libs.col.origin': '出处',
  'libs.col.package': '软件包',
  'libs.notFound': '未找到',
  'libs.notFoundError': '未找到：{error}',

  'diff.fact.driver.label': 'NVIDIA 驱动',
  'diff.fact.driver.why': '驱动决定了任务能用的最高 CUDA 版本，也带来它自己的缺陷和修复',
  'diff.fact.kernel-module.label': '已加载的内核模块',
  'diff.fact.kernel-module.why': '内核模块与驱动的动态库版本不同，说明升级后没有重启：NVML 和 CUDA 都会失败',
  'diff.fact.gpu.count.label': '可见的 GPU 数',
  'diff.fact.gpu.count.why': '要求的设备数多于可见 GPU 的任务会失败，数据并行任务的 batch 划分也会改变',
  'diff.fact.gpu.model.label': 'GPU 型号',
  'diff.fact.gpu.model.why': '换一种 GPU 就换了架构（有没有为它编译的核函数）、显存和速度',
  'diff.fact.gpu.memory.label': '显存（总量）',
  'diff.fact.gpu.memory.why': '在大显存卡上放得下的 batch，到了小显存卡上会显存不足',
  'diff.fact.gpu.cc.label': '计算能力',
  'diff.fact.gpu.cc.why': '框架只为一组架构提供核函数；计算能力不在其中时会失败或走 JIT 编译',
  'diff.fact.cuda.driver-max.label': '驱动支持的最高 CUDA',
  'diff.fact.cuda.driver-max.why': '为比这更新的 CUDA 构建的框架会报 "driver too old"',
  'diff.fact.gpu.health.label': 'GPU 健康状况（ECC、行重映射）',
  'diff.fact.gpu.health.why': '不可纠正的显存错误和待处理的重映射会让任务崩溃，直到 GPU 被重置',
  'diff.fact.gpu.mig.label': 'MIG 模式',
  'diff.fact.gpu.mig.why': '开启 MIG 后，任务只能看到 GPU 的一个切片（显存和算力）',
  'diff.fact.gpu.compute-mode.label': '计算模式',
  'diff.fact.gpu.compute-mode.why': 'Exclusive_Process 只允许一个进程使用 GPU；第二个进程会报 "busy or unavailable"',
  'diff.fact.arch.label': 'CPU 架构',
  'diff.fact.arch.why': 'x86_64 和 aarch64 机器需要不同的 wheel 包和动态库',
  'diff.fact.container.label': '容器',
  'diff.fact.container.why': '容器内能看到哪些 GPU、驱动动态库和其他进程，取决于容器运行时',
  'diff.fact.wsl.label': 'WSL',
  'diff.fact.wsl.why': '在 WSL 中，驱动是 Windows 的驱动，显存的报告方式也不同',
  'diff.fact.env.label': '环境变量',
  'diff.fact.env.why': '这些变量决定加载哪些动态库、哪些 GPU 可见以及显存如何分配',
  'diff.fact.gpu.ecc.label': 'ECC 模式',
  'diff.fact.gpu.ecc.why': '开启 ECC 会预留一部分显存并报告显存错误；关闭则看不到这些错误',
  'diff.fact.os.label': '操作系统',
  'diff.fact.os.why': '框架链接的系统动态库（glibc、libstdc++）随操作系统而来',
  'diff.fact.kernel.label': 'Linux 内核',
  'diff.fact.kernel.why': '驱动内核模块是为某个内核编译的：内核更新后若没有 DKMS 重新编译，就没有驱动可用',
  'diff.fact.gpu.persistence.label': '持久模式',
  'diff.fact.gpu.persistence.why': '没有持久模式时，空闲的无头 GPU 上每次第一个 CUDA 调用都要付出驱动启动的时间',
  'diff.fact.tool.label': 'gpu-env-doctor 版本',
  'diff.fact.tool.why': '其他版本生成的快照可能收集了不同的事实',
  'diff.fact.gpu.memory-used.label': '已用显存',
  'diff.fact.gpu.memory-used.why': '快照那一刻其他进程占用的显存',
  'diff.fact.gpu.processes.label': 'GPU 进程',
  'diff.fact.gpu.processes.why': '快照那一刻的进程',
  'diff.fact.collected-at.label': '采集时间',
  'diff.fact.collected-at.why': '快照的生成时间',
  'diff.fact.uptime.label': '开机时长',
  'diff.fact.uptime.why': '自启动以来的时间',
  'diff.fact.loads.label': '框架加载的动态库',
  'diff.fact.loads.why': '实际加载的那份 cuDNN / CUDA 运行时决定了兼容性，不管还装了别的什么',
  'diff.fact.copies.label': '磁盘上的副本',
  'diff.fact.copies.why': '同一个动态库有多份副本时，LD_LIBRARY_PATH、RPATH 和加载顺序决定用哪一份',
  'diff.fact.framework.label': '框架构建',
  'diff.fact.framework.why': '框架构建决定了它需要的 CUDA 和 cuDNN 版本，以及它带有核函数的 GPU 架构',
  'diff.fact.wheel.label': 'Python 包',
  'diff.fact.wheel.why': 'nvidia-* wheel 包带有框架优先加载的 cuDNN、cuBLAS 和 CUDA 运行时副本',
  'diff.fact.conda.label': 'conda 包',
  'diff.fact.conda.why': 'conda 环境自带 cudatoolkit 和 cuDNN，会遮蔽系统和 pip 安装的副本',
  'diff.fact.framework.probe.label': '框架自检（--deep=frameworks）',
  'diff.fact.framework.probe.why': '导入框架并在 GPU 上执行卷积时发生了什么',
  'diff.fact.python.version.label': 'Python 版本',
  'diff.fact.python.version.why': 'wheel 包按 Python 版本构建；换一个版本可能得到另一个框架构建，或者根本没有',
  'diff.fact.python.duplicates.label': '重复安装的包',
  'diff.fact.python.duplicates.why': '同一个包有两个元数据目录：导入哪一份取决于文件顺序的偶然',
  'diff.fact.python.env.label': 'Python 环境',
  'diff.fact.python.env.why': '任务运行所在的环境：换一个环境就是另一套包',

  'diff.notCollectedOn': '{side} 上没有采集（较旧的快照，或那里没有运行这个探测）',
  'diff.holds': 'PID {pid} {name} 占用 {mib}',
  'diff.freeOf': '空闲 {free}，总量 {total}',
  'diff.gpuMemory': 'GPU {index} 显存',
  'diff.memoryWhy':
    '一个进程占用了 GPU 的大部分显存，任务就没有足够的显存启动（"out of memory"、"cuDNN failed to initialize"）',
  'diff.none': '（无）',
  'diff.values': '{n} 个值',
  'diff.notCollected': '（未采集）',
  'diff.notSet': '（未设置）',
  'diff.absent': '（无）',
  'diff.notInstalled': '未安装',
  'diff.side':
    '{label}{otherHost, select, true {（主机 {host}）} other {}}，采集于 {taken}{known, select, true {（{ago}前）} other {}}',
  'diff.impact.critical': '严重',
  'diff.impact.high': '高',
  'diff.impact.medium': '中',
  'diff.impact.low': '低',
  'diff.impact.noise': '噪声',
  'diff.impactCount': '{impact} {n} 项',
  'diff.noDifferences': '没有要紧的差异',
  'diff.differences': '{n} 处差异（{parts}）',
  'diff.same': '{n} 项事实相同',
  'diff.hidden': '隐藏了 {n} 处随时间变化的差异（--all 会显示）',
  'diff.why': '{why}：',
  'diff.more': '… 还有 {n} 项（-v 会显示）',
  'diff.col.impact': '影响',
  'diff.col.fact': '事实',
  'diff.col.why': '为什么要紧',

  'fleet.title': '机群',
  'fleet.machinesFrom': '{machines} 台机器，来自 {files} 个文件',
  'fleet.skippedCount': '，跳过 {n} 个',
  'fleet.skipped': '已跳过',
  'fleet.moreList': '… 还有 {n} 个（-v 会列出）',
  'fleet.duplicates': '出现在多个文件中的主机名：{names}',
  'fleet.configurations': '配置（{n}）',
  'fleet.moreConfigurations': '… 还有 {n} 种配置（-v 会列出）',
  'fleet.outliers': '异常机器（{n}）',
  'fleet.outliersNote': ' 取值与机群中大多数机器不同的机器',
  'fleet.none': '无',
  'fleet.usual': '（通常：{usual}）',
  'fleet.more': '… 还有 {n} 项',
  'fleet.moreOutliers': '… 还有 {n} 台异常机器（-v 或 --json 会列出）',
  'fleet.splits': '分歧事实（{n}）',
  'fleet.splitsNote': ' 没有哪个取值占到机群的三分之二',
  'fleet.valueOn': '{value}：{n} 台',
  'fleet.moreValues': ' … 还有 {n} 个取值',
  'fleet.findings': '整个机群的检查结果',
  'fleet.noFindings': '没有任何检查在任何机器上报告问题',
  'fleet.findingOn': '{check}：{n} 台机器',
  'fleet.summary':
    '{machines} 台机器 · {groups} 种配置 · {outliers} 台异常机器 · {errors} 项检查报错{skipped, plural, =0 {} other { · 跳过 # 个文件}}',
  'fleet.html.title': '机群：{n} 台机器',
  'fleet.html.meta':
    '读取 {files} 个文件，跳过 {skipped} 个 · {groups} 种配置 · {outliers} 台异常机器 · 由 {tool} 生成于 {at}',
  'fleet.html.skippedFiles': '跳过的文件',
  'fleet.html.file': '文件',
  'fleet.html.why': '原因',
  'fleet.html.configurations': '配置',
  'fleet.html.machines': '机器数',
  'fleet.html.configuration': '配置',
  'fleet.html.which': '哪些机器',
  'fleet.html.outliers': '异常机器',
  'fleet.html.noOutliers': '无：每台机器的每项事实都是机群中通常的取值。',
  'fleet.html.machine': '机器',
  'fleet.html.impact': '影响',
  'fleet.html.fact': '事实',
  'fleet.html.value': '取值',
  'fleet.html.usual': '通常',
  'fleet.html.splits': '分歧事实',
  'fleet.html.splitsNote': '没有哪个取值占到机群的三分之二。',
  'fleet.html.values': '取值（机器数）',
  'fleet.html.findings': '整个机群的检查结果',
  'fleet.html.noFindings': '没有任何检查在任何机器上报告问题。',
  'fleet.html.severity': '严重程度',
  'fleet.html.check': '检查',
  'fleet.html.message': '信息',
  'fleet.html.all': '全部 {n} 台',
  'fleet.html.notSet': '（未设置）',
  'fleet.html.selfContained': '此文件自包含：没有脚本，不从网络获取任何内容。',
  'severity.error': '错误',
  'severity.warn': '警告',
  'severity.info': '信息',
  'fleet.problem.notFile': '不是普通文件',
  'fleet.problem.tooLarge': '文件太大（超过 {max} 字节）',
  'fleet.problem.empty': '空文件',
  'fleet.problem.noSuchFile': '没有这个文件或目录',
  'fleet.problem.denied': '权限不足',
  'fleet.problem.linkOutside': '指向目录之外的链接（未跟随）',
  'fleet.problem.notJson': '不是 JSON',
  'fleet.problem.notSnapshot': '不是 gpu-env-doctor 快照',
  'fleet.problem.notSnapshotAt': '不是 gpu-env-doctor 快照（位置：{path}）',
  'fleet.problem.unreadable': '无法读取（{code}）',

  'serve.readOnly': '只读',
  'serve.noScript': '脚本已关闭：本页每 {s} 秒自动刷新。',
  'serve.footer': '本页只读取：页面上的任何操作都不会结束进程。JSON 格式的数据：{link}。',
  'serve.redacted': '用户名和命令行已隐藏（--redact）。',
  'serve.othersHidden': '本机 /proc 对其他用户隐藏进程（hidepid）：不显示他们的命令行（--show-all 可显示）。',
  'serve.figures': '下面的数字来自 {clock}（{ago} 前）。',
  'serve.live': '实时 · {ago} 前更新 · 每 {every} 读取一次',
  'serve.waiting': '正在等待 nvidia-smi 的第一次响应{asked, select, true {（{ago} 前发出请求）} other {}}。',
  'serve.hanging': 'nvidia-smi 已经 {ago} 没有响应：驱动可能卡住了（某块 GPU 从总线上掉了，或某个进程卡在内核中）。',
  'serve.failed': 'nvidia-smi 无法响应：{failure}（已持续 {ago}）。',
  'serve.itFailed': '执行失败',
  'serve.freeUnknown':
    '无法知道哪些 GPU 空闲：nvidia-smi 没有响应{old, select, true {（下面的数字是旧的）} other {}}。',
  'serve.tokenShort': '--token-file {file}：令牌必须是一个至少 {min} 个字符、不含空白的词',
  'serve.noneFree':
    '现在没有空闲的 GPU（{n, plural, one {唯一的一块 GPU 上有进程或被占用的显存} other {共 # 块，每块上都有进程或被占用的显存}}）。',
  'serve.freeNow': '现在空闲：{gpus}（共 {n} 块 GPU）。在其中一块上运行：',
  'serve.allOfThem': '使用全部空闲 GPU：{line}',
  'serve.deviceOrder': 'CUDA_DEVICE_ORDER=PCI_BUS_ID 让 CUDA 按 nvidia-smi 的顺序给 GPU 编号（默认把最快的排在最前）。',
  'serve.byUuid': 'GPU 的 UUID 不随 CUDA 的编号顺序变化，始终指同一块 GPU（nvidia-smi -L 可列出）。',
  'serve.stale': '{n} 个残留进程占用着显存。要安全地结束属于你的那些，在 {host} 上运行：',
  'serve.staleNote': '它会先显示计划并询问；本页从不结束任何进程。',
  'serve.badgeFree': '空闲',
  'serve.badgeNotOffered': '不提供',
  'serve.gpuUsage': '已用 {used}，总量 {total}，空闲 {free}',
  'serve.noProcess': '没有进程使用这块 GPU。',
  'serve.policy': '这对 PID {pid} 意味着：{summary}。{remedy}',
  'serve.period': '。',
  'serve.barLabel': 'GPU {index} 显存：{segments}',
  'serve.deviceFile': '设备文件',
  'serve.col.user': '用户',
  'serve.col.memory': '显存',
  'serve.col.framework': '框架',
  'serve.col.verdict': '判断',
  'serve.col.age': '运行时长',
  'serve.col.command': '命令',
  'serve.total': '总量 {total}',
  'serve.timelineLabel':
    'GPU {index} 最近 {minutes} 分钟的已用显存{any, select, true {，峰值 {peak}，总量 {total}} other {：尚未读到数据}}',
  'serve.minAgo': '{n} 分钟前',
  'serve.now': '现在',
  'serve.timelineCaption':
    '最近 {minutes} 分钟的已用显存{any, select, true {，峰值 {peak}} other {}}（每 {bucket} 取最高读数；空白处：没有读到数据）',
  'serve.holdersTitle': '打开了 GPU 设备、但不在 nvidia-smi 显存列表中的进程',
  'serve.holdersNote':
    '打开了 /dev/nvidia*、但 nvidia-smi 没有列出的进程（正在启动、其他工具的上下文，或 nvidia-smi 没有响应）。',
  'serve.findingsTitle': 'check 在本机上的检查结果',
  'serve.checksOff': '检查已关闭（--check-interval 0）。',
  'serve.checked': '{ago} 前检查，每 {every} 一次',
  'serve.every': '每 {every} 一次',
  'serve.noProcesses': '无法读取进程',
  'serve.title': '{host} 上的 GPU',
  'serve.segment': 'PID {pid} {name}（{user}，{verdict}）',
  'serve.unattributed': '不属于任何列出的进程',
  'serve.migOn': 'MIG 模式已开启：任务使用的是一个 MIG 实例（nvidia-smi -L 会列出），而不是整块 GPU',
  'serve.prohibited': '计算模式为 Prohibited：任何 CUDA 进程都不能使用它',
  'serve.notDescribed': 'nvidia-smi 列出了它，但进程探测没有它的信息',
  'serve.checksRunning': '检查正在运行（它们会读取整台机器，默认每分钟一次）。',
  'serve.checksNotRun': '检查还没有运行。',
  'serve.checksLong': '检查已经运行了 {running}：这些检查结果来自 {clock}。',
  'serve.fleet.title': 'GPU 机群：{n} 台机器',
  'serve.fleet.redacted': '用户名、主机名和命令行已隐藏（--redact）。',
  'serve.fleet.reading': '正在读取 {dir} 中的快照…',
  'serve.fleet.skipped': ' · 跳过 {n} 个文件',
  'serve.fleet.status': '{n} 台机器，来自 {dir}，{ago} 前读取（每 {every} 一次）',
  'serve.fleet.free': '{n} 块 GPU 中 {free} 块空闲',
  'serve.fleet.staleHolders': '{n} 个残留进程',
  'serve.fleet.outlierMachines': '{n} 台异常机器',
  'serve.fleet.old': '{n} 份快照已超过 {age}',
  'serve.fleet.outliersNote': '异常机器：驱动、动态库或框架与机群三分之二的机器不同的机器；{ago} 前比较。',
  'serve.fleet.empty': '{dir} 中还没有快照。每个节点用这条命令写一份：{command}',
  'serve.fleet.col.machine': '机器',
  'serve.fleet.col.snapshot': '快照',
  'serve.fleet.col.gpus': 'GPU',
  'serve.fleet.col.free': '空闲',
  'serve.fleet.col.stale': '残留进程',
  'serve.fleet.col.differs': '与机群不同之处',
  'serve.fleet.col.differsShort': '不同之处',
  'serve.fleet.filesSkipped': '跳过的文件',
  'serve.fleet.ago': '{ago} 前',
  'serve.fleet.unreadable': '现在无法读取：{problem}',
  'serve.fleet.noSmi': '那台机器上 nvidia-smi 无法响应：{failure}',
  'serve.fleet.staleRow': 'PID {pid}（{user}）在 GPU {gpus} 上占用 {mib}',
  'serve.fleet.usual': '通常：{usual}',

  'fixr.parentInit': '它的父进程是 init，会自行回收它',
  'fixr.adopted': '它的父进程 {parent} 收养了它，会自行回收孤儿进程',
  'fixr.parentShell':
    '它的父进程是 {name}（PID {ppid}），是 fix 从不结束的 shell、进程管理器或服务：请手动结束或重启该任务',
  'fixr.foreignNs':
    'nvidia-smi 给出的 PID 并不都属于当前 PID 命名空间（PID {pid} 不属于），因此僵尸进程 PID {zombie} 可能是另一个命名空间的进程',
  'fixr.parentGone': '它的父进程（PID {ppid}）已经退出',
  'fixr.noStart': '不知道它的启动时间，因此无法与被复用的 PID 区分',
  'fixr.notRead': '没有读取到它当前的状态',
  'fixr.ownerUnknown': '不知道它的所有者（或我们自己的用户）',
  'fixr.otherUserRoot': '它属于其他用户（{owner}）；只有 root 能结束它（sudo gpu-env-doctor fix --force）',
  'fixr.otherUserForce': '它属于其他用户（{owner}）；以 root 运行时加 --force 才会结束其他用户的进程',
  'fixr.cpuUnknown': '无法测量它的 CPU 占用，它可能仍在工作',
  'fixr.working': '它仍在工作：自快照以来占用了 {pct}% 的 CPU（例如用 nohup 启动的任务）；确认后请自己结束：kill {pid}',
  'fixr.gpuWorking':
    '它正在 GPU 上工作：观察期间 SM 活动 {pct}%（等待 GPU 的任务几乎不占 CPU）；确认后请自己结束：kill {pid}',
  'fixr.gpuBusyAlone':
    '观察期间它所在的 GPU 利用率为 {pct}%，且那里只有它一个进程：它正在工作；确认后请自己结束：kill {pid}',
  'fixr.gpuShared':
    '观察期间它所在的 GPU 利用率为 {pct}%，但还有其他进程在用这块 GPU，无法判断它是否在工作；确认后请自己结束：kill {pid}',
  'fixr.wrote': '观察期间它写了输出文件：它正在工作；确认后请自己结束：kill {pid}',
  'fixr.self': '它是 gpu-env-doctor 自己或其祖先进程（启动它的 shell 或程序）：fix 从不结束自己的调用者',
  'fixr.noStartTime': '没有可用于核对 PID 的启动时间',
  'fixr.reused': 'PID {pid} 现在是另一个进程（{comm}，启动于 {now}，而不是 {then}）：没有发送信号',
  'fixr.denied': '向 PID {pid} 发送 {sig}：权限不足',
  'fixr.sigFailed': '向 PID {pid} 发送 {sig} 失败',
  'fixr.stuck': '发送 SIGKILL 后 PID {pid} 仍然存在（状态 {state}）：它可能卡在驱动中；请查看 dmesg',
  'rebuild.noBuild':
    '表中没有适合支持 CUDA {cuda} 的驱动的 {fw} 构建：运行 gpu-env-doctor compat {fw} 查看它需要什么。',
  'rebuild.unknown': '（未知）',
  'rebuild.whichFramework': '检查结果没有说明任务使用哪个框架：只保留你所用框架的那条安装命令。',
  'rebuild.reinstall':
    '然后从 requirements-backup.txt 重新安装其他包，去掉框架和 nvidia-* 那几行（框架会带来它自己的 CUDA 动态库）。',
  'rebuild.why':
    '有 {n} 个动态库问题，且 conda 和 pip 的 CUDA 动态库都牵涉其中：单独修复一处只会把冲突转移到别处，因此请只用一种包管理器重建环境。',
  'fixc.savedSnapshot': '事实来自保存的快照：请在那台机器上运行 fix',
  'fixc.root': '使用 --root {root} 时，在那里读到的 PID 不一定属于本机，因此 fix 不会向其中任何一个发送信号',
  'fixc.savedNothing': '计划来自保存的快照，因此没有做任何改动',
  'fixc.noTerminal': '没有可以确认的终端，因此没有做任何改动；加 --yes 执行计划，或加 --dry-run 只打印计划',
  'fixc.nothingChanged': '没有做任何改动。',
  'fixc.askEnd': '结束{n, plural, =1 {这个进程} other {这 # 个进程}}',
  'fixc.askWrite': '把{n, plural, =1 {这项设置} other {这些设置}}写入 {file}',
  'fixc.question': '？',
  'procs.stamp': 'gpu-env-doctor procs，{host}，{at}',
  'procs.ctrlC': '（按 Ctrl-C 停止）',
  'fixc.and': '，并',
  'serve.cli.token': '令牌（每个请求都需要，上面的 URL 中已经包含）：{token}',
  'serve.cli.listening': '正在监听 {host}：其他机器可以用这个令牌打开本页。',
  'serve.cli.readOnly': '只读。按 Ctrl-C 停止。',
};

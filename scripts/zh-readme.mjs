#!/usr/bin/env node
// docs/zh/README.md: the README's two sample outputs rendered in Chinese from the same inputs (the example
// snapshot and the H200 log), by the built CLI, so the page cannot drift from what the tool prints.
//   node scripts/zh-readme.mjs           write docs/zh/README.md (run `npm run build` first)
//   node scripts/zh-readme.mjs --check   exit 1 when the file differs from what the CLI prints now
// The clock is pinned (4h 22m after the snapshot was taken, as in the English README) so the page is stable.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedCli } from './lib/pinned-cli.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs/zh/README.md');
// the same inputs as the English README's two samples (read from its commands, so the pages move together)
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SNAPSHOT =
  /gpu-env-doctor check --from (examples\/snapshots\/[\w.-]+\.json)/.exec(readme)?.[1] ??
  'examples/snapshots/h200-memory-held.json';
const LOG =
  /explain (test\/fixtures\/[\w./-]+) --no-machine/.exec(readme)?.[1] ??
  'test/fixtures/h200/logs/conv-keep1200-bs64.txt';

const cli = pinnedCli(ROOT, SNAPSHOT, 'zh_CN.UTF-8');

const check = cli(['check', '--from', SNAPSHOT]);
const explain = cli(['explain', LOG, '--no-machine']);

const page = `# gpu-env-doctor（中文说明）

GPU 深度学习任务为什么失败，以及如何修复。

\`UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize\`、
\`CUDNN_STATUS_NOT_INITIALIZED\`、\`CUDA out of memory\`、\`DNN library initialization failed\`：框架说的
“probably”只是猜测。gpu-env-doctor 查看真实的机器——谁占用着显存、每个框架实际加载的是哪个动态库文件、框架是针对
什么构建的——再结合你得到的报错，给出按可能性排列的诊断、证据和具体的修复方法。它不需要联网，未经确认不做任何改动，
运行只需零点几秒，适合在每次训练任务前运行。

术语见 [术语表](GLOSSARY.md)；英文说明见 [README.md](../../README.md)。

## 安装和运行

在本仓库的克隆中（需要 Node.js 20 或更新版本），安装为 \`gpu-env-doctor\` 命令：

\`\`\`
npm ci && npm pack && npm install -g ./gpu-env-doctor-0.1.0.tgz && gpu-env-doctor check
\`\`\`

不全局安装时，\`node dist/cli.js\` 就是同一个命令：\`alias gpu-env-doctor="node $PWD/dist/cli.js"\`。
命令补全：\`source <(gpu-env-doctor completion bash)\`（也支持 \`zsh\`、\`fish\`）。

## 中文输出

语言按 \`LC_ALL\`、\`LC_MESSAGES\`、\`LANG\` 的顺序自动选择：\`zh_*\`（如 \`zh_CN.UTF-8\`）输出中文，其他一律英文；
\`--lang zh\` / \`--lang en\` 强制指定。\`zh_CN.GBK\` 之类非 UTF-8 的区域设置下默认输出英文（并使用 ASCII 符号），
因为输出是 UTF-8，中文在这种终端上会显示为乱码；需要时可用 \`--lang zh\`。命令、文件名、选项、id、版本号和引用的
报错原文保持原样。\`--json\` 输出是数据，始终为英文（字段和 message 都不翻译）。
\`serve\` 的网页（\`<html lang="zh-CN">\`）、\`diff\`、\`fleet\`、\`procs\`、\`libs\` 和 \`fix\` 也是中文；\`preamble\` 生成的 Python 代码
及其在任务中打印的信息仍为英文。

## 效果

一台真实的 H200，某个进程占用了 138.6 GiB 显存
（\`gpu-env-doctor check --from ${SNAPSHOT} --lang zh\`，在任何笔记本上都能运行；按 80 列显示）：

\`\`\`
${check}
\`\`\`

\`-v\` 会列出所有事实、每个检查结果的 id 和说明页以及每个探测的耗时；\`-q\` 只输出问题；\`--json\` 输出完整结果供脚本使用。

分析一份报错日志（\`gpu-env-doctor explain ${LOG} --no-machine --lang zh\`，这是 H200 上另一个进程占用显存时
PyTorch 的真实失败）：

\`\`\`
${explain}
\`\`\`

## 运行测试

\`\`\`
npm ci && npm test
\`\`\`

本页由 \`node scripts/zh-readme.mjs\` 根据同样的快照和日志生成（\`npm test\` 会检查它是否与当前输出一致）。
`;

if (process.argv.includes('--check')) {
  const have = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  if (have !== page) {
    process.stderr.write(`${path.relative(ROOT, OUT)} is out of date: run node scripts/zh-readme.mjs\n`);
    process.exit(1);
  }
  process.stdout.write(`${path.relative(ROOT, OUT)} is up to date\n`);
} else {
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, page);
  process.stdout.write(`wrote ${path.relative(ROOT, OUT)}\n`);
}

// Environment lines as Chinese posts and issue templates write them, and the package-list rows and Paddle
// banner lines the English reader (reader.ts) does not read. Same facts, same rule (the first sighting of a
// fact wins; English and Chinese lines feed one EnvironmentFacts), one call per line from the English reader.
//
// What it reads (patterns of real posts: PaddlePaddle's Chinese issue template, CSDN/Zhihu/forum questions):
//   显卡：RTX 3060 6G，CUDA 11.2，cuDNN 8.1        several facts on one line, full-width ：，（）、；
//   GPU型号: GTX 1050Ti   显存：4G   驱动版本 472.12   显卡驱动：512.78
//   CUDA 版本：11.2   cuDNN版本是8.1.0   CUDA/cuDNN 版本：11.2 / 8.1
//   系统：Windows 10   操作系统：Ubuntu 20.04   系统环境：win10，python3.8
//   Python 版本：3.8   TensorFlow 版本：2.10   torch版本 1.12.1+cu113   框架：PaddlePaddle 2.5   飞桨版本 2.6
//   环境：Windows10 + CUDA11.2 + cuDNN8.1 + tensorflow-gpu2.6        items joined by +, names glued to versions
//   1）PaddlePaddle版本：2.5.1   3）GPU：RTX 3060，CUDA 11.2，CUDNN 8.2   4）系统环境：Windows 10，Python 3.8
//   安装方式：conda   其他/备注：…
// and, in any locale: conda list rows (`pytorch 1.12.1 py3.9_cuda11.3_cudnn8.3.2_0 pytorch`, `python 3.8.13 h…`),
// pip/conda rows of paddlepaddle(-gpu), "PaddlePaddle version: 2.5.1", and Paddle's start-up banner
// ("GPU Compute Capability: 7.5, Driver API Version: 11.6, Runtime API Version: 11.8", "cuDNN Version: 8.9.").
// Cheap for the lines it does not read: one test for CJK/full-width characters, one anchored test for the rest.
import type { EnvironmentFacts, Fact, Framework, GpuFact } from '../types.js';
import { frameworkWord } from './framework-word.js';
import { INSTALL_WORDS } from './install-words.js';
import { eitherOf, regexOf } from '../../../base/regex.js';
import { nativeAtFirstUse, nativeWhenAsked } from '../../../base/native-regex.js';

const MAX_GPUS = 16;
const MAX_NOTES = 20;
const VERSION = /\d+(?:\.\d+)+/;

/** CJK ideographs, CJK punctuation, full-width forms: the gate for the Chinese reader */
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
/**
 * A line without any of those is ASCII on most logs: tested first with the prefilter's own pattern (read/anchors.ts
 * NON_ASCII, the same source: V8 compiles it once for both), so that CJK is compiled only for a line that has one.
 */
const NON_ASCII = /[^\x00-\x7f]/;
/** lines without CJK that this module still reads: list rows, Paddle's version line and banner */
const ROW = regexOf(
  [
    /^\s*(?:[-*•]\s*)?/, // a list's mark
    '(?:',
    eitherOf([
      /pytorch\s+\d|python\s+\d+\.\d+\.\d+\s+\S/, // list rows
      /paddlepaddle(?:[-_]gpu)?\s*(?:==|\s)\s*\d/, // Paddle's version line
      /paddle(?:paddle)?\s+version\s*[:=]/, // Paddle's banner
    ]),
    ')',
  ],
  'i',
);

type Kind =
  | 'gpu'
  | 'vram'
  | 'driver'
  | 'cuda'
  | 'cudnn'
  | 'cuda_cudnn'
  | 'os'
  | 'python'
  | 'framework'
  | 'tensorflow'
  | 'pytorch'
  | 'paddle'
  | 'jax'
  | 'keras'
  | 'install'
  | 'note'
  | 'env'
  | 'container';

/**
 * Keys as written (matched at the start of a segment, longest first, case-insensitive, spaces ignored).
 * "版本" (version) alone and "环境" (environment) introduce a list of items.
 */
const KEYS: Array<[string, Kind]> = (
  [
    ['显卡型号', 'gpu'],
    ['显卡信息', 'gpu'],
    ['显卡', 'gpu'],
    ['gpu型号', 'gpu'],
    ['gpu信息', 'gpu'],
    ['gpu', 'gpu'],
    ['图形卡', 'gpu'],
    ['设备型号', 'gpu'],
    ['显存大小', 'vram'],
    ['显存', 'vram'],
    ['显卡驱动版本', 'driver'],
    ['显卡驱动', 'driver'],
    ['nvidia驱动版本', 'driver'],
    ['nvidia驱动', 'driver'],
    ['驱动程序版本', 'driver'],
    ['驱动版本', 'driver'],
    ['驱动', 'driver'],
    ['cuda/cudnn版本', 'cuda_cudnn'],
    ['cuda/cudnn', 'cuda_cudnn'],
    ['cuda和cudnn版本', 'cuda_cudnn'],
    ['cudatoolkit版本', 'cuda'],
    ['cuda工具包版本', 'cuda'],
    ['cudatoolkit', 'cuda'],
    ['cuda版本', 'cuda'],
    ['cuda', 'cuda'],
    ['cudnn版本', 'cudnn'],
    ['cudnn', 'cudnn'],
    ['操作系统版本', 'os'],
    ['操作系统', 'os'],
    ['系统环境', 'os'],
    ['系统版本', 'os'],
    ['系统类型', 'os'],
    ['系统', 'os'],
    ['平台', 'os'],
    ['os', 'os'],
    ['python版本', 'python'],
    ['python', 'python'],
    ['深度学习框架', 'framework'],
    ['框架版本', 'framework'],
    ['框架', 'framework'],
    ['tensorflow-gpu版本', 'tensorflow'],
    ['tensorflow版本', 'tensorflow'],
    ['tf版本', 'tensorflow'],
    ['pytorch版本', 'pytorch'],
    ['torch版本', 'pytorch'],
    ['paddlepaddle版本', 'paddle'],
    ['paddle版本', 'paddle'],
    ['飞桨版本', 'paddle'],
    ['飞桨', 'paddle'],
    ['jax版本', 'jax'],
    ['jaxlib版本', 'jax'],
    ['keras版本', 'keras'],
    ['安装方式', 'install'],
    ['安装方法', 'install'],
    ['安装途径', 'install'],
    ['其他', 'note'],
    ['其它', 'note'],
    ['备注', 'note'],
    ['补充', 'note'],
    ['补充说明', 'note'],
    ['问题描述', 'note'],
    ['版本、环境信息', 'env'],
    ['版本环境信息', 'env'],
    ['环境信息', 'env'],
    ['运行环境', 'env'],
    ['软件环境', 'env'],
    ['电脑配置', 'env'],
    ['配置', 'env'],
    ['环境', 'env'],
    ['版本', 'env'],
    ['容器', 'container'],
  ] as Array<[string, Kind]>
).sort((a, b) => b[0].length - a[0].length);

// the gates, compiled natively when the first line reaches them
const primeGates = nativeAtFirstUse(ROW, NON_ASCII);
const cjk = nativeWhenAsked(CJK);

/** Read one line (already normalised by the collector) into `f`; facts already set are kept. */
export function readZhEnvLine(no: number, text: string, f: EnvironmentFacts): void {
  if (text.length > 400) return;
  primeGates();
  // every line of a multi-GB log passes here: an anchored test, two substring searches, one character class
  if (ROW.test(text) || text.includes('API Version: ') || text.includes('cuDNN Version: ')) other(no, text, f);
  else if (NON_ASCII.test(text) && cjk().test(text) && KEY_STEM.test(text)) chinese(no, text, f);
}

/** a Chinese line without any key word ("第 3 轮，损失 0.52") is a training log line: one test and out */
const KEY_STEM = regexOf(
  [
    eitherOf([
      /显卡|显存|驱动|系统|平台|版本|框架|飞桨|安装|其他|其它|备注|补充|问题描述|环境|配置|容器|图形卡|设备型号/, // Chinese keys
      /cuda|cudnn|gpu|python|torch|tensorflow|paddle|\bos\b|win|ubuntu|rtx|gtx/, // English words in them
    ]),
  ],
  'i',
);

// --- helpers shared with the English reader's conventions -------------------------------------------------------

function fact<T>(value: T, line: number, text: string): Fact<T> {
  return { value, line, text: text.trim().slice(0, 300) };
}

function set<K extends Exclude<keyof EnvironmentFacts, 'gpus' | 'install' | 'notes'>>(
  f: EnvironmentFacts,
  key: K,
  value: EnvironmentFacts[K],
): void {
  if (f[key] === undefined) f[key] = value;
}

function addWord(f: EnvironmentFacts, w: string, no: number, text: string): void {
  if (f.install.length < 8 && !f.install.some((x) => x.value === w)) f.install.push(fact(w, no, text));
}

/**
 * The framework and its version from a value, read as reader.ts's setFramework reads one: the last plain version
 * outside parentheses is the release ("v2.3.0-rc2-23-gb36436b087 2.3.0"), "(CUDA 10.2)" and the first +cu113 /
 * +cuda112 tag name the build's CUDA; Paddle's .post117 suffix too.
 */
function setFramework(f: EnvironmentFacts, fw: Framework, value: string | undefined, no: number, text: string): void {
  if (f.framework !== undefined && f.framework.value !== fw) return;
  set(f, 'framework', fact(fw, no, text));
  if (value === undefined) return;
  const inParens = /\(\s*CUDA\s+(\d+\.\d+)/i.exec(value);
  if (inParens) set(f, 'buildCuda', fact(inParens[1]!, no, text));
  // Keras runs on TensorFlow: "tensorflow-gpu 1.13.1, keras 2.2.4" gives TensorFlow's version, as reader.ts does
  const tfNamed =
    fw === 'keras' || fw === 'tensorflow'
      ? /tensorflow(?:[-_]gpu)?\s*(?:==|=|:|v)?\s*(\d+\.\d+(?:\.\d+)?)/i.exec(value)?.[1]
      : undefined;
  const ver = tfNamed ?? frameworkVersion(value);
  if (ver && f.frameworkVersion === undefined) f.frameworkVersion = fact(ver, no, text);
  const cu = /\+cu(\d{2,3})\b/.exec(value) ?? (fw === 'paddle' ? /\.post(\d{2,3})\b/.exec(value) : null);
  if (cu) set(f, 'buildCuda', fact(cuTag(cu[1]!), no, text));
  const jl = /\+cuda(\d+)(?:\.cudnn(\d+))?/.exec(value);
  if (jl) set(f, 'buildCuda', fact(cuTag(jl[1]!), no, text));
}

/** "113" → "11.3"; "92" → "9.2"; "12" (jaxlib's +cuda12) → "12": as reader.ts's cuTag */
function cuTag(d: string): string {
  if (d.length === 2 && d.startsWith('1')) return d;
  return d.length <= 2 ? `${d[0]}.${d.slice(1) || '0'}` : `${d.slice(0, -1)}.${d.slice(-1)}`;
}

function memMiB(v: string): number | undefined {
  const m = /(\d+(?:\.\d+)?)\s*(G|GB|GiB|M|MB|MiB|T|TB)\b/i.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]);
  const u = m[2]!.toUpperCase();
  return u.startsWith('T') ? n * 1024 * 1024 : u.startsWith('G') ? n * 1024 : n;
}

function addGpu(f: EnvironmentFacts, raw: string, no: number, text: string): void {
  // keep the model: drop Chinese words ("笔记本" is a laptop part); "RTX3060" is read by compat/gpus.ts as it is
  const laptop = /笔记本|移动版|laptop/i.test(raw);
  let name = raw
    .replace(/[\u3000-\u303f\u3400-\u9fff]+/g, ' ')
    .replace(/\(\s*\)/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')')
    .trim();
  if (laptop && !/laptop/i.test(name)) name = `${name} Laptop GPU`;
  if (name.length < 2 || !/\d|[a-z]{2}/i.test(name)) return;
  name = name.slice(0, 120);
  const existing = f.gpus.find((g) => g.name === name);
  // a size in the name, read as reader.ts reads it ("RTX 3060 6G", "16 GB GPU"); 显存 values go through memMiB
  const inName = /\b(\d{1,3})\s?(?:GB|GiB|G)\b/i.exec(name) ?? /(\d{1,3})\s?(?:GB|GiB|G)\s*显存/i.exec(raw);
  const mem = inName ? Number(inName[1]) * 1024 : undefined;
  if (existing) {
    existing.totalMiB ??= mem;
    return;
  }
  if (f.gpus.length >= MAX_GPUS) return;
  const g: GpuFact = { name, line: no, text: text.trim().slice(0, 300) };
  // "GT 740 (compute capability 3.0)", "RTX 3080 Ti (sm_86)": as reader.ts reads a capability in a name
  const cc = /(?:compute capability|算力|cc|sm_?)\s*(\d+)\.?(\d)\b/i.exec(name);
  if (cc) g.computeCapability = `${cc[1]}.${cc[2]}`;
  if (mem !== undefined) g.totalMiB = mem;
  f.gpus.push(g);
}

/**
 * The OS as written ("Win7", "Ubuntu 20.04(WSL2)"), without Chinese words; src/judge/platform/detect.ts reads the
 * forms.
 */
function osName(v: string): string {
  return (
    v
      .replace(/[\u3000-\u303f\u3400-\u9fff]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || v.trim()
  );
}

/** Chinese lines name PaddlePaddle too (飞桨), besides the frameworks the English reader knows. */
function frameworkWordZh(v: string): Framework | undefined {
  return /paddle|飞桨/.test(v.toLowerCase()) ? 'paddle' : frameworkWord(v);
}

// --- Chinese and mixed lines ------------------------------------------------------------------------------------

/** Full-width forms to ASCII (：（）＋ and full-width digits); quotes to ASCII. */
function normalise(t: string): string {
  return t.normalize('NFKC').replace(/[“”]/g, '"').replace(/[‘’]/g, "'");
}

/** "1)", "(1)", "1.", "①" (NFKC: "1"), "- ", "* ", "> " in front of a line */
const LIST_PREFIX = /^\s*(?:[-*•>#|]+\s*)*(?:\(?\d{1,2}[).:]\s*(?=\D)|\d{1,2}\s+(?=[^\d\s.]))?/;

/** what starts a new item after an ASCII comma or a space; anything else after an ASCII comma belongs to the value */
const STARTER =
  '(?:cuda|cudnn|python|tensorflow(?:-gpu)?|tf\\b|pytorch|torch|paddle(?:paddle)?(?:[-_]gpu)?|飞桨|jax|驱动|显存|显卡|gpu|系' +
  '统|操作系统|框架|安装|win(?:dows)?\\s*\\d|ubuntu|centos|debian|wsl|docker|conda\\b|pip\\b)';
// a build tag (+cu113, +cuda112, +cpu) is glued to its version; "win10+cuda10.1" and "A + B" join items
const SPLIT_ASCII = new RegExp(
  `\\s*[,;]\\s*(?=${STARTER})|\\s*\\+(?!(?:cu\\d{2,3}|cuda\\d{2,3}(?:\\.cudnn\\d+)?|cpu|rocm[\\d.]*)\\b(?!\\.\\d))\\s*`,
  'i',
);
const SPLIT_SPACE =
  /\s+(?=(?:cuda|cudnn|python|tensorflow(?:-gpu)?|pytorch|torch|paddle(?:paddle)?(?:[-_]gpu)?)\s*v?\d|驱动|显存)/i;

function chinese(no: number, raw: string, f: EnvironmentFacts): void {
  const line = raw.replace(/^\s+/, '');
  // a note keeps the rest of the line whole, whatever it mentions ("备注：commenters had CUDA 10.2 or 11 installed")
  const head = keyOf(normalise(line).replace(LIST_PREFIX, ''));
  if (head?.kind === 'note') {
    value(no, raw, f, 'note', head.rest.replace(/[，；]/g, ', ').trim());
    return;
  }
  // Chinese separates clauses with full-width marks (，；、。): always a boundary. Inside a part, a keyed value is
  // whole ("安装方式：docker (TensorFlow model container, CUDA 11.8 image)" is one install value), unless the key
  // announces a list (显卡/环境/系统) or there is none: then an ASCII comma or a plus before a new item, or a space
  // before a versioned item ("GPU：RTX 3060 CUDA11.2 CUDNN8.2", as Paddle's template gets filled in), splits it.
  let context: Kind | null = null;
  const parts = line
    .split(/[，；、。]/)
    .map((x, i) => (i === 0 ? normalise(x).replace(LIST_PREFIX, '') : normalise(x)).trim());
  for (const part of parts) {
    if (part === '') continue;
    const kv = keyOf(part);
    if (kv && !LIST_KINDS.has(kv.kind)) {
      context = kv.kind;
      value(no, raw, f, kv.kind, kv.rest);
      continue;
    }
    const pieces = (kv ? kv.rest : part)
      .split(SPLIT_ASCII)
      .flatMap((x) => x.split(SPLIT_SPACE))
      .map((x) => x.trim())
      .filter(Boolean);
    if (kv) {
      context = kv.kind;
      value(no, raw, f, kv.kind, pieces.shift() ?? '');
    }
    for (const piece of pieces) {
      const k = keyOf(piece);
      if (k) value(no, raw, f, k.kind, k.rest);
      // a piece without a key of its own is an item ("CUDA 11.2", "6G显存", "驱动 472.12"), else more of the value before
      else if (!item(no, raw, f, piece) && context === 'install') value(no, raw, f, context, piece);
    }
  }
}

const LIST_KINDS: ReadonlySet<Kind> = new Set(['gpu', 'env', 'os']);

function keyOf(seg: string): { kind: Kind; rest: string } | null {
  const squashed = seg.toLowerCase();
  for (const [key, kind] of KEYS) {
    // compare without spaces ("CUDA 版本" = "cuda版本"), then find where the key ends in the original
    let i = 0;
    let j = 0;
    while (i < squashed.length && j < key.length) {
      if (squashed[i] === ' ') i++;
      else if (squashed[i] === key[j]) {
        i++;
        j++;
      } else break;
    }
    if (j < key.length) continue;
    const rest = seg.slice(i);
    // a key must end at a separator, a space, a CJK word or a digit ("驱动版本472.12"); "cuda" in "cudatoolkit" is not the
    // key "cuda"
    const m = /^\s*(?:[:=]|是|为|為|用的是|使用)?\s*/.exec(rest)!;
    const after = rest.slice(m[0].length);
    if (m[0].length === 0 && /^[a-z]/i.test(after) && /[a-z]$/i.test(key)) continue;
    // "系统找不到指定的路径" is a sentence, not the key 系统: a key runs into Chinese text only after a separator
    if (!/[:=是为為用使]/.test(m[0]) && /^[\u3400-\u9fff]/.test(after)) continue;
    return { kind, rest: after };
  }
  return null;
}

function value(no: number, text: string, f: EnvironmentFacts, kind: Kind, v: string): void {
  const s = v.trim();
  if (s === '' || /^(?:无|无关|不详|未知|n\/?a|none|unknown|-|\?)$/i.test(s)) return;
  const version = VERSION.exec(s)?.[0];
  switch (kind) {
    case 'gpu':
      if (!item(no, text, f, s, 'gpu')) addGpu(f, s, no, text);
      break;
    case 'vram': {
      const mem = memMiB(s);
      const g = f.gpus[f.gpus.length - 1];
      if (mem !== undefined && g) g.totalMiB ??= mem;
      break;
    }
    case 'driver': {
      if (version) set(f, 'driver', fact(version, no, text));
      else if (/^\d{3}$/.test(s)) set(f, 'driver', fact(s, no, text));
      // "512.78（CUDA 11.6）": what the driver supports, as nvidia-smi's header says it
      const dc = /\(\s*CUDA\s*(?:version\s*:?\s*)?(\d+\.\d+)/i.exec(s);
      if (dc) set(f, 'driverCuda', fact(dc[1]!, no, text));
      break;
    }
    case 'cuda_cudnn': {
      const parts = s.split(/\s*\/\s*|\s+和\s+|\s+and\s+/);
      const c = VERSION.exec(parts[0] ?? '')?.[0] ?? (/^\d+$/.test(parts[0] ?? '') ? parts[0] : undefined);
      const d = VERSION.exec(parts[1] ?? '')?.[0] ?? (/^\d+$/.test(parts[1] ?? '') ? parts[1] : undefined);
      if (c) set(f, 'cuda', fact(c, no, text));
      if (d) set(f, 'cudnn', fact(d, no, text));
      break;
    }
    case 'cuda': {
      const c = version ?? (/^\d+$/.test(s) ? s : undefined);
      if (!c) break;
      // "12.2（nvidia-smi 显示）", "驱动支持的 CUDA 12.2": the driver's CUDA, not an installed toolkit
      if (/nvidia-smi|驱动|driver/i.test(s)) set(f, 'driverCuda', fact(c, no, text));
      else set(f, 'cuda', fact(c, no, text));
      if (/container|docker|容器/i.test(s)) set(f, 'container', fact('container', no, text));
      break;
    }
    case 'cudnn': {
      const c = version ?? (/^\d$/.test(s) ? s : undefined);
      if (c) set(f, 'cudnn', fact(c, no, text));
      break;
    }
    case 'os':
      if (!/[a-z0-9]/i.test(s)) break;
      set(f, 'os', fact(osName(s), no, text));
      if (/\b(?:colab|kaggle)\b/i.test(s)) addWord(f, /kaggle/i.test(s) ? 'kaggle' : 'colab', no, text);
      // "系统环境：win10，python3.8": the rest of the value may hold more items
      for (const part of s.split(/\s+(?=python|cuda|cudnn)/i).slice(1)) item(no, text, f, part);
      break;
    case 'python':
      if (version) set(f, 'python', fact(version, no, text));
      break;
    case 'framework': {
      const fw = frameworkWordZh(s);
      if (fw) setFramework(f, fw, s, no, text);
      break;
    }
    case 'tensorflow':
    case 'pytorch':
    case 'paddle':
    case 'jax':
    case 'keras':
      setFramework(f, kind, s, no, text);
      break;
    case 'install':
      // the words reader.ts's addInstall knows
      for (const w of new Set(s.toLowerCase().match(INSTALL_WORDS) ?? [])) addWord(f, w, no, text);
      if (/源码|编译/.test(s)) addWord(f, 'source', no, text);
      if (/docker|容器/i.test(s)) set(f, 'container', fact('container', no, text));
      break;
    case 'container':
      set(f, 'container', fact('container', no, text));
      break;
    case 'note':
      if (f.notes.length < MAX_NOTES) f.notes.push(fact(s, no, text));
      if (/docker|容器|kubernetes|k8s/i.test(s)) set(f, 'container', fact('container', no, text));
      break;
    case 'env':
      if (!item(no, text, f, s)) break;
      break;
  }
}

/** The release in a framework value: the last plain version, with a +cu113 / .post120 tag ("2.5.2.post117"). */
function frameworkVersion(v: string): string | undefined {
  const vs = v.replace(/\([^)]*\)/g, ' ').match(/\d+\.\d+(?:\.\d+)?(?:\.post\d+|\+[\w.]+)?/g);
  return vs?.[vs.length - 1];
}

/** "tensorflow-gpu2.6", "飞桨 2.5.2.post117": 1 the framework's word, 2 its release */
const FRAMEWORK_VERSION = regexOf(
  [
    /^(paddlepaddle(?:[-_]gpu)?|paddle|飞桨|tensorflow(?:-gpu)?|tf|pytorch|torch|jaxlib|jax|keras|mxnet)/,
    /\s*(?:版本)?\s*(?:==|=|:)?\s*/, // "版本", "==", ":" between them
    /v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+|\+[\w.]+)?)/,
  ],
  'i',
);
/** "win10", "Ubuntu 20.04", "WSL2": an operating system's name */
const OS_VALUE = regexOf(
  [
    '^(?:',
    eitherOf([
      /win(?:dows)?\s*(?:\d{1,2}|xp|server)?/,
      /ubuntu\s*[\d.]*|centos\s*[\d.]*|debian\s*[\d.]*|linux/,
      /macos\s*[\d.]*|wsl2?(?:\s*\S+)?/,
    ]),
    ')\\b',
  ],
  'i',
);
/** "RTX 3060", "GeForce GTX 1080 Ti", "A100": a GPU's name */
const GPU_VALUE = regexOf(
  [
    /^(?:nvidia\s*)?(?:geforce\s*)?/,
    '(?:',
    eitherOf([
      /rtx|gtx|gt|mx|quadro|tesla|titan/, // product lines
      /a100|a800|h100|h800|h200|v100|p100|p40|p4|t4|a10|a30|a40|l4|l40s?|k80/, // data-centre boards
      /jetson/,
    ]),
    ')',
    /\s*\w*/,
  ],
  'i',
);

/**
 * One item without a key of its own: "CUDA11.2", "cuDNN 8.1", "Python3.8", "tensorflow-gpu2.6", "win10",
 * "RTX 3060 6G", "驱动 472.12", "6G显存", "docker". `hint` says what the surrounding key announced.
 * Returns whether it recognised the item.
 */
function item(no: number, text: string, f: EnvironmentFacts, seg: string, hint?: 'gpu'): boolean {
  const s = seg.trim();
  let m: RegExpExecArray | null;
  if ((m = /^(?:cuda\s*\/\s*cudnn)\s*(?:版本)?\s*:?\s*(.+)$/i.exec(s))) {
    value(no, text, f, 'cuda_cudnn', m[1]!);
    return true;
  }
  if ((m = /^cudnn\s*(?:版本)?\s*[:=]?\s*v?(\d+(?:\.\d+)*)/i.exec(s))) {
    set(f, 'cudnn', fact(m[1]!, no, text));
    return true;
  }
  if ((m = /^(?:cuda\s*(?:toolkit)?|cudatoolkit)\s*(?:版本)?\s*[:=]?\s*v?(\d+(?:\.\d+)+|\d{2}\b)/i.exec(s))) {
    value(no, text, f, 'cuda', /nvidia-smi|驱动/i.test(s) ? `${m[1]} (driver)` : m[1]!);
    return true;
  }
  if ((m = /^python\s*(?:版本)?\s*[:=]?\s*v?(\d\.\d+(?:\.\d+)?)/i.exec(s))) {
    set(f, 'python', fact(m[1]!, no, text));
    return true;
  }
  if ((m = FRAMEWORK_VERSION.exec(s))) {
    const fw = frameworkWordZh(m[1]!);
    if (fw) setFramework(f, fw, s.slice(m[1]!.length), no, text);
    return true;
  }
  if ((m = /^(?:驱动|显卡驱动|driver)\s*(?:版本)?\s*[:=]?\s*(\d{3}(?:\.\d+)+|\d{3}\b)/i.exec(s))) {
    set(f, 'driver', fact(m[1]!, no, text));
    return true;
  }
  if (
    (m = /^(?:显存\s*[:=]?\s*)?(\d+(?:\.\d+)?\s*(?:G|GB|GiB|M|MB))\s*(?:显存)?$/i.exec(s)) &&
    (hint === 'gpu' || /显存/.test(s) || f.gpus.length > 0)
  ) {
    const g = f.gpus[f.gpus.length - 1];
    const mem = memMiB(m[1]!);
    if (g && mem !== undefined) g.totalMiB ??= mem;
    return g !== undefined;
  }
  if (OS_VALUE.test(s) && !/^windows\s+subsystem/i.test(s)) {
    set(f, 'os', fact(osName(s), no, text));
    if (/^wsl/i.test(s)) set(f, 'os', fact('Windows (WSL2)', no, text));
    return true;
  }
  if (GPU_VALUE.test(s) || hint === 'gpu') {
    addGpu(f, s, no, text);
    return true;
  }
  if ((m = /^(docker|容器|kubernetes|k8s)/i.exec(s)) || /在\s*docker/i.test(s)) {
    set(f, 'container', fact('container', no, text));
    if (m && /^(docker|kubernetes)$/i.test(m[1]!)) addWord(f, m[1]!.toLowerCase(), no, text);
    return true;
  }
  if ((m = /^(pip|conda|anaconda|miniconda|mamba)\b/i.exec(s))) {
    addWord(f, /conda/i.test(m[1]!) ? 'conda' : m[1]!.toLowerCase(), no, text);
    return true;
  }
  return false;
}

// --- list rows and Paddle lines (any locale) ------------------------------------------------------------------

function other(no: number, t: string, f: EnvironmentFacts): void {
  let m: RegExpExecArray | null;
  // conda list: "pytorch 1.12.1 py3.9_cuda11.3_cudnn8.3.2_0 pytorch": the build string names CUDA and the bundled cuDNN
  if ((m = /^\s*pytorch\s+(\d+\.\d+(?:\.\d+)?)\s+(\S+)/i.exec(t))) {
    setFramework(f, 'pytorch', m[1]!, no, t);
    const cu = /cuda(\d+)\.(\d+)/.exec(m[2]!);
    if (cu) set(f, 'buildCuda', fact(`${cu[1]}.${cu[2]}`, no, t));
    const dnn = /cudnn(\d+\.\d+(?:\.\d+)?)/.exec(m[2]!);
    if (dnn) set(f, 'cudnn', fact(dnn[1]!, no, t));
    return;
  }
  // conda list: "python  3.8.13  h6244533_0_cpython"
  if ((m = /^\s*python\s+(\d+\.\d+\.\d+)\s+\S/i.exec(t))) {
    set(f, 'python', fact(m[1]!, no, t));
    return;
  }
  // pip/conda rows and requirement lines: "paddlepaddle-gpu 2.5.2.post117", "paddlepaddle-gpu==2.6.1"
  if (
    (m = /^\s*(?:[-*•]\s*)?paddlepaddle([-_]gpu)?\s*(?:==|\s)\s*(\d+\.\d+(?:\.\d+)?(?:\.post\d+|(?:a|b|rc)\d+)?)/i.exec(
      t,
    ))
  ) {
    setFramework(f, 'paddle', m[2]!, no, t);
    return;
  }
  if ((m = /^\s*(?:[-*•]\s*)?paddle(?:paddle)?\s+version\s*[:=]\s*(.+)$/i.exec(t))) {
    setFramework(f, 'paddle', m[1]!, no, t);
    return;
  }
  // Paddle's banner: "Please NOTE: device: 0, GPU Compute Capability: 7.5, Driver API Version: 11.6, Runtime API
  // Version: 11.8"
  if ((m = /Driver API Version: (\d+\.\d+), Runtime API Version: (\d+\.\d+)/.exec(t))) {
    set(f, 'driverCuda', fact(m[1]!, no, t));
    set(f, 'cuda', fact(m[2]!, no, t));
    setFramework(f, 'paddle', undefined, no, t);
    const cc = /GPU Compute Capability: (\d+\.\d+)/.exec(t);
    const g = f.gpus[f.gpus.length - 1];
    if (cc && g) g.computeCapability ??= cc[1]!;
    return;
  }
  if ((m = /device: \d+, cuDNN Version: (\d+\.\d+)/.exec(t))) {
    set(f, 'cudnn', fact(m[1]!, no, t));
    setFramework(f, 'paddle', undefined, no, t);
  }
}

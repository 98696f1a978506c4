// The terminal's one wrapper fits every line to the width: a path, a URL or a library path list longer than a line is
// broken at its own separators (after / \ : ? & = . _ -), cut hard only in a run without one, and nothing is added or
// removed, so the pieces joined give the token back. A command after "$ " stays whole when it fits; else it is broken
// before an argument with " \" (bash reads it back as the same words) and its note becomes a comment line.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { cutWord, displayWidth, fitCommandLine, wrap } from '../../src/report/layout.js';
import { fitToWidth } from '../../src/report/fit.js';
import { wordsFor } from '../../src/base/i18n/index.js';
import { runCli } from '../helpers/cli.js';

const en = wordsFor('en');
const zh = wordsFor('zh');
const SGR = /\x1b\[[0-9;]*m/g;
const plain = (s: string) => s.replace(SGR, '');
const GUTTER = '    │ ';
const HANG = '    │   ';
const WIDTHS = [40, 60, 80, 100];

/** the text of wrapped lines without their prefixes, each line's piece in order */
function pieces(lines: string[], first: string, rest: string): string[] {
  return lines.map((l, i) => {
    const p = i === 0 ? first : rest;
    expect(l.startsWith(p), `line ${i} starts with its prefix: ${l}`).toBe(true);
    return l.slice(p.length);
  });
}

// corpus dev3 tj-009: the loader's LD_LIBRARY_PATH, as the evidence line shows it
const LD_PATH = '/opt/cudnn/lib64:/usr/local/cuda//lib64:/opt/cudnn/lib64:/usr/local/cuda/lib64';
const WINDOWS =
  "'C:\\Users\\junpa\\.conda\\envs\\avatarify\\lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll' or one of its " +
  'dependencies.';
const WIN_PATH = 'C:\\Users\\junpa\\.conda\\envs\\avatarify\\lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll';
const URL =
  'https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html' +
  '#group__CUDART__TYPES_1g3f51e3575c2178246db0a94a430e0038';
const QUERY_URL =
  'https://example.com/search?q=cudnn+version+mismatch&framework=tensorflow&version=2.15.0&page=2&lang=en';
const CJK =
  '在尝试运行文本分类教程“https://fastnlp.readthedocs.io/zh/latest/tutorials/%E6%96%87%E6%9C%AC%E5%88%86%E7%B1%BB.html”' +
  '的时候报错，在其他程序中验证过GPU可以使用GPU加速，但是这里会完成一个epoch之后报CUDA error: an illegal memory access';
const NO_SEPARATOR = Array.from({ length: 300 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789'[(i * 7) % 36]).join(
  '',
);

describe('a token longer than the line', () => {
  it.each(WIDTHS)('the LD_LIBRARY_PATH list at %i columns: every line fits, the pieces give it back', (width) => {
    const text = `open shared object file: No such file or directory; LD_LIBRARY_PATH: ${LD_PATH}`;
    const lines = wrap(en, text, width, GUTTER, HANG);
    for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(width);
    const got = pieces(lines, GUTTER, HANG);
    // nothing added or removed: the pieces without the spaces the wrap turned into line ends are the text
    expect(got.join('').replaceAll(' ', '')).toBe(text.replaceAll(' ', ''));
    // the list is broken only after one of its own separators
    const start = got.findIndex((p) => p.includes('/opt/cudnn'));
    const listLines = got.slice(start);
    expect(listLines.join('').endsWith(LD_PATH)).toBe(true);
    for (const p of listLines.slice(0, -1)) expect(p, `piece ${p}`).toMatch(/[/:.\\_-]$/);
  });

  it('the LD_LIBRARY_PATH list at 80 columns breaks after a colon or a slash, as a reader expects', () => {
    const lines = wrap(en, LD_PATH, 80, GUTTER, HANG);
    expect(lines).toEqual([
      `${GUTTER}/opt/cudnn/lib64:/usr/local/cuda//lib64:/opt/cudnn/lib64:/usr/local/cuda/`,
      `${HANG}lib64`,
    ]);
  });

  it.each(WIDTHS)('a Windows path at %i columns breaks after its backslashes', (width) => {
    const lines = wrap(en, WINDOWS, width, GUTTER, HANG);
    for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(width);
    const got = pieces(lines, GUTTER, HANG);
    expect(got.join('').replaceAll(' ', '')).toBe(WINDOWS.replaceAll(' ', ''));
    const alone = wrap(en, WIN_PATH, width, GUTTER, HANG);
    expect(pieces(alone, GUTTER, HANG).join('')).toBe(WIN_PATH);
    if (alone.length > 1) for (const p of pieces(alone, GUTTER, HANG).slice(0, -1)) expect(p).toMatch(/[\\._-]$/);
  });

  it.each(WIDTHS)('URLs at %i columns: after "://" never inside it, at / ? & = in the query', (width) => {
    for (const url of [URL, QUERY_URL]) {
      const lines = wrap(en, `see ${url} for the codes`, width, '  ', '    ');
      for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(width);
      const got = pieces(lines, '  ', '    ');
      expect(got.join('').replaceAll(' ', '')).toBe(`see${url}forthecodes`);
      // "https:" and "//" stay together
      expect(got.some((p) => p.endsWith('https:') || p.endsWith('https:/'))).toBe(false);
    }
  });

  it.each(WIDTHS)('a Chinese line with a URL at %i columns, wide characters counted two, in zh and en', (width) => {
    for (const words of [zh, en]) {
      const lines = wrap(words, CJK, width, GUTTER, HANG);
      for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(width);
      expect(pieces(lines, GUTTER, HANG).join('').replaceAll(' ', '')).toBe(CJK.replaceAll(' ', ''));
      // no line starts with closing punctuation
      for (const p of pieces(lines, GUTTER, HANG).slice(1)) expect(p).not.toMatch(/^[，。：；）」”]/);
    }
  });

  it.each(WIDTHS)('300 characters without a separator at %i columns are cut at the width, nothing lost', (width) => {
    const lines = wrap(en, NO_SEPARATOR, width, GUTTER, HANG);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(width);
    expect(pieces(lines, GUTTER, HANG).join('')).toBe(NO_SEPARATOR);
    // cut hard: every line but the last is full
    for (const l of lines.slice(0, -1)) expect(displayWidth(l)).toBe(width);
    expect(lines.length).toBe(1 + Math.ceil((300 - (width - displayWidth(GUTTER))) / (width - displayWidth(HANG))));
  });

  it('a word that fits a line is never cut: it moves to the next line whole', () => {
    const path = '/usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so';
    const lines = wrap(en, `could not load ${path} at import`, 80, '', '  ');
    expect(lines.some((l) => l.startsWith(`  ${path}`))).toBe(true);
  });

  it('a long token starts after text on its line when a fair piece of it fits there', () => {
    const lines = wrap(en, `LD_LIBRARY_PATH: ${LD_PATH}`, 60, '', '  ');
    expect(lines[0]!.startsWith('LD_LIBRARY_PATH: /opt/cudnn/')).toBe(true);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(60);
  });

  it("a long token after a table's padding starts on a line of its own", () => {
    const path = '/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcudart.so.13';
    const lines = wrap(en, `libcudart.so.13${' '.repeat(25)}${path}   13.0.96   rpath`, 60, '  ', '    ');
    expect(lines[0]).toBe('  libcudart.so.13');
    expect(lines[1]!.startsWith('    /opt/torch/')).toBe(true);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(60);
  });

  it('in colour, the pieces keep their colour and the visible text is the token', () => {
    const c = pc.createColors(true);
    const lines = wrap(en, `${c.dim(LD_PATH)}`, 50, GUTTER, HANG);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(50);
    expect(pieces(lines.map(plain), GUTTER, HANG).join('')).toBe(LD_PATH);
    // the continuation opens the dim colour again
    for (const l of lines.slice(1)) expect(l.slice(HANG.length).startsWith('\x1b[2m')).toBe(true);
  });

  it('cutWord prefers a path separator to a nearer dot, and never breaks before the first letter', () => {
    // the slash at 11 of 24 columns wins over the underscore at 18; at 3 columns, the underscore far on wins
    expect(cutWord('tensorflow/stream_executor/platform', 24, false)).toEqual([
      'tensorflow/',
      'stream_executor/platform',
    ]);
    expect(cutWord('tf/stream_executor_platform/cuda', 24, false)).toEqual(['tf/stream_executor_', 'platform/cuda']);
    expect(cutWord('--query-compute-apps', 3, false)).toEqual(['', '--query-compute-apps']);
    expect(cutWord('abcdef', 4, true)).toEqual(['abcd', 'ef']);
  });

  it('check-style output laid out line by line (fitToWidth) fits too', () => {
    const text = `  ✗ libcudnn.so.8 not found in ${LD_PATH}:${LD_PATH}`;
    const out = fitToWidth(en, text, 60).split('\n');
    for (const l of out) expect(displayWidth(l)).toBeLessThanOrEqual(60);
    expect(out.join('').replaceAll(' ', '')).toBe(text.replaceAll(' ', ''));
  });
});

/** the words bash reads from `text` (a command as pasted: its lines, continuation and comments included) */
function bashWords(text: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cmdline-'));
  const file = path.join(dir, 'pasted.sh');
  // the pasted command's first word replaced by a function that prints each word it gets
  fs.writeFileSync(file, `words() { printf '<%s>\\n' "$@"; }\n${text.replace(/^\S+/, 'words')}\n`);
  const r = spawnSync('bash', [file], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  expect(r.stderr).toBe('');
  return r.stdout.trimEnd().split('\n');
}

/** what a user copies: the lines after the "$ " prompt, the prompt left out */
function pasted(lines: string[]): string {
  return lines.map((l, i) => (i === 0 ? l.replace(/^\s*\$ /, '') : l)).join('\n');
}

describe('a command to copy', () => {
  const long = 'nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv';

  it('stays whole on one line when it fits, whatever follows it', () => {
    expect(fitCommandLine(`      $ ${long}`, 100)).toEqual([`      $ ${long}`]);
    // the note moves to a comment line of its own; the command is not broken
    const cmd = 'pip install nvidia-cudnn-cu12==8.9.*';
    const lines = fitCommandLine(`      $ ${cmd}    # or: conda install -c conda-forge cudnn`, 60);
    expect(lines).toEqual([`      $ ${cmd}`, '        # or: conda install -c conda-forge cudnn']);
    expect(bashWords(pasted(lines))).toEqual(bashWords(cmd));
  });

  it.each([56, 60, 80, 100])(
    'too long for %i columns: broken before an argument with " \\", bash reads the same',
    (w) => {
      const cmd = `${long} --id=0,1,2,3 --loop-ms=500 --filename=/tmp/gpu-env-doctor/compute-apps.csv`;
      const lines = fitCommandLine(`  $ ${cmd}`, w);
      expect(lines.length).toBeGreaterThan(1);
      for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(w);
      for (const l of lines.slice(0, -1)) expect(l.endsWith(' \\')).toBe(true);
      expect(bashWords(pasted(lines))).toEqual(bashWords(cmd));
    },
  );

  it('never breaks inside quotes; an argument longer than the line stays whole on its own line', () => {
    const cmd = `python -c "import torch; print(torch.cuda.get_device_capability(), torch.cuda.get_arch_list())"`;
    const lines = fitCommandLine(`      $ ${cmd}`, 80);
    expect(lines).toEqual([
      '      $ python -c \\',
      `          "import torch; print(torch.cuda.get_device_capability(), torch.cuda.get_arch_list())"`,
    ]);
    expect(bashWords(pasted(lines))).toEqual(bashWords(cmd));
  });

  it('a long note is wrapped as comment lines; the command and its words are unchanged', () => {
    const cmd = 'pip install "tensorflow[and-cuda]"';
    const note = '# TF 2.14+: brings matching CUDA and cuDNN wheels, the cuXX of the build, from PyPI';
    const lines = fitCommandLine(`  $ ${cmd}   ${note}`, 50);
    expect(lines[0]).toBe(`  $ ${cmd}`);
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {4}# /);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(50);
    expect(bashWords(pasted(lines))).toEqual(bashWords(cmd));
  });

  it('a Windows command is never broken with a backslash (cmd and PowerShell do not read it)', () => {
    const cmd = 'where.exe cudart64_*.dll cudnn64_*.dll cublas64_*.dll cublasLt64_*.dll';
    expect(fitCommandLine(`      $ ${cmd}`, 60)).toEqual([`      $ ${cmd}`]);
    const ps = '$env:PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True,garbage_collection_threshold:0.6"';
    expect(fitCommandLine(`  $ ${ps}`, 60)).toEqual([`  $ ${ps}`]);
  });

  it('in colour, the prompt keeps its colour and the broken lines fit', () => {
    const c = pc.createColors(true);
    const lines = fitCommandLine(`    ${c.dim('$')} ${long}   ${c.dim('# who holds memory')}`, 56);
    expect(lines[0]!.startsWith(`    ${c.dim('$')} nvidia-smi`)).toBe(true);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(56);
    expect(bashWords(pasted(lines.map(plain)))).toEqual(bashWords(long));
  });

  it('prose is not a command and comes back as it is', () => {
    const prose = `${'word '.repeat(20)}`;
    expect(fitCommandLine(prose, 40)).toEqual([prose]);
  });
});

describe('explain on the corpus report with the LD_LIBRARY_PATH line (dev3 tj-009)', () => {
  const report = JSON.parse(
    fs.readFileSync(path.resolve(__dirname, '../fixtures/corpus/dev3/tj-009.json'), 'utf8'),
  ) as { log: string; env_text: string };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tj009-'));
  const log = path.join(dir, 'tj-009.log');
  fs.writeFileSync(log, `${report.log}\n\n${report.env_text}\n`);

  it.each([
    [60, 'en'],
    [80, 'en'],
    [100, 'en'],
    [60, 'zh'],
    [80, 'zh'],
  ] as const)('at %i columns (%s) every line fits and the list reads back from its lines', (width, lang) => {
    const r = runCli(['explain', log, '--no-machine', '--lang', lang], { env: { COLUMNS: String(width) } });
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    // the one line allowed over: a command's line holding one argument longer than any line (a URL after -f)
    let continued = false;
    for (const l of lines) {
      const command: boolean = continued || /^\s*(?:\S+\s+)?\$ /.test(l);
      continued = command && l.endsWith(' \\');
      const words = l
        .replace(/^\s*(?:\S+\s+)?\$ /, '')
        .replace(/ \\$/, '')
        .trim();
      if (command && /^(?:"[^"]*"|'[^']*'|\S+)$/.test(words)) continue;
      expect(displayWidth(l), l).toBeLessThanOrEqual(width);
    }
    // the evidence lines under the gutter, joined without the gutter, hold the list whole
    const evidence = lines.filter((l) => l.startsWith('    │ ')).map((l) => l.replace(/^ {4}│ {1,3}/, ''));
    expect(evidence.join('')).toContain(LD_PATH);
  });
});

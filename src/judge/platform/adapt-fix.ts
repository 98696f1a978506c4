// A fix written for a Linux shell, made right for where the job runs. On Linux nothing changes. On native
// Windows every command is re-rendered for cmd and PowerShell (src/judge/platform/shell-syntax.ts), bash-only lines
// are replaced or dropped, and what only Windows has is said: the DLL a log names and what provides it, PATH
// instead of LD_LIBRARY_PATH, conda's Library\bin, taskkill, TensorFlow's end of native GPU support after 2.10,
// JAX's Linux-only CUDA wheels. Under WSL2 the shell is bash, but the driver belongs to Windows.
import type { RootCauseId } from '../../knowledge/root-causes.js';
import { parseBashAction, render, renderFor, type FixAction, type Platform } from './shell-syntax.js';
import {
  condaLibraryBin,
  dllInfo,
  dllSearchOrder,
  dllSentence,
  jaxOnWindows,
  processesOnWindows,
  tensorflowHasWindowsGpu,
  tensorflowOnWindows,
  tensorflowWindowsBuild,
  torchExpandableSegmentsOnWindows,
  windowsDriverFor,
  wslFact,
} from './windows.js';
import { joinList, t } from '../../base/i18n/index.js';
import { eitherOf, regexOf } from '../../base/regex.js';

export interface PlatformFix {
  text: string;
  commands: string[];
  manual?: string[];
}

export interface AdaptContext {
  /** the root cause the fix is for, when known */
  cause?: RootCauseId | null;
  /** 'tf' | 'torch' | 'jax' | 'paddle' | 'other' */
  family?: string;
  /** the framework version the log or machine states ("2.12.0") */
  frameworkVersion?: string;
  /** DLL names the log printed, most relevant first */
  dlls?: readonly string[];
}

/** The fix for `platform`; the same object back on Linux. */
export function adaptFix<F extends PlatformFix>(fix: F, platform: Platform, ctx: AdaptContext = {}): F {
  if (platform === 'linux') return fix;
  return platform === 'wsl' ? forWsl(fix, ctx) : forWindows(fix, ctx);
}

// --- WSL2: bash stays; the driver, its kernel module and libcuda belong to the Windows host -------------------

const LINUX_DRIVER_STEP = regexOf(
  [
    '\\b(?:',
    eitherOf([
      /apt(?:-get)? install nvidia-driver/, // installing a driver
      /modprobe nvidia|rmmod nvidia|dkms autoinstall/, // its kernel module
      /nvidia-smi -pm 1|nvidia-smi -r\b/, // persistence mode, a GPU reset
      /sudo reboot|reboot the machine/,
      /install a newer nvidia driver/,
    ]),
    ')',
  ],
  'i',
);

function forWsl<F extends PlatformFix>(fix: F, ctx: AdaptContext): F {
  const driver = wslFact('driver');
  const manual = fix.manual ?? [];
  const linuxSteps = manual.filter((m) => LINUX_DRIVER_STEP.test(m));
  const driverCause =
    ctx.cause === 'driver_too_old' || ctx.cause === 'hardware_or_driver_fault' || ctx.cause === 'no_device_visible';
  if (linuxSteps.length === 0 && !driverCause) return fix;
  const kept = manual.filter((m) => !LINUX_DRIVER_STEP.test(m));
  const wslSteps =
    linuxSteps.length > 0 || ctx.cause === 'driver_too_old' || ctx.cause === 'hardware_or_driver_fault'
      ? [t('win.wslDriver')]
      : [];
  const note = driver ? `WSL2: ${driver.text}` : '';
  const libcuda = ctx.cause === 'no_device_visible' || ctx.cause === 'library_missing' ? wslFact('libcuda') : null;
  // for the driver's causes the Windows driver is the answer under WSL: its fact is the fix's first sentence
  const lead = driverCause && note ? [note] : [];
  return {
    ...fix,
    text: joinList(
      [...lead, fix.text, ...(note && lead.length === 0 ? [note] : []), ...(libcuda ? [libcuda.text] : [])],
      'sentence',
    ),
    commands:
      ctx.cause === 'no_device_visible' || ctx.cause === 'library_missing'
        ? dedupe([...fix.commands, 'ls -l /usr/lib/wsl/lib/libcuda.so*'])
        : fix.commands,
    manual: [...wslSteps, ...kept],
  };
}

// --- native Windows ---------------------------------------------------------------------------------------------

function forWindows<F extends PlatformFix>(fix: F, ctx: AdaptContext): F {
  const notes: string[] = [];
  const commands: string[] = [];
  // TensorFlow past its last native-Windows GPU release: that sentence answers the failure, so it comes first
  const lead: string[] = [];
  const leadCommands: string[] = [];
  const dlls = (ctx.dlls ?? []).map((d) => dllInfo(d)).filter((d) => d !== null);
  let shellNote = false;
  let tfNote = false;
  const addTf = () => {
    if (tfNote) return;
    tfNote = true;
    // a TensorFlow that has a native Windows GPU build: the CUDA and cuDNN it was tested with, from conda
    const own = tensorflowHasWindowsGpu(ctx.frameworkVersion) ? tensorflowWindowsBuild(ctx.frameworkVersion!) : null;
    if (own) {
      notes.push(t('win.tfTested', { series: own.series, cuda: own.cuda, cudnn: own.cudnn }));
      commands.push(`conda install -c conda-forge cudatoolkit=${own.cuda} cudnn=${own.cudnn}`);
      return;
    }
    const tf = tensorflowOnWindows();
    (tfNoGpu ? lead : notes).push(
      tf.text,
      t('win.tfSetup', { version: tf.lastGpu, cuda: tf.cuda ?? '?', cudnn: tf.cudnn ?? '?' }),
    );
    (tfNoGpu ? leadCommands : commands).push(...tf.commands);
  };
  // TensorFlow after 2.10 cannot use the GPU on native Windows: installing another CUDA or cuDNN does not help it
  const tfNoGpu =
    ctx.family === 'tf' && tensorflowHasWindowsGpu(ctx.frameworkVersion) === false && isVersionCause(ctx.cause);
  for (const cmd of fix.commands) {
    const a = parseBashAction(cmd);
    if (a && a.kind === 'install' && tfNoGpu) continue;
    if (a) {
      const out = windowsAction(a, ctx, notes, addTf);
      if (
        out.length > 0 &&
        (a.kind === 'set-env' || a.kind === 'unset-env' || a.kind === 'show-env' || a.kind === 'prepend-library-path')
      )
        shellNote = true;
      commands.push(...out);
      continue;
    }
    commands.push(
      ...windowsLine(
        cmd,
        dlls.map((d) => d.dll),
        ctx,
      ),
    );
  }
  if (tfNoGpu) addTf();
  if (ctx.family === 'jax' && isVersionCause(ctx.cause)) notes.push(jaxOnWindows().text);
  if (
    dlls.length > 0 &&
    (ctx.cause === 'library_missing' ||
      ctx.cause === 'cudnn_version_mismatch' ||
      ctx.cause === 'cuda_toolkit_mismatch' ||
      ctx.cause === 'library_conflict')
  ) {
    notes.push(...dlls.map(dllSentence));
    notes.push(condaLibraryBin().text);
    const find = dlls.filter((d) => d.dll !== 'nvcuda.dll').map((d) => `where.exe ${d.dll}`);
    commands.unshift(...find);
  }
  if (ctx.cause === 'library_missing' || ctx.cause === 'library_conflict') notes.push(dllSearchOrder().text);
  if (ctx.cause === 'library_conflict' && dlls.length === 0) commands.unshift('where.exe cudnn64_*.dll cudart64_*.dll');
  if (shellNote) notes.push(t('win.shells'));
  const manual = (fix.manual ?? []).map((m) => windowsManual(m)).filter((m): m is string => m !== null);
  // `gpu-env-doctor fix` showed each process before ending it; without it, tasklist shows whose it is first
  if (fix.commands.some((c) => /^gpu-env-doctor fix\b/.test(c))) {
    for (const m of fix.manual ?? [])
      for (const k of m.matchAll(/(?:^|[\s`;])kill (\d+)\b/g))
        commands.push(render({ kind: 'show-process', pid: Number(k[1]) }, 'cmd'));
  }
  if ((fix.manual ?? []).some((m) => /\bkill\b/.test(m))) notes.push(processesOnWindows().text);
  const base = fix.text
    .replace(/LD_LIBRARY_PATH \(PATH on Windows\)|LD_LIBRARY_PATH（Windows 上是 PATH）/g, 'PATH')
    .replace(/\bLD_LIBRARY_PATH\b/g, 'PATH')
    // libs reads ELF files and the ld cache: on Windows where.exe lists the copies in the order they are found
    .replace(
      /Check which copy loads with gpu-env-doctor libs\.|用 gpu-env-doctor libs 查看实际加载的是哪一份。/,
      t('win.whereCopies', { dll: dlls.find((d) => /^cudnn/.test(d.dll))?.dll ?? 'cudnn64_*.dll' }),
    );
  const text = joinList([...lead, base, ...notes], 'sentence');
  const result = { ...fix, text, commands: dedupe([...leadCommands, ...commands]) };
  if (fix.manual !== undefined || manual.length > 0) result.manual = dedupe(manual);
  return result;
}

function isVersionCause(c: RootCauseId | null | undefined): boolean {
  return (
    c === 'cudnn_version_mismatch' ||
    c === 'cuda_toolkit_mismatch' ||
    c === 'library_missing' ||
    c === 'gpu_arch_unsupported' ||
    c === 'no_device_visible' ||
    c === 'framework_bug'
  );
}

function windowsAction(a: FixAction, ctx: AdaptContext, notes: string[], addTf: () => void): string[] {
  switch (a.kind) {
    case 'set-env':
      if (a.name === 'LD_LIBRARY_PATH' || a.name === 'LD_PRELOAD') return [];
      if (/^PYTORCH_(CUDA_)?ALLOC_CONF$/.test(a.name) && /expandable_segments/.test(a.value)) {
        notes.push(torchExpandableSegmentsOnWindows().text);
        return [];
      }
      // the bash line stays (Git Bash), beside cmd's and PowerShell's
      return [render(a, 'bash'), ...renderFor(a, 'windows')];
    case 'unset-env':
      return a.name === 'LD_LIBRARY_PATH' || a.name === 'LD_PRELOAD'
        ? []
        : [render(a, 'bash'), ...renderFor(a, 'windows')];
    case 'show-env':
      return renderFor(a.name === 'LD_LIBRARY_PATH' ? { kind: 'show-env', name: 'PATH' } : a, 'windows');
    case 'prepend-library-path':
      // a Linux folder means nothing on Windows; a Windows folder goes on PATH
      return /^[A-Za-z]:\\|^%/.test(a.dir) ? renderFor(a, 'windows') : [];
    case 'end-process':
    case 'show-process':
    case 'find-library':
      return renderFor(a, 'windows');
    case 'install': {
      const spec = a.args.find((x) => !x.startsWith('-') && x !== 'install') ?? '';
      if (a.tool === 'pip' && /^tensorflow\[and-cuda\]/i.test(spec)) {
        addTf();
        return [];
      }
      if (a.tool === 'pip' && /^jax\[cuda/i.test(spec)) {
        notes.push(jaxOnWindows().text);
        return [];
      }
      const cudnnPin =
        a.tool === 'pip' ? /^nvidia-cudnn-cu\d+(?:==|>=)?([\d.]+?)(?:\.\*)?(?:,<\d+)?$/.exec(spec) : null;
      if (cudnnPin) {
        // pip's nvidia-cudnn wheel is not on PATH on Windows; conda's cudnn lands in Library\bin, which is
        return [
          render(
            {
              kind: 'install',
              tool: 'conda',
              args: ['install', '-c', 'conda-forge', `cudnn=${cudnnPin[1]!.split('.').slice(0, 2).join('.')}`],
            },
            'cmd',
          ),
        ];
      }
      if (ctx.family === 'tf' && a.tool === 'conda') return [render(a, 'cmd')];
      return [render(a, 'cmd')];
    }
  }
}

/** Lines that are not one of the tool's actions: keep what runs the same, translate the known bash-only ones. */
function windowsLine(cmd: string, dlls: readonly string[], _ctx: AdaptContext): string[] {
  const t = cmd.replace(/\s+#\s.*$/, '').trim();
  if (t.startsWith('#') || t === '') return [];
  // procs, libs and fix read /proc and ELF files (fix also signals by PID): they act on Linux (and WSL), not on
  // native Windows, where the by-hand steps (taskkill) and a look first (tasklist) take fix's place
  if (/^gpu-env-doctor (?:procs|libs|fix)\b/.test(t)) return [];
  if (/^ldconfig -p\b/.test(t))
    return dlls.length > 0
      ? dlls.filter((d) => d !== 'nvcuda.dll').map((d) => `where.exe ${d}`)
      : ['where.exe cudart64_*.dll cudnn64_*.dll cublas64_*.dll'];
  if (/^pip list\b.*\|\s*grep/.test(t)) return ['pip list | findstr /i "torch tensorflow jax paddle"'];
  if (/\bdmesg\b|^sudo\b|\bapt(-get)?\b/.test(t)) return [];
  if (/^echo "\$LD_LIBRARY_PATH"$/.test(t)) return renderFor({ kind: 'show-env', name: 'PATH' }, 'windows');
  // what remains must not lean on bash: $VAR, pipes to grep, /dev/null, single-quoted arguments
  if (/\$\w|\$\{|\|\s*grep|\/dev\/null|'/.test(t)) return [];
  return [t];
}

/** A by-hand step in Windows terms; null when it has no meaning there. */
function windowsManual(m: string): string | null {
  let out = m;
  if (/\bkill -CONT \d+; kill (\d+)/.test(out))
    out = out.replace(/\bkill -CONT \d+; kill (\d+)/, 'taskkill /PID $1 /F');
  out = out.replace(
    /(^|[\s`])kill (\d+)\b/g,
    (_all, pre: string, pid: string) => `${pre}${render({ kind: 'end-process', pid: Number(pid) }, 'cmd')}`,
  );
  out = out.replace(/`kill PID`/g, '`taskkill /PID PID /F`');
  out = out.replace(/ps -o [\w,]+ -p (\d+)/g, (_a, pid: string) =>
    render({ kind: 'show-process', pid: Number(pid) }, 'cmd'),
  );
  out = out.replace(/CUDA_VISIBLE_DEVICES=(<[^>]+>|\S+) python \.\.\./, (_a, v: string) =>
    t('win.cvd', {
      cmd: render({ kind: 'set-env', name: 'CUDA_VISIBLE_DEVICES', value: v }, 'cmd'),
      ps: render({ kind: 'set-env', name: 'CUDA_VISIBLE_DEVICES', value: v }, 'powershell'),
    }),
  );
  // the steps are matched in either language of the catalog (the English and the Chinese of the same step)
  if (
    /apt(-get)? install nvidia-driver|install a newer nvidia driver|安装更新的 NVIDIA 驱动|dkms|modprobe/i.test(out)
  ) {
    const v = /nvidia-driver-(\d+)/.exec(out)?.[1];
    return v ? t('win.driverBranch', { branch: v }) : t('win.driver');
  }
  if (/^sudo reboot$|reboot the machine|^重启机器/i.test(out)) return t('win.restart');
  if (/\bsudo\b|\brmmod\b|\bnvidia-smi -pm\b|ldconfig|apt remove|rm -rf/.test(out)) return null;
  const driver = /\b(\d{3}\.\d{2,3}(?:\.\d{2})?) or newer\b/.exec(out);
  if (driver) {
    const w = windowsDriverFor(driver[1]!);
    if (w && w !== driver[1]) out = out.replace(driver[0], `${driver[1]} (Linux) / ${w} (Windows) or newer`);
  }
  return out;
}

function dedupe(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}

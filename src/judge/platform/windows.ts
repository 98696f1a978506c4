// What differs for a GPU job on native Windows and under WSL2, as data lookups over src/knowledge/windows.json:
// which package and folder provide a DLL a log names, where conda puts CUDA DLLs, TensorFlow's end of native
// GPU support, and the Windows driver number that matches a Linux one.
import { knowledge } from '../../knowledge/index.js';
import { tensorflowBuild } from '../compat/frameworks.js';
import { compareVersions, isVersion, majorMinor } from '../compat/version.js';
import { t } from '../../base/i18n/index.js';

export interface DllInfo {
  dll: string;
  library: string;
  version: string;
  cudaMajor: string | null;
  cudnnMajor: string | null;
  providers: string[];
  confidence: 'read' | 'recalled';
  source: string;
}

/** The row of a DLL name as a log prints it ("cudnn64_8.dll", "'cudart64_110.dll'"), or null. */
export function dllInfo(name: string): DllInfo | null {
  const n = name.replace(/^['"]|['"]$/g, '').toLowerCase();
  const row = knowledge().windows.dlls.find((d) => d.dll.toLowerCase() === n);
  return row ? { ...row } : null;
}

/** Every DLL name in some lines of text, in order of first appearance, lower-cased. */
export function dllNamesIn(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const l of lines)
    for (const m of l.matchAll(/\b([\w.-]+\.dll)\b/gi))
      if (!out.includes(m[1]!.toLowerCase())) out.push(m[1]!.toLowerCase());
  return out;
}

/** One sentence per known DLL: what it is and how to get it ("cudnn64_8.dll is cuDNN 8.x: …"). */
export function dllSentence(d: DllInfo): string {
  const how = d.providers.length > 0 ? t('win.k.dllHow', { providers: d.providers.join(t('win.k.dllOr')) }) : '';
  return t('win.k.dll', { dll: d.dll, library: d.library, version: d.version, how });
}

export function condaLibraryBin(): { text: string; source: string } {
  // the sentences are the catalog's (both languages); the knowledge file keeps the source they rest on
  return { ...knowledge().windows.condaLibraryBin, text: t('win.k.condaBin') };
}

export function dllSearchOrder(): { text: string; source: string } {
  return { ...knowledge().windows.dllSearch, text: t('win.k.dllSearch') };
}

/**
 * TensorFlow's last native-Windows GPU release and what it was built with (from the TensorFlow Windows rows),
 * with the commands TensorFlow's docs give for it.
 */
export function tensorflowOnWindows(): {
  lastGpu: string;
  cuda: string | null;
  cudnn: string | null;
  text: string;
  commands: string[];
  source: string;
} {
  const w = knowledge().windows.tensorflowNative;
  const last = knowledge().tensorflow.windowsNativeGpu.lastVersion;
  const b = tensorflowBuild(last, 'windows');
  return {
    lastGpu: last.split('.').slice(0, 2).join('.'),
    cuda: b?.cuda ?? null,
    cudnn: b?.cudnn ?? null,
    text: t('win.k.tfNative'),
    commands: w.commands,
    source: w.source,
  };
}

/** Does TensorFlow `version` have a GPU build for native Windows? null when the version is not known. */
export function tensorflowHasWindowsGpu(version: string | undefined): boolean | null {
  if (!version || !isVersion(version)) return null;
  return compareVersions(majorMinor(version), majorMinor(knowledge().tensorflow.windowsNativeGpu.lastVersion)) <= 0;
}

/** The CUDA and cuDNN a TensorFlow release was tested with on native Windows; null when it has no Windows GPU build. */
export function tensorflowWindowsBuild(version: string): { series: string; cuda: string; cudnn: string } | null {
  if (!isVersion(version)) return null;
  const b = tensorflowBuild(version, 'windows');
  return b && b.gpu && b.cuda && b.cudnn ? { series: majorMinor(b.version), cuda: b.cuda, cudnn: b.cudnn } : null;
}

export function jaxOnWindows(): { text: string; source: string } {
  return { ...knowledge().windows.jaxNative, text: t('win.k.jax') };
}

export function torchExpandableSegmentsOnWindows(): { text: string; source: string } {
  return { ...knowledge().windows.torchExpandableSegments, text: t('win.k.expandable') };
}

export function wslFact(id: 'driver' | 'libcuda'): { text: string; source: string } | null {
  const r = knowledge().windows.wsl.find((w) => w.id === id);
  return r ? { text: t(id === 'driver' ? 'win.k.wslDriver' : 'win.k.wslLibcuda'), source: r.source } : null;
}

export function processesOnWindows(): { text: string; source: string } {
  return { ...knowledge().windows.processes, text: t('win.k.processes') };
}

/**
 * The Windows driver that matches a Linux driver minimum (they are numbered differently: 525.60.13 on Linux
 * is 527.41 on Windows), from the same CUDA table row; null when no row has it.
 */
export function windowsDriverFor(linux: string): string | null {
  const k = knowledge().cudaDriver;
  const mvc = k.minorVersionCompat.find((m) => m.linux === linux);
  if (mvc) return mvc.windows;
  const row = k.toolkits.find((t) => t.linux === linux && t.windows);
  return row?.windows ?? null;
}

// libs.cudnn-sublibrary-mismatch: cuDNN 9's sub-libraries (libcudnn_cnn, _ops, _engines_*, _graph, …) loading
// from another copy than libcudnn.so.9. Which files load is the fact (the emulation, and what processes really
// mapped); what each framework does with that mix is a consequence at its own certainty (./cudnn-mix.ts).
import * as nodePath from 'node:path';
import { fail, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import {
  consumerLabel,
  fixWithoutDirs,
  ldLibraryPathDirOf,
  librariesOf,
  needsLibraries,
  shellQuote,
  versionText,
} from './common.js';
import { compareVersions, sameVersion } from '../../../base/versions.js';
import { listOf, unique } from '../../../base/format.js';
import type { Consumer } from '../../../gather/snapshot/schema-libraries.js';
import { cudnnMixConsequences, failsForSure } from './cudnn-mix.js';
import { t } from '../../../base/i18n/index.js';

export const cudnnSublibraryCheck: Check = {
  id: 'libs.cudnn-sublibrary-mismatch',
  category: 'libraries',
  get title() {
    return t('title.libs.cudnn-sublibrary-mismatch');
  },
  applies: needsLibraries,
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    const out: Finding[] = [];
    for (const c of lib.consumers) {
      const main = c.resolved.find((r) => r.family === 'libcudnn' && r.path);
      if (!main) continue;
      const mainDir = nodePath.posix.dirname(main.realPath ?? main.path!);
      const bad = c.resolved.filter(
        (r) =>
          r.family?.startsWith('libcudnn_') &&
          r.path &&
          !r.unloadable && // a cut-short file in the way: libs.unloadable
          (r.version !== null && main.version !== null
            ? !sameVersion(r.version, main.version)
            : nodePath.posix.dirname(r.realPath ?? r.path) !== mainDir),
      );
      if (bad.length === 0) continue;
      const llpDirs = unique(
        bad
          .map((b) => (b.via === 'ld_library_path' ? ldLibraryPathDirOf(lib, b.path!) : null))
          .filter((d): d is string => d !== null),
      );
      const others = oldest(bad.map((b) => b.version));
      const consequences = cudnnMixConsequences({
        framework: c.framework,
        main: main.version,
        others,
        graphDiffers: bad.some((b) => b.family === 'libcudnn_graph'),
        built: builtCudnn(s, c),
      });
      // The fact is an error when a framework refuses it for sure; a mix nobody is known to refuse is a warning.
      const sure = consequences.some(failsForSure);
      out.push(
        fail({
          check: this.id,
          severity: sure ? 'error' : 'warn',
          rootCause: 'cudnn_version_mismatch',
          message: t(bad.every((b) => b.via === 'ld_library_path') ? 'sublib.mixedLlp' : 'sublib.mixed', {
            consumer: consumerLabel(c),
            version: versionText(main.version),
            dir: mainDir,
            subs: listOf(bad.map((b) => `${b.family!.replace(/^libcudnn_/, '')} ${versionText(b.version)}`)),
            dirs: listOf(bad.map((b) => nodePath.posix.dirname(b.realPath ?? b.path!))),
          }),
          evidence: [
            {
              text:
                `${main.name} → ${main.realPath ?? main.path} (${versionText(main.version)}, via ` +
                `${main.via.replace(/_/g, ' ')})`,
              source: 'loader emulation',
            },
            ...bad.map((b) => ({
              text:
                `${b.name} → ${b.realPath ?? b.path} (${versionText(b.version)}, via ` +
                `${b.via.replace(/_/g, ' ')}, dlopen by ${b.requestedBy ?? '?'})`,
              source: 'loader emulation',
            })),
          ],
          affects: { library: 'libcudnn', ...(c.framework ? { framework: c.framework } : {}) },
          consequences,
          fix:
            llpDirs.length > 0
              ? { text: t('sublib.llpFix', { dirs: listOf(llpDirs) }), commands: fixWithoutDirs(lib, llpDirs) }
              : {
                  text: t('sublib.ownFix', { dir: mainDir }),
                  commands: [`export LD_LIBRARY_PATH=${shellQuote(mainDir)}\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}`],
                },
        }),
      );
    }
    // What running processes really mapped.
    const byPid = new Map<number, typeof lib.loaded>();
    for (const l of lib.loaded) byPid.set(l.pid, [...(byPid.get(l.pid) ?? []), l]);
    for (const [pid, files] of byPid) {
      // Two libcudnn.so.9 can be mapped (a preloaded one, and the framework's own loaded by path after it): the one
      // whose sub-libraries are mapped is the one that runs. A mix only when no mapped libcudnn matches them all.
      const mains = files.filter((f) => f.family === 'libcudnn' && f.version);
      const badFor = (m: (typeof files)[number]) =>
        files.filter((f) => f.family?.startsWith('libcudnn_') && f.version && !sameVersion(f.version, m.version!));
      if (mains.length === 0 || mains.some((m) => badFor(m).length === 0)) continue;
      const main = mains[0]!;
      const bad = badFor(main);
      const framework = lib.processes.find((p) => p.pid === pid)?.framework ?? null;
      out.push(
        fail({
          check: this.id,
          severity: 'error',
          rootCause: 'cudnn_version_mismatch',
          message: t('sublib.process', {
            pid,
            version: main.version ?? '?',
            subs: listOf(bad.map((b) => `${b.family} ${b.version}`)),
          }),
          consequences: cudnnMixConsequences({
            framework,
            main: main.version,
            others: oldest(bad.map((b) => b.version)),
            graphDiffers: bad.some((b) => b.family === 'libcudnn_graph'),
          }),
          evidence: [main, ...bad].map((f) => ({
            text: `${f.path} (${versionText(f.version)})`,
            source: `/proc/${pid}/maps`,
          })),
          affects: { pid, library: 'libcudnn' },
          fix: { text: t('sublib.processFix'), commands: ['gpu-env-doctor libs'] },
        }),
      );
    }
    return out;
  },
};

/** The oldest of the versions (the one a "not older than" check compares). */
function oldest(vs: (string | null)[]): string | null {
  const known = vs.filter((v): v is string => v !== null);
  return known.sort(compareVersions)[0] ?? null;
}

/** The cuDNN the consumer's framework was built with, when its files say (TensorFlow's build info: a major). */
function builtCudnn(s: Snapshot, c: Consumer): string | null {
  if (!c.framework || c.framework === 'torch') return null;
  const env = s.python?.environments.find((e) => e.prefix === c.environment);
  return env?.frameworks.find((f) => f.framework === c.framework)?.cudnn ?? null;
}

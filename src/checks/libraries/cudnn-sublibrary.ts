// libs.cudnn-sublibrary-mismatch: cuDNN 9's sub-libraries (libcudnn_cnn, _ops, _engines_*, _graph, …) must be
// the same release as libcudnn.so.9. When one comes from another copy, the first convolution fails with
// CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH. Checked in the emulation and in what processes really mapped.
import * as nodePath from 'node:path';
import { finding, type Finding } from '../../core/finding.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';
import { consumerLabel, fixWithoutDirs, ldLibraryPathDirOf, librariesOf, needsLibraries, shellQuote, versionText } from './common.js';
import { sameVersion } from '../../libs/versions.js';

export const cudnnSublibraryCheck: Check = {
  id: 'libs.cudnn-sublibrary-mismatch',
  category: 'libraries',
  title: 'cuDNN sub-libraries match libcudnn',
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
          (r.version !== null && main.version !== null ? !sameVersion(r.version, main.version) : nodePath.posix.dirname(r.realPath ?? r.path) !== mainDir),
      );
      if (bad.length === 0) continue;
      const llpDirs = bad.map((b) => (b.via === 'ld_library_path' ? ldLibraryPathDirOf(lib, b.path!) : null)).filter((d): d is string => d !== null);
      out.push(
        finding({
          check: this.id,
          severity: 'error',
          status: 'fail',
          rootCause: 'cudnn_version_mismatch',
          message: `${consumerLabel(c)} would load libcudnn ${versionText(main.version)} but ${bad.map((b) => `${b.family} ${versionText(b.version)}`).join(', ')} from another copy: cuDNN fails with CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH`,
          evidence: [
            { text: `${main.name} → ${main.realPath ?? main.path} (${versionText(main.version)}, via ${main.via.replace(/_/g, ' ')})`, source: 'loader emulation' },
            ...bad.map((b) => ({ text: `${b.name} → ${b.realPath ?? b.path} (${versionText(b.version)}, via ${b.via.replace(/_/g, ' ')}, dlopen by ${b.requestedBy ?? '?'})`, source: 'loader emulation' })),
          ],
          affects: { library: 'libcudnn', ...(c.framework ? { framework: c.framework } : {}) },
          fix:
            llpDirs.length > 0
              ? { text: `LD_LIBRARY_PATH is searched before libcudnn's own folder when it loads its sub-libraries; remove ${llpDirs.join(', ')} from it.`, commands: fixWithoutDirs(lib, llpDirs) }
              : { text: `Make the sub-libraries resolve from libcudnn's own folder (${mainDir}).`, commands: [`export LD_LIBRARY_PATH=${shellQuote(mainDir)}\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}`] },
        }),
      );
    }
    // What running processes really mapped.
    const byPid = new Map<number, typeof lib.loaded>();
    for (const l of lib.loaded) byPid.set(l.pid, [...(byPid.get(l.pid) ?? []), l]);
    for (const [pid, files] of byPid) {
      const main = files.find((f) => f.family === 'libcudnn');
      if (!main?.version) continue;
      const bad = files.filter((f) => f.family?.startsWith('libcudnn_') && f.version && !sameVersion(f.version, main.version));
      if (bad.length === 0) continue;
      out.push(
        finding({
          check: this.id,
          severity: 'error',
          status: 'fail',
          rootCause: 'cudnn_version_mismatch',
          message: `Process ${pid} has libcudnn ${main.version} and ${bad.map((b) => `${b.family} ${b.version}`).join(', ')} loaded together`,
          evidence: [main, ...bad].map((f) => ({ text: `${f.path} (${versionText(f.version)})`, source: `/proc/${pid}/maps` })),
          affects: { pid, library: 'libcudnn' },
          fix: { text: 'Restart the process with an environment where every libcudnn* file comes from one folder (see gpu-env-doctor libs for the search order).', commands: ['gpu-env-doctor libs'] },
        }),
      );
    }
    return out;
  },
};

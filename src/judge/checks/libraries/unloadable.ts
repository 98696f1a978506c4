// libs.unloadable: a file the loader reaches first for a library a framework needs, and cannot use. ld.so does
// not go on to the next copy: a file cut short after its headers is mapped and the process dies (SIGBUS) when
// the loader touches the missing part; a file that is not ELF, or too short for its headers, fails the load.
// Either way the good copy behind it is never reached, so the fix removes what is in the way.
import * as nodePath from 'node:path';
import { problem, type Consequence, type Finding } from '../../finding.js';
import type { ResolvedLibrary } from '../../../gather/snapshot/schema-libraries.js';
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
  viaText,
} from './common.js';
import { t } from '../../../base/i18n/index.js';

export const unloadableCheck: Check = {
  id: 'libs.unloadable',
  category: 'libraries',
  get title() {
    return t('title.libs.unloadable');
  },
  applies: needsLibraries,
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    const out: Finding[] = [];
    const seen = new Set<string>();
    for (const c of lib.consumers) {
      for (const r of c.resolved) {
        if (!r.unloadable) continue;
        const bad = r.blocker ?? (r.path ? { path: r.path, via: r.via } : null);
        if (!bad) continue;
        const key = `${c.path}\0${bad.path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const good = r.shadowed[0] ?? null;
        const crash = r.unloadable === 'crash';
        // ld.so ignores a preload of its own lists that it cannot load (with a message); one it maps kills the process.
        const ignored = !crash && r.preloadFrom !== undefined;
        const when = r.preloadFrom
          ? t('unload.whenStart')
          : r.how === 'dlopen'
            ? t('unload.whenDlopen', { by: r.requestedBy ? nodePath.posix.basename(r.requestedBy) : '?' })
            : t('unload.whenImport');
        const consequences: Consequence[] = [
          {
            ...(c.framework ? { framework: c.framework } : {}),
            outcome: ignored ? 'runs' : 'fails',
            certainty: crash ? 'verified' : 'expected',
            text: crash
              ? t('unload.crash', { consumer: consumerLabel(c), when })
              : ignored
                ? t('unload.ignored', { from: r.preloadFrom! })
                : t('unload.fails', { consumer: consumerLabel(c), when }),
            source: crash
              ? 'H200 (driver 580, PyTorch 2.11): a cut-short libcudnn_graph.so.9 first on LD_LIBRARY_PATH, the ' +
                'convolution job died with SIGBUS, exit 135; glibc elf/dl-load.c maps the segments without checking ' +
                'the file length'
              : 'glibc elf/dl-load.c open_verify: "invalid ELF header" and "file too short" end the load; the search ' +
                'does not go on',
          },
        ];
        out.push(
          problem({
            check: this.id,
            severity: ignored ? 'warn' : 'error',
            rootCause: 'library_missing',
            message: t(crash ? 'unload.messageCrash' : 'unload.messageError', {
              consumer: consumerLabel(c),
              lib: r.name,
              path: bad.path,
              via: viaText({ ...r, via: bad.via }, c),
            }),
            consequences,
            evidence: [
              { text: r.error ?? bad.path, source: "loader emulation (the file's ELF headers)" },
              {
                text:
                  `${r.name} → ${bad.path} via ` +
                  `${viaText({ ...r, via: bad.via }, c)}${r.requestedBy ? `, asked for by ${r.requestedBy}` : ''}`,
                source: 'loader emulation',
              },
              ...(good
                ? [
                    {
                      text: t('unload.goodBehind', {
                        path: good.realPath ?? good.path,
                        version: versionText(good.version),
                        via: good.via.replace(/_/g, ' '),
                      }),
                      source: 'loader emulation',
                    },
                  ]
                : []),
            ],
            affects: { library: r.name, ...(c.framework ? { framework: c.framework } : {}) },
            fix: fixFor(lib, r, bad),
          }),
        );
      }
    }
    return out;
  },
};

/**
 * Remove what is in the way: its LD_LIBRARY_PATH folder, the preload, or the file itself (never "add the good folder").
 */
function fixFor(
  lib: NonNullable<ReturnType<typeof librariesOf>>,
  r: ResolvedLibrary,
  bad: { path: string; via: string },
): { text: string; commands: string[] } {
  if (bad.via === 'ld_library_path') {
    const dir = ldLibraryPathDirOf(lib, bad.path) ?? nodePath.posix.dirname(bad.path);
    return { text: t('unload.fixLlp', { dir }), commands: fixWithoutDirs(lib, [dir]) };
  }
  if (bad.via === 'ld_preload' || r.via === 'ld_preload') {
    return r.preloadFrom === '/etc/ld.so.preload'
      ? { text: t('unload.fixEtcPreload', { path: bad.path }), commands: [] }
      : { text: t('unload.fixPreload', { path: bad.path }), commands: ['unset LD_PRELOAD'] };
  }
  return { text: t('unload.fixFile', { path: bad.path }), commands: [`ls -l ${shellQuote(bad.path)}`] };
}

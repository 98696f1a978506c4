// The `libraries` section of the Snapshot: every copy of the CUDA libraries, which copy each framework
// would load and why, and what running GPU processes did load. `libs --json` prints the same facts.
import { z } from 'zod';

export const Via = z.enum([
  'rpath',
  'ld_library_path',
  'runpath',
  'ld_cache',
  'default',
  'preloaded',
  'ld_preload',
  'already_loaded',
  'not_found',
  'path',
]);
export const Origin = z.enum(['system', 'pip', 'conda', 'toolkit', 'compat', 'other']);

export const LibraryCopy = z.object({
  /** the library family: "libcudnn", "libcudnn_cnn", "libcudart", "libcuda" */
  name: z.string(),
  /** the real file (symbolic links resolved) */
  path: z.string(),
  version: z.string().nullable(),
  /** where the version came from: "file name", "cudnn_version_v9.h", "package nvidia-cudnn-cu13" */
  versionSource: z.string().nullable(),
  origin: Origin,
  soname: z.string().nullable(),
  /** the paths that lead to it (symbolic links and the file itself) */
  links: z.array(z.string()),
  /** the pip or conda package that installed it */
  package: z
    .object({ manager: z.enum(['pip', 'conda']), name: z.string(), version: z.string().nullable(), prefix: z.string() })
    .nullable(),
  /** how it was found: "ld_cache", "ld_library_path", "default", "toolkit", "site-packages", "conda" */
  foundBy: z.array(z.string()),
});
export type LibraryCopy = z.infer<typeof LibraryCopy>;

export const Shadowed = z.object({
  path: z.string(),
  realPath: z.string().nullable(),
  version: z.string().nullable(),
  via: Via,
});

export const ResolvedLibrary = z.object({
  /** the name asked for: "libcudnn.so.9", "libcudnn_cnn.so.9" */
  name: z.string(),
  family: z.string().nullable(),
  path: z.string().nullable(),
  realPath: z.string().nullable(),
  version: z.string().nullable(),
  via: Via,
  /** for preloaded / already_loaded: how that object was first found */
  firstVia: Via.optional(),
  /** who asked: a file's NEEDED list, a dlopen in a library's code, or the framework's Python preloading */
  how: z.enum(['needed', 'dlopen', 'preload']),
  requestedBy: z.string().nullable(),
  /** the other copies the same search would have reached after the winner */
  shadowed: z.array(Shadowed),
  error: z.string().optional(),
  /** for ld_preload: the list that forced it in */
  preloadFrom: z.enum(['LD_PRELOAD', '/etc/ld.so.preload']).optional(),
  /**
   * a file in the way that cannot be used: 'error' (the load fails) or 'crash' (ld.so maps it; the process dies,
   * SIGBUS)
   */
  unloadable: z.enum(['error', 'crash']).optional(),
  /** that file and the route that reached it */
  blocker: z.object({ path: z.string(), via: Via }).optional(),
});
export type ResolvedLibrary = z.infer<typeof ResolvedLibrary>;

export const Consumer = z.object({
  path: z.string(),
  framework: z.enum(['torch', 'tensorflow', 'jax', 'cupy']).nullable(),
  /** the Python environment (sys.prefix) it belongs to */
  environment: z.string().nullable(),
  resolved: z.array(ResolvedLibrary),
  /** what the emulation assumed (preloading order, dlopen names) */
  notes: z.array(z.string()),
});
export type Consumer = z.infer<typeof Consumer>;

export const LoadedLibrary = z.object({
  pid: z.number().int(),
  path: z.string(),
  family: z.string().nullable(),
  version: z.string().nullable(),
});
export type LoadedLibrary = z.infer<typeof LoadedLibrary>;

export const ProcessLibraries = z.object({
  pid: z.number().int(),
  ok: z.boolean(),
  message: z.string().optional(),
  framework: z.enum(['torch', 'tensorflow', 'jax', 'cupy']).nullable(),
  /** the consumer whose emulation this process is compared with */
  consumer: z.string().nullable(),
  /** libraries where the loaded file differs from the emulated one */
  differences: z.array(
    z.object({ family: z.string(), loaded: z.string().nullable(), expected: z.string().nullable() }),
  ),
});

export const PackageRecord = z.object({
  manager: z.enum(['pip', 'conda']),
  name: z.string(),
  version: z.string().nullable(),
  prefix: z.string(),
});
export type PackageRecord = z.infer<typeof PackageRecord>;

export const LibrariesSection = z.object({
  ok: z.boolean(),
  message: z.string().optional(),
  ldCache: z.object({
    source: z.string(),
    format: z.string().nullable(),
    entries: z.number().int(),
    glibc: z.string().nullable(),
    error: z.string().optional(),
  }),
  ldLibraryPath: z.array(z.string()),
  defaultDirs: z.array(z.string()),
  hwcaps: z.array(z.string()),
  environments: z.array(z.object({ prefix: z.string(), kind: z.string(), sitePackages: z.array(z.string()) })),
  copies: z.array(LibraryCopy),
  consumers: z.array(Consumer),
  loaded: z.array(LoadedLibrary),
  processes: z.array(ProcessLibraries),
  /** CUDA-related pip and conda packages per environment (for the conda/pip mix check) */
  packages: z.array(PackageRecord),
  durationMs: z.number().optional(),
});
export type LibrariesSection = z.infer<typeof LibrariesSection>;

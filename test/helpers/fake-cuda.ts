// Builds the fake CUDA libraries of test/fixtures/cuda/fake (libcudart.so.13, libcudnn.so.9, libcublas.so.13) with
// gcc into a folder: they export what the native smoke test calls, with CUDA's and cuDNN 9's codes and names, and
// play the scenario named in FAKE_CUDA (see the README there).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '../fixtures/cuda/fake');
export const FAKE_LIBS = { cudart: 'libcudart.so.13', cudnn: 'libcudnn.so.9', cublas: 'libcublas.so.13' } as const;

/** Writes the three libraries into `dir` (created), or into the given folders per library. */
export function buildFakeCuda(
  dirs: { cudart: string; cudnn: string; cublas: string },
  defines: string[] = [],
): { cudart: string; cudnn: string; cublas: string } {
  const out = { cudart: '', cudnn: '', cublas: '' };
  for (const k of ['cudart', 'cudnn', 'cublas'] as const) {
    fs.mkdirSync(dirs[k], { recursive: true });
    const file = path.join(dirs[k], FAKE_LIBS[k]);
    execFileSync(
      'gcc',
      [
        '-shared',
        '-fPIC',
        '-O1',
        ...defines.map((d) => `-D${d}`),
        '-o',
        file,
        path.join(SRC, `${k}.c`),
        `-Wl,-soname,${FAKE_LIBS[k]}`,
        '-lpthread',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    out[k] = file;
  }
  return out;
}

// Where the job ran, read from the environment facts (install words: "colab", "kaggle", "jupyter"), and what
// that says about the causes. General facts used:
// - A hosted notebook runtime (Google Colab, Kaggle) gives each session its own VM with its own GPU, and the
//   CUDA and cuDNN libraries are the provider's image: the user does not install them. The framework that
//   comes with the image is built for that cuDNN, so when cuDNN fails to initialise there, the usual reason is a
//   framework the user installed or pinned (or an image update) that does not fit the image's cuDNN; another
//   process holding that VM's GPU is unusual. That is about frameworks that load the system's cuDNN (TensorFlow,
//   JAX with local CUDA): PyTorch's wheels carry their own cuDNN (DOMAIN.md: torch/lib, or the nvidia-cudnn wheel
//   they pin), so the image's cuDNN is not the one PyTorch runs with.
// - A Jupyter kernel keeps the GPU memory it allocated until the kernel is shut down or restarted (TensorFlow
//   and JAX kernels reserve most of the GPU as soon as they touch it), and notebooks are typically left open
//   side by side: an out-of-memory error in a notebook is more often than in a script memory that another
//   (or a stale) kernel holds.
import type { SignalState } from '../collect.js';
import type { EnvironmentFacts, Fact, LogEvidence } from '../types.js';
import type { Board } from './board.js';
import { t } from '../../../base/i18n/index.js';

const HOSTED = new Set(['colab', 'kaggle']);

export function analyseSetting(board: Board, signals: Map<string, SignalState>, env: EnvironmentFacts): void {
  const hosted = env.install.find((i) => HOSTED.has(i.value));
  if (hosted) hostedRuntime(board, hosted, env.framework?.value === 'pytorch');
  else {
    const notebook = env.install.find((i) => i.value === 'jupyter');
    if (notebook) jupyterKernel(board, signals, notebook);
  }
}

function hostedRuntime(board: Board, hosted: Fact, ownCudnn: boolean): void {
  const name = hosted.value === 'kaggle' ? 'Kaggle' : 'Google Colab';
  const ev: LogEvidence[] = [{ line: hosted.line, text: hosted.text }];
  // only where a line already points at cuDNN: the runtime says which cuDNN story is likely, not that cuDNN failed
  if (board.score('cudnn_version_mismatch') > 0 && !ownCudnn) {
    board.add('cudnn_version_mismatch', 0.5, t('why.s.image', { name }), ev);
  }
  board.against('memory_held_by_other_process', 0.3, t('why.s.session', { name }));
}

function jupyterKernel(board: Board, signals: Map<string, SignalState>, notebook: Fact): void {
  const oom = [...signals.values()].some((s) => s.sig.kind === 'memory');
  if (!oom) return;
  board.add('memory_held_by_other_process', 0.35, t('why.s.jupyter'), [{ line: notebook.line, text: notebook.text }]);
}

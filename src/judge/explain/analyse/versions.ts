// Versions read from the log and from what the user pasted, judged with the compatibility knowledge
// (knowledge-bridge.ts). General facts used:
// - CUDA libraries carry their version in the file name (libcublas.so.9.0, libcudart.so.10.1, libcudart.so.11.0):
//   a framework asking for another version than the installed CUDA is a toolkit mismatch, not a missing library.
// - TensorFlow needs cuDNN of the build's major version with an equal or higher minor; CUDA ≤ 10 builds need the
//   exact CUDA minor (library names carry it), CUDA ≥ 11 builds the same major.
// - PyTorch and pip wheels bring their own CUDA runtime and cuDNN; a different cuDNN at run time means another
//   copy was found first.
// - SASS for sm_X0 runs on sm_XY (same major, higher minor); nothing runs across majors without PTX.
// - Running code built with CUDA X needs a driver of at least the minor-version-compatibility floor of X's major;
//   JIT-compiling PTX needs the driver that shipped with X.
import type { SignalState } from '../collect.js';
import { Collector } from '../collect.js';
import {
  ccBelowCudaMinimum,
  compareVersions,
  computeCapabilityOfGpu,
  cudaSupportsComputeCapability,
  jaxCudaBuilds,
  majorMinor,
  minDriverForCuda,
  smOfCc,
  tensorflowBuild,
  torchArchs,
} from '../knowledge-bridge.js';
import { paddleBuild, splitPaddleVersion } from '../../compat/paddle.js';
import { knowledge } from '../../../knowledge/index.js';
import type { EnvironmentFacts, Fact, Framework, LogEvidence } from '../types.js';
import type { Board } from './board.js';
import { t } from '../../../base/i18n/index.js';
import { nativeWhenAsked } from '../../../base/native-regex.js';

const CUDA_LIB = /lib(cudart|cublas|cublasLt|cufft|curand|cusolver|cusparse|nvrtc|nvToolsExt)\.so\.(\d+(?:\.\d+)?)/;
const CUDNN_LIB = /libcudnn(?:_\w+)?\.so\.(\d+)/;
const WIN_CUDA_LIB = /(cudart|cublas|cufft|curand|cusolver|cusparse)64_(\d{2,3})\.dll/;

type Ev = (st: SignalState, max?: number) => LogEvidence[];

export function factEvidence(f: Fact<unknown> | undefined): LogEvidence[] {
  return f ? [{ line: f.line, text: f.text }] : [];
}

export function analyseVersions(
  board: Board,
  signals: Map<string, SignalState>,
  ev: Ev,
  env: EnvironmentFacts,
  fw: Framework | undefined,
  mentionedCuda: string | undefined,
  torchToo = false,
): void {
  libraryVersions(board, signals, ev, env, mentionedCuda);
  ortRequirement(board, signals, env);
  extensionAbi(board, signals, ev);
  cudnnSymbol(board, signals);
  jaxComponents(board, signals, ev, torchToo);
  cudnnVersions(board, signals, ev, env);
  driverVersions(board, signals, ev, env);
  notNvidia(board, env);
  containerWithoutDriver(board, signals, env);
  compilerArch(board, signals, ev, env);
  buildCompat(board, signals, env, fw);
  if (fw === 'jax') jaxCompat(board, env);
  if (fw === 'paddle') paddleWheel(board, signals, env);
  if (fw === 'onnxruntime') ortBuild(board, signals, env);
}

/**
 * An onnxruntime-gpu release is built for one CUDA and one cuDNN per package (knowledge/onnxruntime.json: the
 * default PyPI build, and the other CUDA major's), and loads the libraries of those majors that it finds (from CUDA
 * 11 their names carry the major only). With a failure in the log, a stated cuDNN of another major than the build's
 * is the mismatch; a stated CUDA of another major (10.x: another minor) makes a toolkit mismatch likely. The build
 * is the one the package names (onnxruntime-win-x64-cuda12-1.17.1), else the release's default.
 */
function ortBuild(board: Board, signals: Map<string, SignalState>, env: EnvironmentFacts): void {
  const fv = env.frameworkVersion;
  if (!fv || !/^\d+\.\d+/.test(fv.value)) return;
  if (![...signals.values()].some((st) => st.sig.kind !== 'context' && st.sig.kind !== 'noise')) return;
  const releases = knowledge().onnxruntime.releases;
  const release =
    releases.find((r) => r.version === fv.value) ??
    releases.find((r) => r.version === majorMinor(fv.value) && r.version.split('.').length === 2) ??
    releases.find((r) => r.version === `${majorMinor(fv.value)}.0`);
  if (!release) return;
  const tagged = env.buildCuda?.value.split('.')[0];
  const build = tagged
    ? release.builds.find((b) => b.cuda.split('.')[0] === tagged)
    : release.builds.find((b) => b.default);
  if (!build) return;
  const evidence = [...factEvidence(fv), ...factEvidence(env.buildCuda)];
  const args = { version: fv.value, cuda: build.cuda, cudnn: build.cudnn };
  const cudnn = env.cudnn?.value.split('.')[0];
  if (cudnn && /^\d+$/.test(cudnn) && cudnn !== build.cudnn)
    board.stated('cudnn_version_mismatch', 1.5, t('why.v.ortCudnn', { ...args, stated: env.cudnn!.value }), [
      ...evidence,
      ...factEvidence(env.cudnn),
    ]);
  const cuda = env.cuda?.value;
  if (cuda && /^\d+/.test(cuda)) {
    const exact = Number(build.cuda.split('.')[0]) <= 10;
    const same = exact ? majorMinor(cuda) === majorMinor(build.cuda) : cuda.split('.')[0] === build.cuda.split('.')[0];
    if (!same)
      board.add('cuda_toolkit_mismatch', 1.2, t('why.v.ortCuda', { ...args, stated: cuda }), [
        ...evidence,
        ...factEvidence(env.cuda),
      ]);
  }
}

/** a failure in the CUDA libraries' own words: what a wheel built for other versions shows */
const CUDA_LIBRARY_FAILURE = /cudnn|cublas|cuda|cufft|curand|cusolver|dnn/i;

/**
 * A paddlepaddle-gpu wheel is built for one CUDA and one cuDNN (the .postNNN build of PaddlePaddle's install table)
 * and loads the CUDA libraries it finds on the system at run time; Paddle itself warns when the machine's cuDNN
 * differs from the build's in major.minor. With a CUDA-library failure in the log, a stated cuDNN of another
 * major.minor than the build's is the mismatch; a stated CUDA of another major.minor makes a toolkit mismatch likely.
 */
function paddleWheel(board: Board, signals: Map<string, SignalState>, env: EnvironmentFacts): void {
  const fv = env.frameworkVersion;
  if (!fv || !/^\d+\.\d+/.test(fv.value)) return;
  if (![...signals.values()].some((st) => st.sig.kind !== 'context' && CUDA_LIBRARY_FAILURE.test(st.group))) return;
  const { version, variant } = splitPaddleVersion(fv.value);
  if (version.startsWith('1.')) {
    paddle1xWheel(board, fv, env);
    return;
  }
  const build = paddleBuild(
    version,
    variant ?? 'pypi',
    env.os && /windows/i.test(env.os.value) ? 'windows' : 'linux',
  )?.variant;
  if (!build) return;
  const stated = env.cudnn?.value;
  if (stated && build.cudnn && majorMinor(stated) && majorMinor(stated) !== majorMinor(build.cudnn)) {
    board.stated(
      'cudnn_version_mismatch',
      1.5,
      t('why.v.paddleCudnn', { pip: fv.value, built: majorMinor(build.cudnn)!, stated }),
      [...factEvidence(fv), ...factEvidence(env.cudnn)],
    );
  }
  paddleCudaStated(board, fv, env, build.cuda);
}

/** A stated CUDA of another major.minor than the Paddle build's: a toolkit mismatch is likely. */
function paddleCudaStated(board: Board, fv: Fact, env: EnvironmentFacts, built: string): void {
  const cuda = env.cuda?.value;
  if (cuda && majorMinor(cuda) && majorMinor(cuda) !== majorMinor(built)) {
    board.add('cuda_toolkit_mismatch', 0.8, t('why.v.paddleCuda', { pip: fv.value, built, stated: cuda }), [
      ...factEvidence(fv),
      ...factEvidence(env.cuda),
    ]);
  }
}

/**
 * paddlepaddle-gpu 1.x names its build by CUDA and cuDNN (.post107: CUDA 10.0 with cuDNN 7; the plain version the
 * CUDA 10.0 build) and its install docs give each series a cuDNN floor ("cuDNN v7.6+" for 1.8): a stated cuDNN below
 * the floor is the mismatch; a stated CUDA of another major.minor than the build's makes a toolkit mismatch likely.
 */
function paddle1xWheel(board: Board, fv: Fact, env: EnvironmentFacts): void {
  const post = /\.post(\d{2,3})$/.exec(fv.value)?.[1];
  const platform = env.os && /windows/i.test(env.os.value) ? 'windows' : 'linux';
  const row = knowledge().paddle1x.releases.find(
    (r) => r.platform === platform && r.series === majorMinor(fv.value.replace(/\.post\d+$/, '')),
  );
  const build = row?.builds.find((b) => (post ? b.post === post : b.pypiDefault));
  if (!row || !build) return;
  const stated = env.cudnn?.value;
  if (stated && /^\d+\.\d+/.test(stated) && compareVersions(stated, build.cudnnMin) < 0) {
    board.stated(
      'cudnn_version_mismatch',
      1.5,
      t('why.v.paddle1xCudnn', { pip: fv.value, series: row.series, cuda: build.cuda, min: build.cudnnMin, stated }),
      [...factEvidence(fv), ...factEvidence(env.cudnn)],
    );
  }
  paddleCudaStated(board, fv, env, build.cuda);
}

/** ONNX Runtime's warning when its CUDA provider cannot be created (onnxruntime_pybind_state.cc) */
const ORT_PROVIDER_GROUPS = ['ort-failed-create-cuda-ep', 'ort-failed-create-cuda-ep-windows'];
/** "Require cuDNN 9.* and CUDA 12.*": the majors the build links against, printed from its own build constants */
const ORT_REQUIRES = /Require\s+cuDNN\s+(\d+)\.\*\s+and\s+CUDA\s+(\d+)\.\*/i;

/**
 * ONNX Runtime's CUDA provider, when it cannot be created, names the CUDA and cuDNN majors its build links
 * against ("Require cuDNN 9.* and CUDA 12.*": the provider library's dependencies carry the major in their names,
 * libcublasLt.so.12, cudnn64_9.dll). A stated CUDA or cuDNN of another major is the message's own comparison:
 * the build and the installed toolkit (or cuDNN) do not match.
 */
function ortRequirement(board: Board, signals: Map<string, SignalState>, env: EnvironmentFacts): void {
  for (const group of ORT_PROVIDER_GROUPS) {
    const st = signals.get(group);
    const m = st ? Collector.matches(st).find((x) => ORT_REQUIRES.test(x.text)) : undefined;
    if (!m) continue;
    const [, cudnn, cuda] = ORT_REQUIRES.exec(m.text)!;
    const line = { line: m.line, text: m.text.slice(0, 400) };
    const statedCuda = env.cuda?.value.split('.')[0];
    if (statedCuda && /^\d+$/.test(statedCuda) && statedCuda !== cuda)
      board.stated(
        'cuda_toolkit_mismatch',
        2.2,
        t('why.v.ortRequires', { lib: 'CUDA', need: cuda, stated: env.cuda!.value }),
        [line, ...factEvidence(env.cuda)],
      );
    const statedCudnn = env.cudnn?.value.split('.')[0];
    if (statedCudnn && /^\d+$/.test(statedCudnn) && statedCudnn !== cudnn)
      board.stated(
        'cudnn_version_mismatch',
        1.4,
        t('why.v.ortRequires', { lib: 'cuDNN', need: cudnn, stated: env.cudnn!.value }),
        [line, ...factEvidence(env.cudnn)],
      );
    return;
  }
}

function libraryVersions(
  board: Board,
  signals: Map<string, SignalState>,
  ev: Ev,
  env: EnvironmentFacts,
  mentionedCuda: string | undefined,
): void {
  const ids = [
    'tf.could_not_load_dynamic_library',
    'lib.cannot_open_shared_object',
    'lib.paraphrased_missing',
    'lib.dll_missing',
    'lib.unable_to_load_any_of',
  ];
  const installed = env.cuda?.value ?? mentionedCuda;
  for (const id of ids) {
    const st = signals.get(id);
    if (!st) continue;
    for (const m of Collector.matches(st).slice(0, 10)) {
      const lib = `${m.values.lib ?? ''} ${m.text}`;
      const cm = CUDA_LIB.exec(lib) ?? WIN_CUDA_LIB.exec(lib);
      if (cm) {
        const wanted = cm[0].includes('64_') ? winTag(cm[2]!) : cm[2]!;
        board.hint('library_missing', 'lib', cm[0]);
        board.hint('cuda_toolkit_mismatch', 'wantedCuda', wanted);
        if (installed) {
          const same =
            Number(wanted.split('.')[0]) >= 11
              ? wanted.split('.')[0] === installed.split('.')[0]
              : majorMinor(wanted) === majorMinor(installed);
          if (!same) {
            board.stated('cuda_toolkit_mismatch', 2.2, t('why.v.lookFor', { lib: cm[0], wanted, installed }), [
              { line: m.line, text: m.text.slice(0, 400) },
              ...factEvidence(env.cuda),
            ]);
            // not against library_missing: the version asked for is missing all the same, and installing it
            // (beside the other) is a fix as good as a framework build for the installed one
          } else {
            board.add('library_missing', 0.6, t('why.v.notComplete', { installed, lib: cm[0] }), [
              { line: m.line, text: m.text.slice(0, 400) },
            ]);
          }
        }
        // with no CUDA stated, nothing but the message's own readings: another CUDA installed is a guess then, and
        // the message's reading of it (fitted on the reports) already counts it once
        break;
      }
      const dm = CUDNN_LIB.exec(lib);
      if (dm) {
        board.hint('library_missing', 'lib', `libcudnn.so.${dm[1]}`);
        board.hint('library_missing', 'cudnnMajor', dm[1]!);
        if (env.cudnn && env.cudnn.value.split('.')[0] !== dm[1]) {
          board.add(
            'cudnn_version_mismatch',
            1.4,
            t('why.v.cudnnWanted', { wanted: dm[1], installed: env.cudnn.value }),
            [{ line: m.line, text: m.text.slice(0, 400) }, ...factEvidence(env.cudnn)],
          );
        }
        break;
      }
    }
  }
}

/**
 * An undefined C++ symbol (Itanium-mangled, "_Z…") in a compiled Python extension (mmcv/_ext, flash_attn,
 * torchvision/_C: "*.cpython-*.so", "_C.so") means the extension was built against another release of the library
 * that defines the symbol (PyTorch's C++ ABI changes between releases): two versions that do not fit, not a file
 * that is missing.
 */
function extensionAbi(board: Board, signals: Map<string, SignalState>, ev: Ev): void {
  const st = signals.get('lib.could_not_load_symbol');
  if (!st) return;
  const m = Collector.matches(st).find(
    (x) =>
      /^_Z/.test(x.values.symbol ?? '') &&
      /\.cpython-[\w-]+\.so|[\\/_]_?C\.(?:cpython-[\w-]+\.)?so|_ext\b|\.pyd\b/.test(x.text),
  );
  if (!m) return;
  const evidence = [{ line: m.line, text: m.text.slice(0, 400) }];
  // the mangled name says whose function it is: one in no namespace of the framework's (at::, c10::, torch::,
  // caffe2::, pybind11::, std::) is the extension's own, declared by one of its sources and defined by none that
  // was compiled: its build left that file out (a CPU or CUDA source not built), not another framework release
  if (!FRAMEWORK_SYMBOL.test(m.values.symbol ?? '')) {
    board.stated('framework_bug', 1.5, t('why.v.symbolOwn'), evidence);
    board.against('library_conflict', 1.0, t('why.v.symbolOwnAgainst'));
    board.against('library_missing', 0.5, t('why.v.symbolAgainst'));
    return;
  }
  board.stated('library_conflict', 1.5, t('why.v.symbol'), evidence);
  board.against('library_missing', 0.5, t('why.v.symbolAgainst'));
}

/**
 * An Itanium-mangled name in a namespace of the framework or its runtime: _ZN2at (at::), _ZN3c10 (c10::), _ZN5torch,
 * _ZN6caffe2, _ZN8pybind11, _ZNSt/_ZSt (std::), with const (K), typeinfo (_ZTI/_ZTS/_ZTV) and template forms.
 */
const FRAMEWORK_SYMBOL = /^_Z(?:T[ISV])?N?K?(?:2at|3c10|5torch|6caffe2|8pybind11|St|S[ats])/;

/** a library loaded without a function the binary was linked against (dlsym's or ld.so's words) */
const MISSING_SYMBOL = ['lib.could_not_load_symbol', 'lib.symbol_version_not_defined'];

/**
 * A cuDNN function (the API's `cudnn` prefix) that the loaded libcudnn does not define, or not at the version the
 * binary was linked against: the binary was built against another cuDNN release than the one that loaded (cuDNN
 * adds, renames and removes API functions between releases), so the cuDNN version is what does not fit.
 */
function cudnnSymbol(board: Board, signals: Map<string, SignalState>): void {
  for (const group of MISSING_SYMBOL) {
    const st = signals.get(group);
    if (!st) continue;
    const m = Collector.matches(st).find((x) => /^cudnn/i.test(x.values.symbol ?? x.values.symbol2 ?? ''));
    if (!m) continue;
    const symbol = m.values.symbol ?? m.values.symbol2 ?? '';
    board.stated('cudnn_version_mismatch', 1.2, t('why.v.cudnnSymbol', { symbol }), [
      { line: m.line, text: m.text.slice(0, 400) },
    ]);
    return;
  }
}

/** JAX's CUDA plugin names the component that is too old: cuDNN is a cuDNN mismatch, any other (CUDA runtime,
 *  cuBLAS, cuFFT, cuSOLVER, cuSPARSE, NCCL, nvJitLink) belongs to the CUDA toolkit
 *  (jax_plugins/xla_cuda13/__init__.py and earlier releases) */
function jaxComponents(board: Board, signals: Map<string, SignalState>, ev: Ev, torchToo: boolean): void {
  for (const group of ['jax.outdated_installation', 'jax.found_version_older']) {
    const st = signals.get(group);
    const name = st ? Collector.matches(st)[0]?.values.name : undefined;
    if (!st || !name) continue;
    if (/cudnn/i.test(name)) {
      board.stated('cudnn_version_mismatch', 1.2, t('why.v.jaxOldCudnn', { name }), ev(st, 1));
      // one process loads one libcudnn, and the first library to load it wins (JAX's installation notes: import
      // JAX first, or match the versions); PyTorch's wheels bring their own cuDNN: with PyTorch in the same
      // input, the older copy JAX found may be PyTorch's, loaded first
      if (torchToo) board.stated('library_conflict', 1.0, t('why.v.jaxTorchCudnn'), ev(st, 1));
    } else board.stated('cuda_toolkit_mismatch', 1.2, t('why.v.jaxOldCuda', { name }), ev(st, 1));
  }
}

function cudnnVersions(board: Board, signals: Map<string, SignalState>, ev: Ev, env: EnvironmentFacts): void {
  const lv = signals.get('dnn.loaded_vs_compiled') ?? signals.get('torch.cudnn_incompatibility');
  if (!lv) return;
  const m = Collector.matches(lv).at(-1)!;
  const runtime = tupleVersion(m.values.runtime);
  const compiled = tupleVersion(m.values.compiled);
  if (!runtime || !compiled) return;
  board.hint('cudnn_version_mismatch', 'compiled', compiled);
  board.hint('cudnn_version_mismatch', 'runtime', runtime);
  board.hint('library_conflict', 'compiled', compiled);
  board.add('cudnn_version_mismatch', 0, undefined);
  // the message states its version pair: the cuDNN that loaded is not the one the build expects
  board.grounded.add('cudnn_version_mismatch');
  // TensorFlow's and XLA's wording names both readings ("If using a binary install, upgrade your CuDNN library. If
  // building from sources, make sure the library loaded at runtime is compatible…"): the only cuDNN installed is
  // that one (a version to change), or another copy came first on the loader path (a conflict). The pair cannot
  // tell which, so the conflict the message allows stays beside the version, above what the message does not state
  if (lv.group === 'dnn.loaded_vs_compiled' && board.score('library_conflict') > 0)
    board.grounded.add('library_conflict');
  // PyTorch prints "Looks like your LD_LIBRARY_PATH contains incompatible version of cudnn" only when
  // LD_LIBRARY_PATH names a cuda or cudnn folder (torch/backends/cudnn/__init__.py, catalog pt-cudnn-version-ld-path),
  // and its wheels bring their own cuDNN (the message says so): the copy that loaded came from LD_LIBRARY_PATH and
  // shadowed the bundled one
  const ldSig = signals.get('pt-cudnn-version-ld-path');
  const ldPath = ldSig ? Collector.matches(ldSig)[0] : undefined;
  if (ldPath)
    board.stated('library_conflict', 1.0, t('why.v.ldPathCudnn', { runtime, compiled }), [
      { line: ldPath.line, text: ldPath.text.slice(0, 400) },
    ]);
  const stated = env.cudnn?.value;
  // the user says they installed one version but the log shows another loading: a second copy is found first
  if (stated && /^\d+\.\d+/.test(stated) && compareVersions(majorMinor(stated), majorMinor(runtime)) !== 0) {
    board.stated('library_conflict', 2.8, t('why.v.olderCopy', { stated, runtime }), [
      ...ev(lv, 1),
      ...factEvidence(env.cudnn),
    ]);
  }
}

function driverVersions(board: Board, signals: Map<string, SignalState>, ev: Ev, env: EnvironmentFacts): void {
  const insufficient = signals.get('cuda.insufficient_driver');
  const ptxLike =
    signals.get('cuda.no_kernel_image') ??
    signals.get('cuda.unsupported_ptx') ??
    signals.get('cuda.invalid_kernel_image');
  const cuda = env.buildCuda?.value ?? env.cuda?.value;
  const driver = env.driver?.value;
  if (insufficient && !driver) {
    if (
      env.container ||
      env.install.some((i) => ['docker', 'podman', 'singularity', 'apptainer', 'kubernetes'].includes(i.value))
    ) {
      board.add('no_device_visible', 1.5, t('why.v.insufficient'), [
        ...ev(insufficient, 1),
        ...factEvidence(env.container ?? env.install[0]),
      ]);
    }
  }
  if (driver && cuda) {
    const need = minDriverForCuda(cuda, { exact: Boolean(ptxLike) });
    if (need && compareVersions(driver, need) < 0) {
      const w = insufficient || signals.has('torch.driver_too_old') ? 1.2 : ptxLike ? 2.0 : 1.0;
      const why = ptxLike ? t('why.v.driverPtx', { driver, need, cuda }) : t('why.v.driverMin', { driver, need, cuda });
      board.add('driver_too_old', w, why, [...factEvidence(env.driver), ...factEvidence(env.buildCuda ?? env.cuda)]);
      board.hint('driver_too_old', 'minDriver', need);
    } else if (need && (insufficient || signals.has('torch.driver_too_old'))) {
      // the message is what the runtime in use found: a stated toolkit the driver does support means the runtime
      // in use is another one (a wheel's, conda's or a container's own), not that the driver is new enough
      board.hint('driver_too_old', 'statedCudaFits', cuda);
    }
  }
  if (insufficient && driver) {
    board.add('driver_too_old', 0.5, t('why.v.driverInstalled', { driver }), factEvidence(env.driver));
    board.against('no_device_visible', 0.3, t('why.v.driverInstalledShort', { driver }));
  }
  const tooOld = signals.get('torch.driver_too_old');
  if (tooOld && env.driverCuda) board.hint('driver_too_old', 'driverCuda', env.driverCuda.value);
  if (env.buildCuda) board.hint('driver_too_old', 'buildCuda', env.buildCuda.value);
}

/**
 * A machine that cannot have a CUDA device: macOS (CUDA's last macOS release was 10.2, and Macs since 2016 have
 * AMD or Apple GPUs), or a stated GPU that is not NVIDIA's (Intel, AMD/Radeon, Apple; not "None": templates left
 * unfilled say that). There, a driver or
 * device failure ("CUDA driver version is insufficient", "Found no NVIDIA driver") means no device, not an old driver.
 */
/** macOS by its names, compiled natively when first asked for */
const macOs = nativeWhenAsked(/\b(?:mac\s?os|os\s?x|darwin)\b/i);

function notNvidia(board: Board, env: EnvironmentFacts): void {
  const deviceFailure = ['driver_too_old', 'no_device_visible', 'hardware_or_driver_fault'].some(
    (c) => board.score(c as 'driver_too_old') > 0,
  );
  if (!deviceFailure) return;
  const os = env.os?.value ?? '';
  if (macOs().test(os)) {
    board.add('no_device_visible', 1.5, t('why.v.macos', { os }), factEvidence(env.os));
    return;
  }
  const gpu = nonNvidiaGpu(env);
  if (gpu)
    board.add('no_device_visible', 1.5, t('why.v.notNvidia', { name: gpu.name }), [{ line: gpu.line, text: gpu.text }]);
}

/**
 * The machine cannot have a CUDA device by what the input states: macOS, or a stated GPU of another vendor (Intel,
 * AMD/Radeon, Apple) with no NVIDIA product named ("no NVIDIA GPU" beside it names none).
 */
export function cannotHaveCudaDevice(env: EnvironmentFacts): boolean {
  return macOs().test(env.os?.value ?? '') || nonNvidiaGpu(env) !== undefined;
}

function nonNvidiaGpu(env: EnvironmentFacts): EnvironmentFacts['gpus'][number] | undefined {
  return env.gpus.find((g) => {
    const named = g.name.replace(/\b(?:no|without|not an?)\s+(?:nvidia|cuda)\b[\w ]*/gi, ' ');
    return /\b(?:intel|amd|radeon|apple)\b/i.test(named) && !/nvidia|geforce|quadro|tesla|rtx|gtx|titan/i.test(named);
  });
}

const CONTAINER = ['docker', 'podman', 'singularity', 'apptainer', 'kubernetes'];
const DRIVER_LIB = /libnvidia-ml|NVML library|libcuda\.so|nvcuda\.dll/i;
const driverLib = nativeWhenAsked(DRIVER_LIB);

/**
 * Inside a container, the NVIDIA Container Toolkit mounts the driver's user-space libraries (libcuda.so,
 * libnvidia-ml.so) from the host when the container is started with GPU access (--gpus, runtime nvidia, the
 * device plugin): a container where they cannot be loaded was started without it, so it sees no GPU.
 */
function containerWithoutDriver(board: Board, signals: Map<string, SignalState>, env: EnvironmentFacts): void {
  const inContainer = env.container ?? env.install.find((i) => CONTAINER.some((c) => i.value.includes(c)));
  if (!inContainer) return;
  for (const st of signals.values()) {
    if (st.sig.kind === 'context' || st.sig.kind === 'noise') continue;
    const m = Collector.matches(st).find((x) => driverLib().test(x.text));
    if (!m) continue;
    board.add('no_device_visible', 1.5, t('why.v.containerNoGpu'), [
      { line: m.line, text: m.text.slice(0, 400) },
      ...factEvidence(inContainer),
    ]);
    return;
  }
}

/** nvcc, NVRTC or ptxas refusing a target architecture (signatures/arch.json) */
const COMPILER_ARCH = 'ptxas.unknown_arch';

/**
 * A CUDA compiler knows the architectures up to its release's newest (../shared/compat/compute_capability.json,
 * toolkit rows, from NVIDIA's release notes: sm_86 from CUDA 11.1, sm_89 and sm_90 from 11.8, sm_100 from 12.8).
 * When nvcc, NVRTC or ptxas refuses one ("nvcc fatal : Unsupported gpu architecture 'compute_86'", "ptxas fatal :
 * Value 'sm_86' is not defined for option 'gpu-name'", NVRTC's "invalid value for --gpu-architecture (-arch)"), the
 * CUDA the reporter states decides which of the message's two readings holds:
 * - that CUDA knows the architecture: the compiler that ran is not its compiler (an older nvcc first on PATH,
 *   CUDA_HOME pointing at another toolkit): the toolkit in use does not match;
 * - it does not: the GPU is newer than that CUDA, and only a newer CUDA (and a framework build for it) can target it.
 * NVRTC is the framework build's own (PyTorch ships libnvrtc of its CUDA: +cu113 is NVRTC 11.3), nvcc and ptxas the
 * system toolkit's. The architecture is the one the message names, else the stated GPU's.
 */
function compilerArch(board: Board, signals: Map<string, SignalState>, ev: Ev, env: EnvironmentFacts): void {
  const st = signals.get(COMPILER_ARCH);
  if (!st) return;
  const m = Collector.matches(st)[0];
  if (!m) return;
  const named = ccOfArch(m.values.sm ?? m.values.arch);
  const gpu = env.gpus[0];
  const cc = named ?? (gpu ? (gpu.computeCapability ?? computeCapabilityOfGpu(gpu.name) ?? undefined) : undefined);
  const nvrtc = /nvrtc|--gpu-architecture/i.test(m.text);
  const cuda = nvrtc ? (env.buildCuda ?? env.cuda) : (env.cuda ?? env.buildCuda);
  if (!cc || !cuda) return;
  const knows = cudaSupportsComputeCapability(cuda.value, cc);
  if (knows === null) return;
  const evidence = [
    ...ev(st, 1),
    ...factEvidence(cuda),
    ...(named || !gpu ? [] : [{ line: gpu.line, text: gpu.text }]),
  ];
  const args = {
    cuda: cuda.value,
    sm: smOfCc(cc),
    compiler: nvrtc ? 'NVRTC' : /ptxas/i.test(m.text) ? 'ptxas' : 'nvcc',
  };
  // an architecture the message names is the message's own statement; one taken from the stated GPU is a suspicion
  const add = named ? board.stated.bind(board) : board.add.bind(board);
  if (knows) add('cuda_toolkit_mismatch', 1.4, t('why.v.compilerOlder', args), evidence);
  // not known to it: newer than the toolkit, or older than its oldest target (CUDA 12 removed Kepler, 13 Maxwell-Volta)
  else
    add(
      'gpu_arch_unsupported',
      1.4,
      t(ccBelowCudaMinimum(cuda.value, cc) ? 'why.v.compilerDropped' : 'why.v.compilerPredates', args),
      evidence,
    );
}

/** "compute_86" / "sm_86" / "sm_90a" / "sm_100" → "8.6" / "9.0" / "10.0" (the last digit is the minor) */
export function ccOfArch(arch: string | undefined): string | undefined {
  const m = /(?:compute|sm)_(\d+)(\d)a?\b/.exec(arch ?? '');
  return m ? `${Number(m[1])}.${m[2]}` : undefined;
}

/** signal groups of a failure inside cuBLAS or cuDNN */
const LIBRARY_FAILURE = /cublas|blas|cudnn|conv|dnn/i;

function buildCompat(
  board: Board,
  signals: Map<string, SignalState>,
  env: EnvironmentFacts,
  fw: Framework | undefined,
): void {
  const gpu = env.gpus[0];
  const cc = gpu ? (gpu.computeCapability ?? computeCapabilityOfGpu(gpu.name) ?? undefined) : undefined;
  if (gpu && cc) board.hint('gpu_arch_unsupported', 'cc', cc);
  const ver = env.frameworkVersion?.value;
  const gpuEv = gpu ? [{ line: gpu.line, text: gpu.text }] : [];

  if (fw === 'pytorch' && ver && cc) {
    // an explicit archs list printed by PyTorch beats the table
    const printed = signals.get('torch.supported_archs');
    // which build: the one the log names (+cu118, "CUDA used to build PyTorch"), else the one for the CUDA the
    // reporter states when the release has such a build (conda's cudatoolkit=X, the wheel picked for the toolkit),
    // else the pip default; a build only guessed weighs less than a build read
    const buildKnown = Boolean(printed || env.buildCuda);
    const build = torchArchs(ver, env.buildCuda?.value ?? env.cuda?.value);
    const archList = printed ? (Collector.matches(printed)[0]!.values.archs ?? '').trim().split(/\s+/) : build?.archs;
    // the CUDA libraries of the build's CUDA release (cuBLAS, cuDNN) ship kernels only for the GPUs it knew, whatever
    // PyTorch's own kernels run on: a failure inside them on a newer GPU is that
    const builtWith = env.buildCuda?.value ?? build?.cuda;
    const libsPredate =
      builtWith !== undefined &&
      cudaSupportsComputeCapability(builtWith, cc) === false &&
      [...signals.keys()].some((g) => LIBRARY_FAILURE.test(g));
    if (archList && archList.length > 0) {
      const ok = smRunsOn(archList, cc);
      if (ok && libsPredate) {
        board.add(
          'gpu_arch_unsupported',
          1.8,
          t('why.v.torchPredatesLibs', { version: ver, built: builtWith, gpu: gpu!.name, sm: smOfCc(cc) }),
          [...gpuEv, ...factEvidence(env.frameworkVersion)],
        );
      } else if (!ok) {
        board.add(
          'gpu_arch_unsupported',
          buildKnown ? 2.2 : 1.2,
          t('why.v.torchArch', { version: ver, archs: archList.join(' '), gpu: gpu!.name, sm: smOfCc(cc) }),
          [...gpuEv, ...factEvidence(env.frameworkVersion)],
        );
      } else if (!signals.has(COMPILER_ARCH)) {
        // (not when a CUDA compiler refused the architecture: that is a JIT compile for the device, which the
        // build's prebuilt kernels do not enter into; compilerArch decides it)
        board.against('gpu_arch_unsupported', 0.5, t('why.v.torchArchOk', { version: ver, sm: smOfCc(cc) }));
      }
    }
  }
  if ((fw === 'tensorflow' || fw === 'keras') && ver) {
    const build = tensorflowBuild(ver);
    if (build) {
      board.hint('cudnn_version_mismatch', 'tfCudnn', build.cudnn);
      board.hint('cuda_toolkit_mismatch', 'tfCuda', build.cuda);
      const cudnn = env.cudnn?.value;
      if (cudnn) {
        const [bMaj, bMin] = build.cudnn.split('.').map(Number);
        const [uMaj, uMin] = cudnn.split('.').map(Number);
        const bad = uMaj !== bMaj || (bMin !== undefined && uMin !== undefined && uMin < bMin);
        if (bad)
          board.add('cudnn_version_mismatch', 1.8, t('why.v.tfCudnn', { version: ver, built: build.cudnn, cudnn }), [
            ...factEvidence(env.cudnn),
            ...factEvidence(env.frameworkVersion),
          ]);
        else
          board.against(
            'cudnn_version_mismatch',
            0.3,
            t('why.v.tfCudnnOk', { cudnn, version: ver, built: build.cudnn }),
          );
      }
      const cuda = env.cuda?.value;
      if (cuda) {
        const exact = Number(build.cuda.split('.')[0]) <= 10;
        // "CUDA 8" states only the major: it fits any 8.x build
        const ok =
          exact && cuda.includes('.')
            ? majorMinor(cuda) === majorMinor(build.cuda.includes('.') ? build.cuda : `${build.cuda}.0`)
            : cuda.split('.')[0] === build.cuda.split('.')[0];
        if (!ok)
          board.add('cuda_toolkit_mismatch', 1.2, t('why.v.tfCuda', { version: ver, built: build.cuda, cuda }), [
            ...factEvidence(env.cuda),
            ...factEvidence(env.frameworkVersion),
          ]);
        else board.against('cuda_toolkit_mismatch', 0.3, t('why.v.tfCudaOk', { cuda, version: ver }));
      }
      if (cc && cudaSupportsComputeCapability(build.cuda, cc) === false && Number(cc.split('.')[0]) * 10 > 0) {
        // the CUDA libraries of that release (cuBLAS, cuDNN) ship kernels only for the GPUs it knew: a failure
        // inside them on a newer GPU is that, not a JIT that was merely slow
        const libFailure = [...signals.keys()].some((g) => LIBRARY_FAILURE.test(g));
        board.add(
          'gpu_arch_unsupported',
          libFailure ? 1.8 : 1.0,
          t(libFailure ? 'why.v.tfPredatesLibs' : 'why.v.tfPredates', {
            version: ver,
            built: build.cuda,
            gpu: gpu!.name,
            sm: smOfCc(cc),
          }),
          [...gpuEv, ...factEvidence(env.frameworkVersion)],
        );
      }
    }
  }
  // CuPy compiles its kernels when first used, with the NVRTC of the CUDA it runs on (its cupy-cudaXXX wheel's, or
  // the toolkit's for a source build): a CUDA release that cannot target the GPU (too old for it, or one that
  // dropped its architecture) fails there
  const cuda = env.cuda?.value;
  if (fw === 'cupy' && !env.buildCuda && cuda && cc && cudaSupportsComputeCapability(cuda, cc) === false) {
    board.add('gpu_arch_unsupported', 1.5, t('why.v.buildCuda', { cuda, gpu: gpu!.name, sm: smOfCc(cc) }), [
      ...gpuEv,
      ...factEvidence(env.cuda),
    ]);
  }
  // any framework whose build CUDA is known: a CUDA older than the GPU has no code for it
  if (fw !== 'pytorch' && env.buildCuda && cc && cudaSupportsComputeCapability(env.buildCuda.value, cc) === false) {
    board.add(
      'gpu_arch_unsupported',
      1.5,
      t('why.v.buildCuda', { cuda: env.buildCuda.value, gpu: gpu!.name, sm: smOfCc(cc) }),
      [...gpuEv, ...factEvidence(env.buildCuda)],
    );
  }
}

/**
 * jaxlib's CUDA builds (cuda11, cuda12, ...) each need at least a given CUDA and cuDNN: a local-CUDA install loads
 * the system's libraries and XLA runs the toolkit's own ptxas, so the toolkit the user states must meet them.
 * - A stated CUDA whose major has no build in that release, or that is not the major of the wheel's own tag
 *   ("+cuda11"), cannot work with it: the jaxlib build and the toolkit do not match.
 * - A stated CUDA or cuDNN below the build's minimum (or below the cuDNN in the wheel tag, "cudnn86") does not fit.
 * - "CUDA 11" without a minor cannot be checked against a minimum such as 11.8: when the error is one a version
 *   mismatch produces, that unconfirmed floor is the first thing to check, so it counts, with less weight.
 * From 0.4.30 CUDA is a plugin whose default install brings CUDA from pip, so a system CUDA matters only for the
 * "_local" install: half weight there.
 */
function jaxCompat(board: Board, env: EnvironmentFacts): void {
  const ver = env.frameworkVersion?.value;
  if (!ver) return;
  const builds = jaxCudaBuilds(ver);
  if (!builds || builds.length === 0) return;
  const base = ver.split('+')[0]!;
  const tagMajor = env.buildCuda ? Number(env.buildCuda.value.split('.')[0]) : undefined;
  const cuda = env.cuda?.value;
  const cudaMajor = cuda ? Number(cuda.split('.')[0]) : undefined;
  const build = builds.find((b) => b.cudaMajor === (tagMajor ?? cudaMajor));
  const scale = builds.some((b) => b.plugin) ? 0.5 : 1;
  const versionError = board.score('cudnn_version_mismatch') > 0 || board.score('cuda_toolkit_mismatch') > 0;
  const fwEv = factEvidence(env.frameworkVersion);
  if (cuda && cudaMajor !== undefined && Number.isFinite(cudaMajor)) {
    const forStated = builds.find((b) => b.cudaMajor === cudaMajor);
    const majors = builds.map((b) => b.cudaMajor).join(' and ');
    if (!forStated) {
      board.add('cuda_toolkit_mismatch', 1.4 * scale, t('why.v.jaxlibMajors', { version: base, majors, cuda }), [
        ...factEvidence(env.cuda),
        ...fwEv,
      ]);
    } else if (tagMajor !== undefined && tagMajor !== cudaMajor) {
      board.add('cuda_toolkit_mismatch', 1.4 * scale, t('why.v.jaxlibTag', { major: tagMajor, cuda }), [
        ...factEvidence(env.cuda),
        ...fwEv,
        ...factEvidence(env.buildCuda),
      ]);
    } else if (cuda.includes('.')) {
      if (compareVersions(majorMinor(cuda), forStated.minCuda) < 0) {
        board.add(
          'cuda_toolkit_mismatch',
          1.4 * scale,
          t('why.v.jaxlibMin', { version: base, variant: forStated.variant, min: forStated.minCuda, cuda }),
          [...factEvidence(env.cuda), ...fwEv],
        );
        board.hint('cuda_toolkit_mismatch', 'jaxMinCuda', forStated.minCuda);
      } else {
        board.against(
          'cuda_toolkit_mismatch',
          0.3,
          t('why.v.jaxlibMinOk', { cuda, version: base, min: forStated.minCuda }),
        );
      }
    } else if (versionError && compareVersions(forStated.minCuda, `${cudaMajor}.0`) > 0) {
      board.add(
        'cuda_toolkit_mismatch',
        0.5 * scale,
        t('why.v.jaxlibMinUnsure', { version: base, variant: forStated.variant, min: forStated.minCuda, cuda }),
        [...factEvidence(env.cuda), ...fwEv],
      );
      board.hint('cuda_toolkit_mismatch', 'jaxMinCuda', forStated.minCuda);
    }
  }
  const cudnn = env.cudnn?.value;
  const tagCudnn = /\bcudnn(\d)(\d+)\b/.exec(ver);
  const needCudnn = tagCudnn ? `${tagCudnn[1]}.${tagCudnn[2]}` : (build?.minCudnn ?? undefined);
  if (cudnn && needCudnn && /^\d+\.\d+/.test(cudnn)) {
    if (compareVersions(majorMinor(cudnn), needCudnn) < 0 || cudnn.split('.')[0] !== needCudnn.split('.')[0]) {
      board.add('cudnn_version_mismatch', 1.4 * scale, t('why.v.jaxCudnn', { version: ver, need: needCudnn, cudnn }), [
        ...factEvidence(env.cudnn),
        ...fwEv,
      ]);
    } else {
      board.against('cudnn_version_mismatch', 0.3, t('why.v.jaxCudnnOk', { cudnn, version: base, need: needCudnn }));
    }
  }
}

/**
 * Does a build for these archs run on compute capability `cc`? SASS runs on the same major with an equal or higher
 * minor.
 */
export function smRunsOn(archs: string[], cc: string): boolean {
  const [maj, min] = cc.split('.').map(Number) as [number, number];
  return archs.some((a) => {
    const m = /sm_(\d+?)(\d)a?$/.exec(a.trim());
    if (!m) return false;
    return Number(m[1]) === maj && Number(m[2]) <= min;
  });
}

/** "(8, 5, 0)" or "8.5.0" → "8.5.0"; cuDNN's integer form: 7005 → "7.0.5" (major·1000 + minor·100 + patch),
 *  90100 → "9.1.0" (cuDNN 9: major·10000 + minor·100 + patch) */
export function tupleVersion(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const t = s.trim();
  if (/^\d{4,5}$/.test(t)) {
    const n = Number(t);
    if (n >= 10000) return `${Math.floor(n / 10000)}.${Math.floor((n % 10000) / 100)}.${n % 100}`;
    return `${Math.floor(n / 1000)}.${Math.floor((n % 1000) / 100)}.${n % 100}`;
  }
  const parts = t.match(/\d+/g);
  return parts ? parts.slice(0, 3).join('.') : undefined;
}

/** cudart64_110.dll → "11.0", cudart64_101.dll → "10.1", cublas64_11.dll → "11" */
function winTag(d: string): string {
  if (d.length === 2) return d;
  return `${d.slice(0, -1)}.${d.slice(-1)}`;
}

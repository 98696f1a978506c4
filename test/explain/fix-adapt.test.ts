// The fix under a cause is that cause's fix, fitted to the facts the log shows: the CUDA major of its packages,
// the variable it names, the platform and framework version, the driver error it prints. One test per adaptation,
// on the captured logs where one exists.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { cudaMajorIn, fixFor } from '../../src/judge/explain/fixes/fixes.js';
import { setLang } from '../../src/base/i18n/index.js';

const log = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');
const all = (f: { text: string; commands: string[]; manual?: string[] }) =>
  [f.text, ...f.commands, ...(f.manual ?? [])].join('\n');

afterEach(() => setLang('en'));

describe('the CUDA major of the log picks the install line', () => {
  test('a CUDA 13 JAX plugin that found no device: the no-device fix, never jax[cuda12]', () => {
    const d = explainText(log('h200/logs/novis-jax.txt'));
    expect(d.causes[0]!.id).toBe('no_device_visible');
    expect(d.causes[0]!.fix.commands).toContain('nvidia-smi -L');
    for (const c of d.causes) expect(all(c.fix)).not.toMatch(/jax\[cuda12\]|nvidia-cudnn-cu12/);
  });

  test('cudaMajorIn reads the plugin, the extra, the wheel tag; 12 when nothing says', () => {
    expect(cudaMajorIn(['  File ".../jax_plugins/xla_cuda13/__init__.py", line 369'])).toBe('13');
    expect(cudaMajorIn(['Successfully installed jax-cuda12-plugin-0.4.30'])).toBe('12');
    expect(cudaMajorIn(['torch 2.11.0+cu130'])).toBe('13');
    expect(cudaMajorIn(['torch 1.13.1+cu117'])).toBe('11');
    expect(cudaMajorIn(['nothing here'])).toBe('12');
  });

  test('a JAX cuDNN mismatch on a CUDA 13 plugin installs jax[cuda13] and nvidia-cudnn-cu13', () => {
    const lines = [
      'Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda13.initialize()',
      'Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.8.0',
    ];
    const f = fixFor('cudnn_version_mismatch', {
      framework: 'jax',
      hints: { compiled: ['9.8.0'], runtime: ['9.1.0'] },
      cudnnSymptoms: true,
      lines,
    });
    expect(f.commands.join('\n')).toMatch(/jax\[cuda13\]/);
    expect(f.commands.join('\n')).toMatch(/nvidia-cudnn-cu13==9\.8\.\*/);
    expect(f.commands.join('\n')).not.toMatch(/cuda12|cu12/);
  });

  test("a CPU-only jaxlib (no plugin ran) still gets its CUDA build, in the log's major", () => {
    const f = fixFor('no_device_visible', {
      framework: 'jax',
      hints: {},
      cudnnSymptoms: false,
      lines: [
        'An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.',
      ],
    });
    expect(f.commands).toEqual(['pip install -U "jax[cuda12]"']);
  });
});

describe('LD_PRELOAD', () => {
  test('a library LD_PRELOAD names that the loader refused: told about LD_PRELOAD and that file, not LD_LIBRARY_PATH', () => {
    const d = explainText(log('h200/logs/fake-cudnn-preload.txt'));
    const f = d.causes[0]!.fix;
    expect(f.text).toMatch(/LD_PRELOAD forces \/tmp\/cap\/fake\/libcudnn\.so\.9 .*\(file too short\)/);
    expect(f.commands).toEqual([
      'echo "$LD_PRELOAD"',
      'ls -lL /tmp/cap/fake/libcudnn.so.9',
      'unset LD_PRELOAD    # for this shell; then rerun',
    ]);
    for (const c of d.causes) expect(all(c.fix)).not.toMatch(/unset LD_LIBRARY_PATH/);
  });

  test('a path a shell would read differently is not put into a command', () => {
    const f = fixFor('library_conflict', {
      framework: undefined,
      hints: {},
      cudnnSymptoms: false,
      lines: [
        "ERROR: ld.so: object '/tmp/$(reboot)/x.so' from LD_PRELOAD cannot be preloaded (cannot open shared object file): ignored.",
      ],
    });
    expect(f.commands).toEqual(['echo "$LD_PRELOAD"', 'unset LD_PRELOAD    # for this shell; then rerun']);
  });
});

describe('native Windows', () => {
  const win =
    "OS: Windows 11\nTensorFlow version: 2.15.0\nW tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n";

  test('TensorFlow ≥ 2.11: "GPU only under WSL2 or TF ≤ 2.10" is the first sentence, its commands first', () => {
    const d = explainText(win);
    for (const c of d.causes) {
      expect(c.fix.text).toMatch(
        /^TensorFlow 2\.10 is the last release with GPU support on native Windows; TensorFlow 2\.11 and later run on the GPU only under WSL2\./,
      );
      expect(c.fix.commands[0]).toBe('conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0');
    }
  });

  test('TensorFlow 2.10 on Windows: its own tested CUDA, no WSL2 lead', () => {
    const d = explainText(win.replace('2.15.0', '2.10.1'));
    expect(d.causes[0]!.fix.text).not.toMatch(/^TensorFlow 2\.10 is the last release/);
  });

  test('in Chinese, the Windows sentences are Chinese too', () => {
    setLang('zh');
    const d = explainText(win);
    const text = d.causes.map((c) => c.fix.text).join('\n');
    expect(text).toMatch(/^TensorFlow 2\.10 是最后一个在原生 Windows 上支持 GPU 的版本/);
    expect(text).not.toMatch(/Windows finds a DLL|is the last release|conda puts the CUDA/);
  });
});

describe('Error 803 with a compat libcuda', () => {
  test('the compat library comes off LD_LIBRARY_PATH; "update the driver" is not said', () => {
    const d = explainText(log('logs-extra/h200-compat-libcuda.log'));
    const c = d.causes.find((x) => x.id === 'driver_too_old')!;
    expect(c.fix.text).toMatch(
      /compat package .* on LD_LIBRARY_PATH, older than the installed driver: take that folder off LD_LIBRARY_PATH/,
    );
    expect(c.fix.text).not.toMatch(/Update the driver/);
    expect(c.fix.commands).toContain('echo "$LD_LIBRARY_PATH"');
    expect(all(c.fix)).not.toMatch(/Install a newer NVIDIA driver/);
  });

  test('without 803 the driver fix is unchanged', () => {
    const f = fixFor('driver_too_old', {
      framework: 'pytorch',
      hints: { driverCuda: ['11.4'] },
      cudnnSymptoms: false,
      lines: ['The NVIDIA driver on your system is too old (found version 11040).'],
    });
    expect(f.text).toMatch(/Update the driver/);
  });
});

describe('Chinese fixes that install say where a pip mirror is', () => {
  test('a zh fix with pip install carries the mirror line; English and fixes without pip do not', () => {
    const ctx = {
      framework: 'jax' as const,
      hints: {},
      cudnnSymptoms: false,
      lines: ['An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed.'],
    };
    expect(fixFor('no_device_visible', ctx).text).not.toMatch(/镜像|mirror/);
    setLang('zh');
    expect(fixFor('no_device_visible', ctx).text).toMatch(
      /pip 可加 -i https:\/\/pypi\.tuna\.tsinghua\.edu\.cn\/simple 使用镜像/,
    );
    expect(
      fixFor('memory_held_by_other_process', { framework: 'pytorch', hints: {}, cudnnSymptoms: false }).text,
    ).not.toMatch(/镜像/);
  });
});

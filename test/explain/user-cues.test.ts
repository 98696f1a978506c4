// A reporter's own words for a cause (signatures/context.json, cue.*), in English and Chinese: a weak hint that moves
// the ranking only among the causes the messages allow, and never adds a cause of its own.
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const scoreOf = (t: string, id: string) => explainText(t).causes.find((c) => c.id === id)?.score ?? 0;
const ids = (t: string) => explainText(t).causes.map((c) => c.id);
const sigs = (t: string) => explainText(t).signals.map((s) => s.signature);

describe("a reporter's words move the causes the message allows", () => {
  it('显存不足 / 爆显存 weigh the memory readings of a cuDNN status up, not above its stated reading', () => {
    const log = 'RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED';
    const said = `${log}\n训练的时候爆显存了`;
    expect(sigs(said)).toContain('cue.vram_short_zh');
    expect(scoreOf(said, 'gpu_memory_exhausted')).toBeGreaterThan(scoreOf(log, 'gpu_memory_exhausted'));
    expect(ids(said)[0]).toBe(ids(log)[0]);
  });

  it('版本不匹配 weighs every version reading up alike, the stated one staying first', () => {
    const log = 'RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED';
    const said = `${log}\n怀疑是cuda和cudnn版本不匹配`;
    expect(sigs(said)).toContain('cue.versions_mismatch_zh');
    expect(scoreOf(said, 'cuda_toolkit_mismatch')).toBeGreaterThan(scoreOf(log, 'cuda_toolkit_mismatch'));
    expect(ids(said)[0]).toBe(ids(log)[0]);
  });

  it('其他进程占用 weighs "held by another process" up on an out-of-memory message', () => {
    const log = 'RuntimeError: CUDA error: out of memory';
    const said = `${log}\nnvidia-smi 里看到显存被其他进程占用`;
    expect(scoreOf(said, 'memory_held_by_other_process')).toBeGreaterThan(scoreOf(log, 'memory_held_by_other_process'));
  });

  it.each([
    ['显卡太老了，算力只有3.0', 'gpu_arch_unsupported'],
    ['I know my GPU is quite old', 'gpu_arch_unsupported'],
  ])('"%s" weighs %s up where the message allows it', (words, id) => {
    const log = 'RuntimeError: CUDA error: no kernel image is available for execution on the device';
    expect(scoreOf(`${log}\n${words}`, id)).toBeGreaterThan(scoreOf(log, id));
  });

  it('更新驱动后没有重启 reads as the English "driver updated without a reboot"', () => {
    const log = 'RuntimeError: CUDA error: an illegal memory access was encountered';
    expect(scoreOf(`${log}\n升级了显卡驱动，还没重启`, 'hardware_or_driver_fault')).toBeGreaterThan(
      scoreOf(log, 'hardware_or_driver_fault'),
    );
  });
});

describe('never a cause the message does not allow', () => {
  it.each([
    ['驱动版本过低', 'driver_too_old'],
    ['my driver is quite old', 'driver_too_old'],
    ['电脑上装了两个版本的CUDA', 'library_conflict'],
  ])('"%s" adds no %s to a missing cuDNN', (words, id) => {
    const log = "Could not load dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found";
    expect(sigs(`${log}\n${words}`).some((s) => s.startsWith('cue.'))).toBe(true);
    expect(ids(`${log}\n${words}`)).not.toContain(id);
    expect(ids(`${log}\n${words}`)[0]).toBe('library_missing');
  });

  it("alone (no failure message), a reporter's words make no diagnosis", () => {
    expect(ids('训练到第二个 epoch 就显存不足了')).toEqual([]);
    expect(ids('提示找不到 cudnn64_8.dll')).toEqual([]);
  });
});

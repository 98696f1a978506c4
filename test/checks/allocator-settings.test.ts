// The memory-policy variables, value by value: what the parsers of PyTorch, JAX and TensorFlow do with them,
// checked against what the frameworks printed on the H200 (test/fixtures/h200-truth/framework: each a fresh
// process, its output and `exit N`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  judgeJaxSettings,
  judgeTfGrowth,
  judgeTorchAllocConf,
  tokenizeAllocConf,
} from '../../src/judge/checks/env/allocator-settings.js';
import { allocatorsCheck } from '../../src/judge/checks/env/allocators.js';
import { planted } from '../helpers/snapshots.js';
import { FIXTURES } from '../helpers/fake-bin.js';

const capture = (name: string) => {
  const text = fs.readFileSync(path.join(FIXTURES, 'h200-truth/framework', name), 'utf8');
  return { text, exit: Number(/exit (\d+)\s*$/.exec(text)?.[1]) };
};
const H200_TORCH = ['2.11.0+cu130'];

describe('PYTORCH_CUDA_ALLOC_CONF, as torch 2.11 read it on the H200', () => {
  it('a bare token after the pairs aborts at import, with the exact assertion torch printed (exit 134)', () => {
    const c = capture('torch-allocconf-garbage.txt');
    const v = judgeTorchAllocConf('PYTORCH_CUDA_ALLOC_CONF', 'expandable_segment:True,garbage', H200_TORCH)!;
    expect(v.problem).toMatchObject({ phase: 'import', token: 'garbage' });
    expect(c.exit).toBe(134);
    expect(c.text).toContain(`what():  ${v.problem.error}`);
    expect(v.consequence).toMatchObject({ framework: 'torch', outcome: 'fails', certainty: 'verified' });
    expect(v.consequence.text).toMatch(/aborts at import, before any of your code runs: .*exit code 134/);
  });

  it('an unknown key imports, then fails at the first CUDA call with the ValueError torch printed (exit 1)', () => {
    const c = capture('torch-allocconf-unknownkey.txt');
    const v = judgeTorchAllocConf('PYTORCH_CUDA_ALLOC_CONF', 'foo:1', H200_TORCH)!;
    expect(v.problem).toMatchObject({ phase: 'first-cuda-call', type: 'ValueError', key: 'foo' });
    expect(c.exit).toBe(1);
    expect(c.text).toContain(`${(v.problem as { type: string }).type}: ${v.problem.error}`);
    expect(c.text).toContain('torch._C._cuda_init()');
    expect(v.consequence.certainty).toBe('verified');
  });

  it('a number that is not one fails at the first CUDA call as "RuntimeError: stoull" (exit 1)', () => {
    const c = capture('torch-allocconf-badvalue.txt');
    const v = judgeTorchAllocConf('PYTORCH_CUDA_ALLOC_CONF', 'max_split_size_mb:abc', H200_TORCH)!;
    expect(v.problem).toMatchObject({ phase: 'first-cuda-call', type: 'RuntimeError', error: 'stoull' });
    expect(c.text).toContain('RuntimeError: stoull');
    expect(c.exit).toBe(1);
  });

  it('a good value is taken (exit 0)', () => {
    expect(capture('torch-allocconf-good.txt').exit).toBe(0);
    expect(judgeTorchAllocConf('PYTORCH_CUDA_ALLOC_CONF', 'expandable_segments:True', H200_TORCH)).toBeNull();
  });

  it.each([
    ['expandable_segments=True', 'import'],
    ['expandable_segments', 'import'],
    // a token where ':' or ',' is expected does not abort at import: torch 2.11 on the H200 imported with
    // ",expandable_segments:True" and raised "Unrecognized key ','" at the first CUDA call (truth table run 1)
    [',expandable_segments:True', 'first-cuda-call'],
    ['expandable_segments:True;max_split_size_mb:128', 'first-cuda-call'],
    ['roundup_power2_divisions:[256:1,512:2', 'import'],
    ['expandable_segments:true', 'first-cuda-call'],
    ['max_split_size_mb:10', 'first-cuda-call'],
    ['garbage_collection_threshold:1.5', 'first-cuda-call'],
    ['backend:cudaMalloc', 'first-cuda-call'],
    ['expandable_segment:True', 'first-cuda-call'],
    ['expandable_segments:True,', null],
    ['expandable_segments: True , max_split_size_mb:128', null],
    ['roundup_power2_divisions:[256:1,512:2,>:8],backend:cudaMallocAsync', null],
    ['', null],
  ])('%j → %s', (value, phase) => {
    const v = judgeTorchAllocConf('PYTORCH_CUDA_ALLOC_CONF', value, H200_TORCH);
    expect(v?.problem.phase ?? null).toBe(phase);
  });

  it('tokenizes as ConfigTokenizer does: , : [ ] are tokens, spaces are dropped', () => {
    expect(tokenizeAllocConf(' a : b,[1:2]')).toEqual(['a', ':', 'b', ',', '[', '1', ':', '2', ']']);
  });

  it('before torch 2.9 every problem is a RuntimeError at the first CUDA call (read from the source, not seen)', () => {
    const v = judgeTorchAllocConf('PYTORCH_CUDA_ALLOC_CONF', 'expandable_segment:True,garbage', ['2.4.1+cu121'])!;
    expect(v.parser).toBe('old');
    expect(v.consequence).toMatchObject({ certainty: 'expected' });
    expect(v.consequence.text).toMatch(/at the first CUDA call/);
  });
});

describe('JAX and TensorFlow variables', () => {
  it('XLA_PYTHON_CLIENT_MEM_FRACTION=abc: JAX falls back to the CPU and exits 0 (an error: no GPU), as seen', () => {
    const c = capture('jax-memfrac-abc.txt');
    expect(c.exit).toBe(0);
    expect(c.text).toContain('Falling back to cpu');
    const [v] = judgeJaxSettings({ XLA_PYTHON_CLIENT_MEM_FRACTION: 'abc' });
    expect(v).toMatchObject({ severity: 'error', consequence: { outcome: 'fails', certainty: 'verified' } });
    expect(c.text).toContain("ValueError: could not convert string to float: 'abc'");
    expect(v!.consequence.text).toContain("ValueError: could not convert string to float: 'abc'");
  });

  it('XLA_PYTHON_CLIENT_MEM_FRACTION=1.5: the preallocation steps down and the job runs, as seen', () => {
    const c = capture('jax-memfrac-1.5.txt');
    expect(c.exit).toBe(0);
    expect(c.text).toMatch(/Failed to allocate device memory of 209\.70GiB/);
    const [v] = judgeJaxSettings({ XLA_PYTHON_CLIENT_MEM_FRACTION: '1.5' });
    expect(v).toMatchObject({ severity: 'warn', consequence: { outcome: 'runs', certainty: 'verified' } });
  });

  it('XLA_PYTHON_CLIENT_PREALLOCATE=maybe keeps preallocation on; FALSE too (only false, False, 0 turn it off)', () => {
    expect(capture('jax-prealloc-maybe.txt').exit).toBe(0);
    expect(judgeJaxSettings({ XLA_PYTHON_CLIENT_PREALLOCATE: 'maybe' })[0]!.message).toMatch(/keeps preallocation on/);
    expect(judgeJaxSettings({ XLA_PYTHON_CLIENT_PREALLOCATE: 'FALSE' })[0]!.consequence.certainty).toBe('expected');
    expect(judgeJaxSettings({ XLA_PYTHON_CLIENT_PREALLOCATE: 'False' })).toEqual([]);
  });

  it('TF_FORCE_GPU_ALLOW_GROWTH=True is ignored (TensorFlow reads only lower case): expected from its source', () => {
    const v = judgeTfGrowth('True')!;
    expect(v.message).toMatch(/is ignored: TensorFlow reads only "true" or "false"/);
    expect(v.consequence).toMatchObject({ framework: 'tensorflow', certainty: 'expected' });
    expect(judgeTfGrowth('true')).toBeNull();
  });
});

describe('env.allocators findings', () => {
  it('the import abort is an error worded after what happens, with a value torch accepts as the fix', () => {
    const s = planted('h200-idle', (x) => {
      x.env.PYTORCH_CUDA_ALLOC_CONF = 'expandable_segment:True,garbage';
    });
    const [f] = allocatorsCheck.evaluate(s);
    expect(f).toMatchObject({ severity: 'error', status: 'fail' });
    expect(f!.message).toMatch(/^PyTorch aborts at import: PYTORCH_CUDA_ALLOC_CONF/);
    expect(f!.consequences![0]!.text).toMatch(/exit code 134/);
    expect(f!.fix!.commands).toEqual(['export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True']);
  });
});

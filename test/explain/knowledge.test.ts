// The version knowledge explain relies on (src/judge/compat/api.ts first, its own tables as fallback).
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  computeCapabilityOfGpu,
  cudaSupportsComputeCapability,
  minDriverForCuda,
  tensorflowBuild,
  torchArchs,
} from '../../src/judge/explain/knowledge-bridge.js';
import { smRunsOn } from '../../src/judge/explain/analyse/versions.js';

describe('knowledge bridge', () => {
  it('compares versions numerically', () => {
    expect(compareVersions('12.10', '12.9')).toBeGreaterThan(0);
    expect(compareVersions('470', '510.39.01')).toBeLessThan(0);
  });
  it('knows compute capabilities of GPUs named the way users write them', () => {
    expect(computeCapabilityOfGpu('NVIDIA GeForce RTX 3090')).toBe('8.6');
    expect(computeCapabilityOfGpu('RTX 2080')).toBe('7.5');
    expect(computeCapabilityOfGpu('NVIDIA H200')).toBe('9.0');
  });
  it('knows which CUDA can target which GPU, including major-only versions from logs', () => {
    expect(cudaSupportsComputeCapability('10.2', '8.6')).toBe(false);
    expect(cudaSupportsComputeCapability('11.1', '8.6')).toBe(true);
    expect(cudaSupportsComputeCapability('11', '8.6')).toBe(true);
  });
  it('gives the minimum driver, and the full toolkit driver for PTX JIT', () => {
    expect(compareVersions(minDriverForCuda('11.6')!, '450.80.02')).toBe(0);
    expect(compareVersions(minDriverForCuda('11.6', { exact: true })!, '510.39.01')).toBe(0);
  });
  it('knows TensorFlow builds and PyTorch wheel archs', () => {
    expect(tensorflowBuild('1.2.0')).toMatchObject({ cudnn: expect.stringMatching(/^5\.1/) });
    expect(torchArchs('1.11.0', '10.2')?.archs).not.toContain('sm_86');
    expect(torchArchs('1.4.0')?.archs.some((a) => a.startsWith('sm_8'))).toBe(false);
  });
  it('SASS runs on the same major with an equal or higher minor only', () => {
    expect(smRunsOn(['sm_80'], '8.6')).toBe(true);
    expect(smRunsOn(['sm_86'], '8.0')).toBe(false);
    expect(smRunsOn(['sm_37', 'sm_50', 'sm_60', 'sm_70'], '8.6')).toBe(false);
    expect(smRunsOn(['sm_37'], '3.0')).toBe(false);
  });
});

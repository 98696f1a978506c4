// The words only one framework family uses, and whether a text of an answer names a family the input is not: the
// oracle of bench/explain-words.mjs and test/explain/true-words.test.ts, kept apart from the engine's own list
// (src/judge/explain/fixes/family.ts) so that the engine is not graded by its own rule.
/** the words that belong to one framework family (the script's own list, independent of the engine's) */
export const FAMILY_WORDS = {
  torch:
    /\b(?:PyTorch|torch\w*|libtorch\w*|c10\w*|ATen|THC\w*|CUDACachingAllocator|PYTORCH_\w+|TORCH_\w+|DataLoader|caffe2)\b/,
  tf: /\b(?:TensorFlow|tensorflow\w*|TF|tf\.\w+|Keras|keras|TF_\w+|MaybeTryDlopenGPULibraries|dso_loader)\b/,
  jax: /\b(?:JAX|jax\w*|XLA_PYTHON_CLIENT_\w+|jaxlib)\b/,
  xla: /\b(?:XLA|XLA_FLAGS|StreamExecutor|stream_executor)\b/,
  paddle: /\b(?:Paddle\w*|paddle\w*|FLAGS_\w+)\b|飞桨/,
  ort: /\b(?:ONNX Runtime|onnxruntime\w*|CUDAExecutionProvider|ORT)\b/,
  cupy: /\b(?:CuPy|cupy\w*|CUPY_\w+)\b/,
  mxnet: /\b(?:MXNet|mxnet\w*|MXNET_\w+)\b/,
  caffe: /\b(?:Caffe|caffe)\b(?!2)/,
  darknet: /\bdarknet\b/i,
};
export const FAMILY_OF = {
  pytorch: 'torch',
  tensorflow: 'tf',
  keras: 'tf',
  jax: 'jax',
  xla: 'jax',
  paddle: 'paddle',
  onnxruntime: 'ort',
  cupy: 'cupy',
  mxnet: 'mxnet',
  caffe: 'caffe',
};
/** the families a text names */
export function familiesIn(s) {
  const out = new Set();
  for (const [f, re] of Object.entries(FAMILY_WORDS)) if (re.test(s)) out.add(f);
  return out;
}
export function frameworkProblem(s, fam, cause) {
  const named = familiesIn(s);
  if (fam) {
    const allowed = new Set([fam, ...(fam === 'tf' || fam === 'jax' ? ['xla'] : [])]);
    // another framework in the same process is what preallocation means beside a framework that does not preallocate
    if (cause === 'framework_preallocation' && fam !== 'tf' && fam !== 'jax')
      for (const f of ['tf', 'jax', 'xla']) allowed.add(f);
    const other = [...named].filter((f) => !allowed.has(f));
    return other.length > 0 ? other.join('+') : null;
  }
  // no framework known: a text that speaks of one framework as if it were the input's
  const real = [...named].filter((f) => f !== 'xla');
  return real.length === 1 ? real[0] : null;
}

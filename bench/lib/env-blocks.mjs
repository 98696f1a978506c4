// The reporter's facts of a corpus case as an environment block in Chinese phrasing (the English one is
// src/judge/explain/priors/corpus.ts's envBlock: the TensorFlow/PyTorch issue templates), with the labels as
// Chinese posts, CSDN/Zhihu questions and PaddlePaddle's Chinese issue template write them, with full-width punctuation, keys
// glued to values, and several facts on one line. The values stay as the reporter wrote them (product names,
// versions, English notes), as Chinese posts paste them. Which phrasing a case gets is fixed by its id, so runs
// compare; every phrasing is used across the corpus.

const FW_NAMES = { tensorflow: 'TensorFlow', pytorch: 'PyTorch', jax: 'JAX', keras: 'Keras', other: null };

/** FNV-1a of the id and the field: the same phrasing for a case in every run. */
function pick(id, field, n) {
  let h = 0x811c9dc5;
  for (const ch of `${id}/${field}`) h = Math.imul(h ^ ch.codePointAt(0), 0x01000193) >>> 0;
  return h % n;
}

export const ZH_PHRASINGS = {
  title: ['版本、环境信息：', '【环境】', '运行环境：', '我的配置：'],
  framework: [(fw, v) => `- ${fw} 版本：${v}`, (fw, v) => `${fw}版本：${v}`, (fw, v) => `1）${fw}版本：${v}`],
  otherFramework: [(v) => `- 框架：${v}`, (v) => `框架版本：${v}`],
  os: [(v) => `- 系统：${v}`, (v) => `操作系统：${v}`, (v) => `4）系统环境：${v}`],
  python: [(v) => `- Python 版本：${v}`, (v) => `python版本 ${v}`],
  install: [(v) => `- 安装方式：${v}`, (v) => `安装方法：${v}`],
  cudaCudnn: [
    (c, d) => `- CUDA/cuDNN 版本：${c} / ${d}`,
    (c, d) => `- CUDA 版本：${c}\n- cuDNN 版本：${d}`,
    (c, d) => `CUDA版本是${c}，cudnn版本 ${d}`,
  ],
  cuda: [(v) => `- CUDA 版本：${v}`, (v) => `CUDA版本 ${v}`],
  cudnn: [(v) => `- cuDNN 版本：${v}`, (v) => `cudnn版本是${v}`],
  driver: [(v) => `- 驱动版本：${v}`, (v) => `显卡驱动：${v}`, (v) => `驱动版本 ${v}`],
  gpu: [(v) => `- 显卡：${v}`, (v) => `GPU型号：${v}`, (v) => `3）显卡型号：${v}`],
  /** several facts on one line, as in "显卡：RTX 3060 6G，CUDA 11.2，cuDNN 8.1" */
  oneLine: (g, c, d) => `显卡：${g}，CUDA ${c}，cuDNN ${d}`,
  other: [(v) => `- 其他：${v}`],
  note: [(v) => `- 备注：${v}`, (v) => `补充说明：${v}`],
};

/** The same facts in Chinese phrasing. */
export function envBlockZh(c) {
  const e = c.env ?? {};
  const P = ZH_PHRASINGS;
  const one = (field, list) => list[pick(c.id, field, list.length)];
  const lines = ['', one('title', P.title)];
  const fwName = FW_NAMES[c.framework] ?? null;
  // "unknown" stays unknown: 未知 is read as no version, as the English reader reads "unknown"
  if (fwName) lines.push(one('framework', P.framework)(fwName, c.framework_version ?? '未知'));
  else if (c.framework_version) lines.push(one('otherFramework', P.otherFramework)(c.framework_version));
  if (e.os) lines.push(one('os', P.os)(e.os));
  if (e.python) lines.push(one('python', P.python)(e.python));
  if (e.install) lines.push(one('install', P.install)(e.install));
  const oneLine = e.gpu && e.cuda && e.cudnn && pick(c.id, 'oneLine', 3) === 0;
  if (oneLine) lines.push(P.oneLine(e.gpu, e.cuda, e.cudnn));
  else if (e.cuda && e.cudnn) lines.push(one('cudaCudnn', P.cudaCudnn)(e.cuda, e.cudnn));
  else if (e.cuda) lines.push(one('cuda', P.cuda)(e.cuda));
  else if (e.cudnn) lines.push(one('cudnn', P.cudnn)(e.cudnn));
  if (e.driver) lines.push(one('driver', P.driver)(e.driver));
  if (e.gpu && !oneLine) lines.push(one('gpu', P.gpu)(e.gpu));
  if (e.other) lines.push(one('other', P.other)(e.other));
  if (e.note) lines.push(one('note', P.note)(e.note));
  return lines.join('\n');
}

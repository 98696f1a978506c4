// Makes a raw log line comparable with the signatures: no colour codes, no control characters,
// no per-process prefixes that launchers put in front of every line.
import { eitherOf, regexOf } from '../../../base/regex.js';
import { nativeAtFirstUse } from '../../../base/native-regex.js';

// CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), and two-character escapes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]/g;
// C0 controls except tab, and DEL; U+FFFD runs from binary junk become one space.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]+|\ufffd+/g;
/** any one of them, compiled natively at the first line (the cheap test below) */
const ANY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f\ufffd]/;
const primeAnyControl = nativeAtFirstUse(ANY_CONTROL);

// Prefixes added by multi-process launchers, stripped repeatedly from the start of the line:
//   torchrun/elastic "[rank0]:", "[default0]:", Ray "(pid=123)", "(RayTrainWorker pid=123, ip=10.0.0.1)",
//   DeepSpeed/pdsh "worker-1: ", MPI "[1,0]<stderr>:", docker compose "app_1  | ", kubectl "[pod/x/c] ".
const PREFIX = regexOf([
  '^(?:',
  eitherOf([
    /\[(?:rank|default|local_rank)?\d+\]:?\s*/, // torchrun/elastic
    /\((?:[\w.-]+ )?pid=\d+(?:, ip=[\d.:a-f]+)?\)\s*/, // Ray
    /\[\d+,\d+\]<std(?:out|err)>:\s*/, // MPI
    /[\w.-]+-\d+:\s+(?=\S)/, // DeepSpeed/pdsh
    /[\w.-]+_\d+\s+\|\s/, // docker compose
    /\[pod\/[^\]]+\]\s/, // kubectl
  ]),
  ')',
]);

const primePrefix = nativeAtFirstUse(PREFIX);

export function normaliseLine(raw: string): string {
  let s = raw;
  if (s.includes('\x1b')) s = s.replace(ANSI, '');
  // cheap test before the regex: most lines have no control characters
  primeAnyControl();
  if (ANY_CONTROL.test(s)) s = s.replace(CONTROL, ' ');
  const c = s.charCodeAt(0);
  // '[' '(' or a letter may start a launcher prefix
  if (c === 91 || c === 40 || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
    primePrefix();
    for (let k = 0; k < 3; k++) {
      const m = PREFIX.exec(s);
      if (!m || m[0].length === 0) break;
      s = s.slice(m[0].length);
    }
  }
  return s;
}

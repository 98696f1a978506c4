// The bundle restores the signature registry from a digest the build wrote (Registry.digest, AnchorSet.state)
// instead of computing it at every start: restored, it must select the same signatures and find the same anchors.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnchorSet } from '../../src/judge/explain/read/anchors.js';
import { registry } from '../../src/judge/explain/signatures/index.js';

const repo = path.resolve(__dirname, '../..');

describe('the registry digest', () => {
  const reg = registry();
  const digest = JSON.parse(JSON.stringify(reg.digest())) as ReturnType<typeof reg.digest>;

  it('names, per anchor, the signatures and cues the registry selects for it', () => {
    expect(digest.ids).toEqual(reg.signatures.map((s) => s.id));
    expect(digest.byAnchor.length).toBe(reg.anchors.words.length);
    digest.byAnchor.forEach((list, id) =>
      expect(list.map((i) => digest.ids[i])).toEqual(reg.signaturesFor([id]).map((s) => s.id)),
    );
    digest.cuesByAnchor.forEach((list, id) =>
      expect(list.map((i) => reg.cues[i]!.framework)).toEqual(reg.cuesFor([id]).map((c) => c.framework)),
    );
  });

  it('restores an anchor set that finds what the original finds, line by line and in a whole buffer', () => {
    const restored = AnchorSet.fromState(digest.anchors);
    const text =
      ['conv-keep1200-bs64.txt', 'jax-keep2500.txt', 'cupy-oom-hog.txt']
        .map((f) => path.join(repo, 'test/fixtures/h200/logs', f))
        .map((f) => fs.readFileSync(f, 'utf8'))
        .join('\n') + '\n显卡 内存不足 CUDNN_STATUS_NOT_INITIALIZED libcudart.so.12\n';
    for (const line of text.split('\n')) expect(restored.idsIn(line)).toEqual(reg.anchors.idsIn(line));
    const buf = Buffer.from(text);
    const hits = (a: AnchorSet, head: boolean) => {
      const out: number[] = [];
      a.scan(buf, 0, buf.length, (at) => (out.push(at), at + 1), head);
      return out;
    };
    expect(hits(restored, false)).toEqual(hits(reg.anchors, false));
    expect(hits(restored, true)).toEqual(hits(reg.anchors, true));
    expect(hits(restored, false).length).toBeGreaterThan(10);
  });
});

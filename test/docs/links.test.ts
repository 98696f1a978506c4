// Every link in the README, the changelog and docs/ leads to a file of this repository; the pages shipped in the
// package (package.json "files") link only to what is shipped, so they still work after an install; no page names
// a path outside the repository (a reader of the package has no ../shared).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...markdownFiles(rel));
    else if (e.name.endsWith('.md')) out.push(rel);
  }
  return out;
}

const PAGES = ['README.md', 'CHANGELOG.md', ...markdownFiles('docs')];
const SHIPPED: string[] = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).files;

/** the local targets of a page's links: inline `[x](target)`, reference `[x]: target`, HTML src/href */
function localLinks(text: string): string[] {
  // code blocks and spans show commands and output, not links
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const found = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
    ...[...prose.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!),
  ];
  return found.filter((u) => !/^[a-z][a-z0-9+.-]*:/i.test(u) && !u.startsWith('#'));
}

/** where a link of `page` leads, relative to the repository root */
const target = (page: string, link: string) =>
  path.normalize(path.join(path.dirname(page), decodeURIComponent(link.split('#')[0]!)));
const inside = (rel: string) => rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
const shipped = (rel: string) => SHIPPED.some((f) => rel === f || rel.startsWith(`${f}/`));

describe('links in the README and docs', () => {
  it('finds the links of a page (the reader itself)', () => {
    expect(
      localLinks('[a](b.md) [c](https://x.y) [d](#e) `[f](g.md)`\n[h]: ../i.md\n<img src="j.png"> [k](l.md#m)'),
    ).toEqual(['b.md', 'l.md#m', '../i.md', 'j.png']);
  });

  it.each(PAGES)('%s: every link leads to a file of the repository', (page) => {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
    const bad = localLinks(text)
      .map((l) => [l, target(page, l)] as const)
      .filter(([, t]) => !inside(t) || !fs.existsSync(path.join(ROOT, t)));
    expect(bad).toEqual([]);
    // a path in prose or a code span that climbs out of the repository
    const outside = [...text.matchAll(/(?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*/g)]
      .map((m) => m[0])
      .filter((p) => !inside(path.normalize(path.join(path.dirname(page), p))));
    expect(outside).toEqual([]);
  });

  it.each(PAGES.filter((p) => shipped(p) && p !== 'README.md'))(
    '%s, shipped in the package, links only to what is shipped',
    (page) => {
      const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
      const notShipped = localLinks(text)
        .map((l) => target(page, l))
        .filter((t) => !shipped(t));
      expect(notShipped).toEqual([]);
    },
  );
});

// nvidia-smi's XML read by the quick reader (src/gather/nvidia/parse-xml.ts quickParse) gives what the general XML
// parser gives, on every capture of a real nvidia-smi, whole and cut as parseSmiXml cuts it, and on the forms it
// reads; on every other form it reads nothing (undefined), so that the general parser decides, errors included.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  generalParse,
  parseSmiXml,
  quickParse,
  warmUpParser,
  withoutUnread,
} from '../../src/gather/nvidia/parse-xml.js';
import { FIXTURES } from '../helpers/fake-bin.js';

function captures(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? captures(path.join(dir, e.name)) : e.name.endsWith('.xml') ? [path.join(dir, e.name)] : [],
    );
}

const root = (doc: Record<string, unknown> | undefined) => doc?.nvidia_smi_log;
const same = (xml: string) => {
  const quick = quickParse(xml);
  expect(quick).toBeDefined();
  expect(root(quick)).toEqual(root(generalParse(xml)));
  // the same keys in the same order, down every level (clock reasons are read in their order)
  expect(JSON.stringify(root(quick))).toBe(JSON.stringify(root(generalParse(xml))));
};
const declined = (xml: string) => expect(quickParse(xml), xml).toBeUndefined();

const DOC = (body: string) =>
  `<?xml version="1.0" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">\n<nvidia_smi_log>\n${body}\n</nvidia_smi_log>\n`;

describe('the quick reader of nvidia-smi -q -x', () => {
  it('every capture of a real nvidia-smi: what the general parser gives, whole and cut', () => {
    const files = captures(FIXTURES);
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const f of files) {
      const xml = fs.readFileSync(f, 'utf8');
      if (!xml.includes('<nvidia_smi_log')) continue;
      same(xml);
      same(withoutUnread(xml));
    }
  });

  it('the forms it reads: lists, repeats, empty and self-closed elements, entities, the gpu id', () => {
    same(
      DOC(`\t<driver_version>580</driver_version>
\t<gpu id="00000000:00:06.0">
\t\t<product_name>A &amp; B &lt;x&gt; &quot;q&quot; &apos;s&apos;</product_name>
\t\t<processes>
\t\t</processes>
\t\t<empty/>
\t\t<empty2 />
\t\t<none></none>
\t\t<rep>1</rep>
\t\t<rep>2</rep>
\t\t<rep><inner>3</inner></rep>
\t\t<clocks_event_reasons><b_reason>Active</b_reason><a_reason>Not Active</a_reason></clocks_event_reasons>
\t</gpu>
\t<gpu id="2"><processes><process_info><pid>7</pid></process_info></processes></gpu>
\t<gpu id="3"><mig_devices><mig_device><index>0</index></mig_device></mig_devices></gpu>`),
    );
    same(DOC('<driver_version>1</driver_version>'));
    for (const t of ['a &amp;lt; b', '&amp;amp;', 'x &gt;&gt; y', 'a > b', '  spaced  out  '])
      same(DOC(`<driver_version>${t}</driver_version>`));
    same('<nvidia_smi_log><driver_version> 1 </driver_version></nvidia_smi_log>');
  });

  it('anything else is left to the general parser', () => {
    for (const xml of [
      DOC('<!-- a comment --><driver_version>1</driver_version>'),
      DOC('<driver_version><![CDATA[1]]></driver_version>'),
      DOC('<driver_version>&#49;</driver_version>'),
      DOC('<driver_version>&nbsp;1</driver_version>'),
      DOC('<driver_version>a & b</driver_version>'),
      DOC('text beside <driver_version>1</driver_version>'),
      DOC('<gpu id="1">text</gpu>'),
      DOC('<gpu id="1"/>'),
      DOC("<gpu id='1'><x>1</x></gpu>"),
      DOC('<gpu id="a&amp;b"><x>1</x></gpu>'),
      DOC('<driver_version>1</driver_versio>'),
      DOC('<driver_version>1'),
      DOC('<__proto__>1</__proto__>'),
      '<?xml version="1.0" ?>\n<nvidia_smi_log>\n<driver_version>580',
      '<?xml version="1.0" ?>\n<other><driver_version>1</driver_version></other>',
      '<nvidia_smi_log></nvidia_smi_log><nvidia_smi_log></nvidia_smi_log>',
      '<!DOCTYPE x [ <!ENTITY e "1"> ]><nvidia_smi_log><driver_version>&e;</driver_version></nvidia_smi_log>',
      '<nvidia_smi_log><driver_version>1</driver_version></nvidia_smi_log><?xml version="1.0" ?>',
      'junk <nvidia_smi_log></nvidia_smi_log>',
    ])
      declined(xml);
  });

  it('parseSmiXml reads through it: the same facts as through the general parser, the same errors as before', () => {
    const xml = fs.readFileSync(path.join(FIXTURES, 'h200/hog/nvidia-smi-q-hog.xml'), 'utf8');
    expect(quickParse(withoutUnread(xml))).toBeDefined();
    expect(parseSmiXml(xml).gpus[0]!.processes).toEqual([{ pid: 694, name: 'python3', usedMiB: 142848, type: 'C' }]);
    // a cut-off answer: the general parser's word, as before
    expect(() => parseSmiXml('<?xml version="1.0" ?>\n<nvidia_smi_log>\n<driver_version>580')).toThrow(
      /no <driver_version> element|not valid XML/,
    );
    // the warm-up takes the quick path too (its code is compiled before the answer)
    expect(warmUpParser()?.gpus[0]?.processes[0]?.name).toBe('a & b');
  });
});

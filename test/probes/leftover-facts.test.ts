// The facts that tell work or intent from a leftover, as the process probe reads them: parsers over real lines
// of this machine's /proc, and a real nohup'd server (its sockets, SIGHUP, output file) read through the probe.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { parseNetTcp, parseNetUnix, parseProcStatus, sigHupIgnored } from '../../src/gather/procfs/parse.js';
import { probeProcesses } from '../../src/gather/procfs/processes.js';
import type { Nvidia } from '../../src/gather/snapshot/schema.js';
import { tempDir } from '../helpers/fake-bin.js';
import { fsWithGpuFds, killQuietly, waitFor } from '../fix/helpers.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) killQuietly(pid);
});

describe('parsers of /proc/PID/net and SigIgn (real lines)', () => {
  it('tcp: a listener on 0.0.0.0:2024 and a connection in TIME_WAIT', () => {
    const text = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1063 1 000000005a9aa5cb 100 0 0 10 0
   1: 0100007F:A865 0100007F:E4C0 06 00000000:00000000 03:00000DA3 00000000     0        0 0 3 000000009a5267d7
   2: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 2077 1 0000000000000000 20 4 30 10 -1`;
    expect(parseNetTcp(text, 'tcp')).toEqual([
      { inode: 1063, address: 'tcp 0.0.0.0:2024', listening: true, established: false },
      { inode: 2077, address: 'tcp 127.0.0.1:8080', listening: false, established: true },
    ]);
  });
  it('tcp6: the any-address and the loopback', () => {
    const text = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5001 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000001000000:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5002 1 0000000000000000 100 0 0 10 0`;
    expect(parseNetTcp(text, 'tcp6').map((s) => s.address)).toEqual(['tcp6 [::]:8080', 'tcp6 [0:0:0:0:0:0:0:1]:8081']);
  });
  it('unix: listening only with __SO_ACCEPTCON', () => {
    const text = `Num       RefCount Protocol Flags    Type St Inode Path
00000000c98cf263: 00000003 00000000 00000000 0001 03 385599
0000000013c4a1d2: 00000002 00000000 00010000 0001 01 20345 /run/model.sock`;
    expect(parseNetUnix(text)).toEqual([
      { inode: 385599, address: 'unix (unnamed)', listening: false, established: false },
      { inode: 20345, address: 'unix /run/model.sock', listening: true, established: false },
    ]);
  });
  it('SigIgn: bit 0 is SIGHUP', () => {
    expect(sigHupIgnored(parseProcStatus('SigIgn:\t0000000000000001\n'))).toBe(true);
    expect(sigHupIgnored(parseProcStatus('SigIgn:\t0000000000001000\n'))).toBe(false);
    expect(sigHupIgnored(parseProcStatus('Name:\tx\n'))).toBeNull();
  });
});

describe('the probe on a real nohup server', () => {
  it('reads SIGHUP ignored, its listening sockets, its output file and its ancestors', () => {
    const dir = tempDir();
    const script = path.join(dir, 'serve.py');
    fs.writeFileSync(
      script,
      `import socket, sys, time
t = socket.socket(); t.bind(('127.0.0.1', 0)); t.listen()
u = socket.socket(socket.AF_UNIX); u.bind(sys.argv[1] + '/model.sock'); u.listen()
print('serving', t.getsockname()[1], flush=True)
time.sleep(300)
`,
    );
    const log = path.join(dir, 'out.log');
    // the launching shell has its own session and exits at once, as a user logging out
    const pid = Number(
      execFileSync('setsid', ['sh', '-c', `nohup python3 ${script} ${dir} >${log} 2>&1 </dev/null & echo $!`], {
        encoding: 'utf8',
      }).trim(),
    );
    started.push(pid);
    waitFor(() => fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('serving'), 10000);
    const port = fs.readFileSync(log, 'utf8').trim().split(' ')[1];
    const nvidia: Nvidia = { ok: false, failure: { reason: 'not-installed', message: 'none' } };
    const got = probeProcesses(fsWithGpuFds(createFileSystem('/'), [pid]), nvidia, process.pid, Date.now());
    const p = got.list.find((q) => q.pid === pid)!;
    expect(p.sigHupIgnored).toBe(true);
    expect(p.listening).toEqual(expect.arrayContaining([`tcp 127.0.0.1:${port}`, `unix ${dir}/model.sock`]));
    expect(p.connections).toBe(0);
    expect(p.stdio).toEqual(['null', 'file', 'file']);
    expect(p.outputWrittenAt).toBe(Math.round(fs.statSync(log).mtimeMs));
    expect(p.cwdIsRoot).toBe(false);
    // its shell is gone: the session's leader too
    expect(p.sessionLeaderAlive).toBe(false);
    expect(p.ancestors!.some((a) => a.pid === process.pid)).toBe(false);
  });
});

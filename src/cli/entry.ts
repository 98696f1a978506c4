// The shared tree's entry (dist/entries/cli.js, an ES module), loaded by dist/cli.js for every command line that does
// not name explain: check's nvidia-smi (~0.1 s on a datacenter GPU) started before the program loads (./early.ts
// says when), then the program, split per command (scripts/build.mjs).

/** Runs the command line `argv`. */
export async function run(argv: string[]): Promise<void> {
  const early = await import('./early.js');
  early.startNvidiaFirst(argv);
  const { start } = await import('./start.js').catch((err: unknown) => {
    // a start that cannot load must not wait for the nvidia-smi begun above
    early.endUnclaimed();
    throw err;
  });
  start(argv, early.endUnclaimed);
}

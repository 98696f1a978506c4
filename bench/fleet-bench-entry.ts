// What bench/fleet-scale.mjs needs in process, bundled by it with esbuild (Node 20 cannot run .ts itself).
export { FleetMerger } from '../src/judge/fleet/merge.js';
export { ALL_CHECKS } from '../src/judge/checks/index.js';
export { parseSnapshotText } from '../src/gather/snapshot/load.js';
export { nodeSnapshot, nodeName, PLANTED } from './fleet-generate.js';
export { realSnapshot } from '../test/fleet/h200-snapshot.js';

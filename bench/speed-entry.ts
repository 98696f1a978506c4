// What bench/speed.mjs needs from TypeScript, bundled by it with esbuild (Node 20 cannot run .ts itself).
export { buildMachine } from './machine.js';
export { nodeSnapshot, nodeName } from './fleet-generate.js';
export { realSnapshot } from '../test/fleet/h200-snapshot.js';

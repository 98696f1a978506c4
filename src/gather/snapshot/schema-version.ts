// The Snapshot's format version, apart from its schema (./schema.ts): collecting a snapshot needs the number,
// not the validator (zod is loaded only where a snapshot is read back: --from, diff, fleet).
export const SNAPSHOT_SCHEMA_VERSION = 1;

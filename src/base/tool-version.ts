// Kept in step with package.json by a test.
export const TOOL_NAME = 'gpu-env-doctor';
export const TOOL_VERSION = '0.1.0';

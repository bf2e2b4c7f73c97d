export { backend, type Backend, type BackendName } from './backends.ts';
export { tool, toolCache, toolsPath, type ToolName } from './tools.ts';

export { backend, type Backend, type BackendName } from './backends.ts';
export { tool, type ToolName } from './tools.ts';

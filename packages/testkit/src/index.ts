export { backend, type Backend, type BackendName } from './backends.ts';
export { tool, toolCache, toolsPath, type ToolName } from './tools.ts';
export {
  cluster,
  importImage,
  kubectl,
  parseAssignments,
  type Cluster,
  type ImageOptions,
} from './cluster.ts';

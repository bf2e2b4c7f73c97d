export { backend, type Backend, type BackendName } from './backends.ts';

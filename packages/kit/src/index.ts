export { hello } from './hello.ts';

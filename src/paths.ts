import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the installed project (this file is compiled to dist/src/paths.js). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const seedDir = path.join(projectRoot, 'seed');

import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root, found from this compiled file (dist/app/bootstrap/config/paths.js). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const DIST_ROOT = path.join(PROJECT_ROOT, 'dist');

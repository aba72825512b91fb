import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST_ROOT } from '../config/paths.js';

/** Left by app/bin/build.mjs when a build fails; removed by the next build that passes. */
export const BUILD_FAILED_MARKER = path.join(DIST_ROOT, '.build-failed');

/**
 * Why dist/ must not run, or null: after a failed build dist/ still holds the previous build's
 * JavaScript (tsc emits nothing on an error), while the modules' XML is read from the sources, so
 * the service would run what the build refused.
 */
export function failedBuild(): string | null {
  return existsSync(BUILD_FAILED_MARKER) ? readFileSync(BUILD_FAILED_MARKER, 'utf8').trim() : null;
}

/**
 * Matches a method and path to a webapi.xml route as Magento does: by method and segment count,
 * and where several routes match, a literal segment beats a parameter at the first position
 * where they differ.
 */
import type { HttpMethod, RouteDefinition } from '../config/WebapiConfig.js';

export interface CompiledRoute<T = unknown> {
  readonly definition: RouteDefinition;
  readonly segments: readonly string[];
  /** For each segment: the parameter name (without ':') or null for a literal. */
  readonly params: readonly (string | null)[];
  /** Whatever the front controller attaches (the resolved service and method spec). */
  readonly target: T;
}

export interface RouteMatch<T> {
  readonly route: CompiledRoute<T>;
  readonly pathParams: Record<string, string>;
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** Sorts more specific routes first: literal before parameter at the first differing segment. */
function compareSpecificity(a: CompiledRoute, b: CompiledRoute): number {
  for (let i = 0; i < a.params.length; i++) {
    const aLiteral = a.params[i] === null;
    const bLiteral = b.params[i] === null;
    if (aLiteral !== bLiteral) return aLiteral ? -1 : 1;
  }
  return 0;
}

export class RouteRegistry<T = unknown> {
  private readonly byKey = new Map<string, CompiledRoute<T>[]>();

  add(definition: RouteDefinition, target: T): void {
    const segments = splitPath(definition.url);
    const route: CompiledRoute<T> = {
      definition,
      segments,
      params: segments.map((s) => (s.startsWith(':') ? s.slice(1) : null)),
      target,
    };
    const key = `${definition.method} ${segments.length}`;
    const list = this.byKey.get(key) ?? [];
    list.push(route);
    list.sort(compareSpecificity);
    this.byKey.set(key, list);
  }

  /** `path` is the part after the scope, e.g. `/V1/products/abc`; segments arrive URL-decoded. */
  match(method: string, path: string): RouteMatch<T> | null {
    const segments = splitPath(path);
    const candidates = this.byKey.get(`${method.toUpperCase() as HttpMethod} ${segments.length}`);
    if (!candidates) return null;
    let decoded: string[] | undefined;
    for (const route of candidates) {
      let ok = true;
      for (let i = 0; i < segments.length; i++) {
        if (route.params[i] === null && route.segments[i] !== segments[i]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      try {
        // As Magento's router (PHP urldecode): a `+` in a path parameter is a space.
        decoded ??= segments.map((s) => decodeURIComponent(s.replace(/\+/g, ' ')));
      } catch {
        return null; // a malformed %-escape matches nothing
      }
      const pathParams: Record<string, string> = {};
      route.params.forEach((name, i) => {
        if (name !== null) pathParams[name] = decoded![i]!;
      });
      return { route, pathParams };
    }
    return null;
  }
}

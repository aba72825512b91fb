/**
 * Reads `etc/webapi.xml` routes. A later module that declares the same url and method replaces
 * the earlier route, as Magento's merge does.
 */
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { ConfigError, checkElement, parseBooleanAttr } from '../xml/xml.js';
import { readModuleXmlFiles } from './moduleXmlFiles.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface RouteParameterInjection {
  /** Dotted path into the input, e.g. `customer.id` or `customerId`. */
  readonly name: string;
  readonly value: string;
  readonly force: boolean;
}

export interface RouteDefinition {
  readonly url: string;
  readonly method: HttpMethod;
  readonly serviceClass: string;
  readonly serviceMethod: string;
  readonly resources: readonly string[];
  /**
   * `global` (webapi.xml `<route ... scope="global">`): the route changes data every store shares,
   * so a caller bound to one store is refused at authorization, before the body is read or
   * anything is queued, as the ACL resources are.
   */
  readonly scope?: 'global';
  /**
   * `false` (webapi.xml `<route ... async="false">`, this project's attribute): the route has no
   * `/async/...` or `/async/bulk/...` form, because its body or answer carries credentials (a
   * signing secret) that must not be stored in a queued operation or shown in its status.
   */
  readonly async?: false;
  /**
   * webapi.xml `<route ... partitionKey="...">` (this project's attribute): what names the entity
   * an async operation of the route touches, so operations of one entity are consumed in order by
   * one consumer at a time: a path parameter, or a dotted path into the body (`product.sku`).
   * Unset: the route's first path parameter; a route without one has no key (any consumer, any order).
   */
  readonly partitionKey?: string;
  readonly data: readonly RouteParameterInjection[];
  readonly file: string;
  readonly module: string;
}

export function readWebapiConfig(modules: readonly ModuleDefinition[]): RouteDefinition[] {
  const routes = new Map<string, RouteDefinition>();
  for (const { module, file, root } of readModuleXmlFiles(modules, 'webapi.xml', { root: 'routes' })) {
    checkElement(root, { children: ['route'] }, file, 'routes');
    for (const element of root.children) {
      checkElement(
        element,
        {
          required: ['url', 'method'],
          optional: ['secure', 'soapOperation', 'scope', 'async', 'partitionKey'],
          children: ['service', 'resources', 'data'],
        },
        file,
        'route',
      );
      const url = element.attrs.url!;
      const method = element.attrs.method!.toUpperCase() as HttpMethod;
      if (!HTTP_METHODS.includes(method))
        throw new ConfigError(`${file}: route ${url} has an unknown method "${element.attrs.method}"`);
      if (!/^\/V\d+\//.test(url))
        throw new ConfigError(`${file}: route url "${url}" must start with a version segment such as /V1/`);
      const scope = element.attrs.scope;
      if (scope !== undefined && scope !== 'global')
        throw new ConfigError(`${file}: route ${method} ${url} has an unknown scope "${scope}" (only "global")`);
      const async = parseBooleanAttr(element.attrs.async, file, 'async');
      const partitionKey = element.attrs.partitionKey;
      if (partitionKey !== undefined && !/^\w+(\.\w+)*$/.test(partitionKey))
        throw new ConfigError(
          `${file}: route ${method} ${url} has partitionKey "${partitionKey}": a path parameter or a dotted body path is expected`,
        );
      const services = element.children.filter((c) => c.name === 'service');
      if (services.length !== 1) throw new ConfigError(`${file}: route ${method} ${url} needs exactly one <service>`);
      const service = services[0]!;
      checkElement(service, { required: ['class', 'method'] }, file, 'service');
      const resources: string[] = [];
      const data: RouteParameterInjection[] = [];
      for (const child of element.children) {
        if (child.name === 'resources') {
          checkElement(child, { children: ['resource'] }, file, 'resources');
          for (const resource of child.children) {
            checkElement(resource, { required: ['ref'] }, file, 'resource');
            resources.push(resource.attrs.ref!);
          }
        } else if (child.name === 'data') {
          checkElement(child, { children: ['parameter'] }, file, 'data');
          for (const parameter of child.children) {
            checkElement(parameter, { required: ['name'], optional: ['force'], text: true }, file, 'parameter');
            data.push({
              name: parameter.attrs.name!,
              value: parameter.text,
              force: parseBooleanAttr(parameter.attrs.force, file, 'force') ?? false,
            });
          }
        }
      }
      if (resources.length === 0)
        throw new ConfigError(
          `${file}: route ${method} ${url} needs <resources> (use <resource ref="anonymous"/> for a public route)`,
        );
      routes.set(`${method} ${url}`, {
        url,
        method,
        serviceClass: service.attrs.class!,
        serviceMethod: service.attrs.method!,
        resources,
        ...(scope === 'global' ? { scope } : {}),
        ...(async === false ? { async } : {}),
        ...(partitionKey !== undefined ? { partitionKey } : {}),
        data,
        file,
        module: module.name,
      });
    }
  }
  return [...routes.values()];
}

import type { Area } from '../config/Area.js';
import { moduleXmlPaths } from '../config/moduleXmlFiles.js';
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { EVENT_AREAS, readEventConfig } from './EventConfig.js';

/**
 * What `dev:event:list [<event>] [--area <area>]` prints: per area, each event's observers in call
 * order, then the disabled ones. Without --area: global, and every area with an events.xml of its own.
 */
export function describeEvents(
  modules: readonly ModuleDefinition[],
  options: { event?: string; area?: Area } = {},
): string[] {
  const filesOf = (area: Area) => moduleXmlPaths(modules, 'events.xml', area).length;
  const globalFiles = filesOf('global');
  const ownFiles = (area: Area) => area === 'global' || filesOf(area) > globalFiles;
  const areas = options.area ? [options.area] : EVENT_AREAS.filter(ownFiles);
  const wanted = options.event?.toLowerCase();
  const lines: string[] = [];
  for (const area of areas) {
    const config = readEventConfig(modules, area);
    lines.push(`Area ${area}:`);
    const names = [...config.events.keys()].filter((name) => wanted === undefined || name === wanted).sort();
    if (names.length === 0) lines.push(wanted ? `  ${wanted}: no observers` : '  no events observed');
    for (const name of names) {
      lines.push(`  ${name}:`);
      const observers = [...config.events.get(name)!.values()];
      const enabled = observers.filter((o) => !o.disabled);
      if (enabled.length === 0) lines.push('    no enabled observers');
      enabled.forEach((o, index) =>
        lines.push(`    ${index + 1}. ${o.name} (${o.instance}${o.shared === false ? ', shared="false"' : ''})`),
      );
      for (const o of observers.filter((o) => o.disabled))
        lines.push(`    disabled: ${o.name}${o.instance ? ` (${o.instance})` : ''}`);
    }
  }
  return lines;
}

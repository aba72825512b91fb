/**
 * The command line: commander, with the framework's own commands (module:status, setup:upgrade,
 * dev:plugin:list, dev:route:list) and every command modules list in
 * `Framework\Console\CommandList`. Logs go to stderr so stdout carries only the command's output.
 */
import { Command, CommanderError } from 'commander';
import pino from 'pino';
import { Application, type ApplicationOptions } from '../bootstrap/Application.js';
import type { Area } from '../framework/config/DiConfig.js';
import { DI_AREAS } from '../framework/config/DiConfig.js';
import type { CommandList } from '../framework/console/CommandList.js';
import { describeLevels } from '../framework/interception/PluginList.js';
import { describeEvents } from '../framework/event/describeEvents.js';
import { discoverModules } from '../framework/module/ModuleLoader.js';
import { addQueueCommands } from './queueCommands.js';
import { PROJECT_ROOT, DIST_ROOT } from '../bootstrap/paths.js';
import path from 'node:path';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Runs one command line; answers the exit code. `options` lets tests point at other modules/databases. */
export async function runCli(argv: string[], io: CliIo = defaultIo, options: ApplicationOptions = {}): Promise<number> {
  const logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
  const app = await Application.create({ ...options, area: 'global', logger });
  let extraApp: Application | undefined;
  try {
    const program = new Command('cli')
      .description('Dispensary runtime command line')
      .exitOverride()
      .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });
    let action: (() => Promise<void>) | undefined;

    program
      .command('module:status')
      .description('List modules in load order, and the disabled ones')
      .action(() => {
        action = async () => {
          const enabled = new Set(app.modules.map((m) => m.name));
          io.out('Enabled modules (in load order):');
          for (const module of app.modules) io.out(`  ${module.name}`);
          const sources = options.moduleSources ?? [{ modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') }];
          const disabled = discoverModules(sources).filter((m) => !enabled.has(m.name));
          io.out('Disabled modules:');
          if (disabled.length === 0) io.out('  None');
          for (const module of disabled) io.out(`  ${module.name}`);
        };
      });

    program
      .command('setup:upgrade')
      .description('Apply pending database migrations of the enabled modules, then the data installers')
      .action(() => {
        action = async () => {
          const { migrations } = await app.setupUpgrade();
          io.out(migrations.length ? `Applied ${migrations.length} migration(s):` : 'Nothing to migrate: the database is up to date.');
          for (const name of migrations) io.out(`  ${name}`);
        };
      });

    program
      .command('dev:plugin:list')
      .description('Print the plugin chain of a type (class or contract) in call order')
      .argument('<type>', 'class or contract name, e.g. Dispensary\\Recommendation\\Api\\RecommendationItemManagementInterface')
      .argument('[method]', 'only this method')
      .option('--area <area>', `config area: global, ${DI_AREAS.join(', ')}`, 'webapi_rest')
      .action((type: string, method: string | undefined, opts: { area: string }) => {
        action = async () => {
          const area = opts.area as Area;
          if (area !== 'global' && !DI_AREAS.includes(area as (typeof DI_AREAS)[number])) throw new Error(`Unknown area "${opts.area}"`);
          extraApp = area === 'global' ? undefined : await Application.create({ ...options, area, logger });
          const om = (extraApp ?? app).objectManager;
          const concrete = om.concreteName(type);
          if (!om.isBound(type)) throw new Error(`Unknown type ${type}`);
          const chains = om.chainsOf(type);
          io.out(`${type}${concrete !== type ? ` (served by ${concrete})` : ''}, area ${area}:`);
          const methods = method ? [method] : [...chains.keys()].sort();
          if (methods.length === 0) io.out('  no plugins');
          for (const name of methods) {
            const levels = chains.get(name);
            io.out(`  ${name}():`);
            if (!levels) {
              io.out('    no plugins');
              continue;
            }
            for (const line of describeLevels(levels, name)) io.out(`    ${line}`);
          }
        };
      });

    program
      .command('dev:event:list')
      .description('Print the observers of each event (or of one) in call order, per area')
      .argument('[event]', 'only this event, e.g. dispensary_recommendation_items_add_after')
      .option('--area <area>', `only this area: global, ${DI_AREAS.join(', ')}`)
      .action((event: string | undefined, opts: { area?: string }) => {
        action = async () => {
          if (opts.area !== undefined && opts.area !== 'global' && !DI_AREAS.includes(opts.area as (typeof DI_AREAS)[number])) throw new Error(`Unknown area "${opts.area}"`);
          for (const line of describeEvents(app.modules, { event, area: opts.area as Area | undefined })) io.out(line);
        };
      });

    program
      .command('dev:route:list')
      .description('List the REST routes of the enabled modules')
      .action(() => {
        action = async () => {
          extraApp = await Application.create({ ...options, area: 'webapi_rest', logger });
          for (const route of extraApp.routes.keys()) {
            io.out(`${route.method.padEnd(6)} /rest/<scope>${route.url}  ${route.serviceClass}::${route.serviceMethod}  [${route.resources.join(', ')}]`);
          }
        };
      });

    addQueueCommands(program, { options, logger, out: io.out, upgrade: () => app.setupUpgrade(), setAction: (fn) => (action = fn) });

    const commandList = app.get<CommandList>('Framework\\Console\\CommandList');
    for (const command of commandList.list()) {
      const sub = program.command(command.name).description(command.description);
      command.configure(sub);
      sub.action((...received: unknown[]) => {
        const cmd = received[received.length - 1] as Command;
        const positional = received.slice(0, -2).filter((a): a is string => typeof a === 'string');
        action = async () => {
          if (command.needsDatabase !== false) await app.setupUpgrade();
          await command.execute(cmd.opts(), positional, io.out);
        };
      });
    }

    try {
      await program.parseAsync(argv);
    } catch (error) {
      if (error instanceof CommanderError) return error.exitCode;
      throw error;
    }
    if (!action) {
      program.outputHelp();
      return 1;
    }
    try {
      await action();
      return 0;
    } catch (error) {
      io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
      if (process.env.MAGE_MODE === 'developer' && error instanceof Error) io.err(error.stack ?? '');
      return 1;
    }
  } finally {
    await extraApp?.close();
    await app.close();
  }
}

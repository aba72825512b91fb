/**
 * The command line: commander, with the framework's own commands (module:status, setup:upgrade,
 * dev:plugin:list, dev:event:list, dev:route:list: one file each in commands/; queue:* in
 * queueCommands.ts) and every command modules list in `Framework\Console\CommandList`. Logs go
 * to stderr so stdout carries only the command's output. The module commands (module:status,
 * module:enable, module:disable, module:uninstall, setup:db:status) run without booting the
 * modules, so they work even when etc/config.json stops start-up.
 */
import { Command, CommanderError } from 'commander';
import pino from 'pino';
import type { Application, ApplicationOptions } from '../bootstrap/Application.js';
import { logLevel, readDeploymentConfig } from '../bootstrap/config/DeploymentConfig.js';
import type { CommandList } from '../framework/console/CommandList.js';
import { addCommand, type ConsoleCommand } from '../framework/console/ConsoleCommand.js';
import type { CliContext } from './commands/CliContext.js';
import type { ModuleCommandContext } from './commands/ModuleCommandContext.js';
import { moduleEnableDisableCommands } from './commands/moduleEnableDisable.js';
import { moduleUninstallCommand } from './commands/moduleUninstall.js';
import { setupDbStatusCommand } from './commands/setupDbStatus.js';
import { moduleStatusCommand } from './commands/moduleStatus.js';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

const MODULE_COMMANDS = new Set([
  'module:status',
  'module:enable',
  'module:disable',
  'module:uninstall',
  'setup:db:status',
]);

function moduleCommands(context: ModuleCommandContext): ConsoleCommand[] {
  return [
    moduleStatusCommand(context),
    ...moduleEnableDisableCommands(context),
    moduleUninstallCommand(context),
    setupDbStatusCommand(context),
  ];
}

function newProgram(io: CliIo): Command {
  return new Command('cli')
    .description('Dispensary runtime command line')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });
}

/** Parses, then runs the action a command set: its exit code, or 1 with the error's message. */
async function parseAndRun(
  program: Command,
  argv: string[],
  io: CliIo,
  getAction: () => (() => Promise<number | void>) | undefined,
  developerMode: boolean,
): Promise<number> {
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  const action = getAction();
  if (!action) {
    program.outputHelp();
    return 1;
  }
  try {
    return (await action()) ?? 0;
  } catch (error) {
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    if (developerMode && error instanceof Error) io.err(error.stack ?? '');
    return 1;
  }
}

/** Runs one command line; answers the exit code. `options` lets tests point at other modules/databases. */
export async function runCli(argv: string[], io: CliIo = defaultIo, options: ApplicationOptions = {}): Promise<number> {
  const logger = options.logger ?? pino({ level: logLevel('warn') }, pino.destination(2));
  let action: (() => Promise<number | void>) | undefined;
  const setAction = (fn: () => Promise<number | void>) => (action = fn);
  if (MODULE_COMMANDS.has(argv[2] ?? '')) {
    const program = newProgram(io);
    for (const command of moduleCommands({ options, logger })) addCommand(program, command, setAction, io.out);
    return parseAndRun(program, argv, io, () => action, readDeploymentConfig(options).developerMode);
  }
  // Loaded here, not at the top: the module commands above need no container, and loading the
  // whole application (every framework folder) was most of their start-up time.
  const [
    { Application },
    { eventListCommand },
    { pluginListCommand },
    { routeListCommand },
    { setupUpgradeCommand },
    { queueCommands },
  ] = await Promise.all([
    import('../bootstrap/Application.js'),
    import('./commands/eventList.js'),
    import('./commands/pluginList.js'),
    import('./commands/routeList.js'),
    import('./commands/setupUpgrade.js'),
    import('./queueCommands.js'),
  ]);
  const app = await Application.create({ ...options, area: 'global', logger });
  const extraApps: Application[] = [];
  try {
    const program = newProgram(io);

    const context: CliContext = {
      app,
      options,
      logger,
      openApp: async (area) => {
        const opened = await Application.create({ ...options, area, logger });
        extraApps.push(opened);
        return opened;
      },
    };
    const frameworkCommands = [
      ...moduleCommands(context),
      setupUpgradeCommand(context),
      pluginListCommand(context),
      eventListCommand(context),
      routeListCommand(context),
      ...queueCommands({ options, logger, upgrade: () => app.setupUpgrade() }),
    ];
    for (const command of frameworkCommands) addCommand(program, command, setAction, io.out);
    // A module's command applies pending migrations first, unless its definition says needsDatabase: false.
    const commandList = app.get<CommandList>('Framework\\Console\\CommandList');
    for (const command of commandList.list()) addCommand(program, command, setAction, io.out, () => app.setupUpgrade());

    return await parseAndRun(program, argv, io, () => action, app.config.developerMode);
  } finally {
    for (const opened of extraApps) await opened.close();
    await app.close();
  }
}

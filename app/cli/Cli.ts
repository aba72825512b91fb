/**
 * The command line: commander, with the framework's own commands (module:status, setup:upgrade,
 * dev:plugin:list, dev:event:list, dev:route:list: one file each in commands/; queue:* in
 * queueCommands.ts) and every command modules list in `Framework\Console\CommandList`. Logs go
 * to stderr so stdout carries only the command's output.
 */
import { Command, CommanderError } from 'commander';
import pino from 'pino';
import { Application, type ApplicationOptions } from '../bootstrap/Application.js';
import { logLevel } from '../bootstrap/DeploymentConfig.js';
import type { CommandList } from '../framework/console/CommandList.js';
import type { CliContext } from './CliContext.js';
import { addEventListCommand } from './commands/eventList.js';
import { addModuleStatusCommand } from './commands/moduleStatus.js';
import { addPluginListCommand } from './commands/pluginList.js';
import { addRouteListCommand } from './commands/routeList.js';
import { addSetupUpgradeCommand } from './commands/setupUpgrade.js';
import { addQueueCommands } from './queueCommands.js';

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
  const logger = options.logger ?? pino({ level: logLevel('warn') }, pino.destination(2));
  const app = await Application.create({ ...options, area: 'global', logger });
  const extraApps: Application[] = [];
  try {
    const program = new Command('cli')
      .description('Dispensary runtime command line')
      .exitOverride()
      .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });
    let action: (() => Promise<void>) | undefined;

    const context: CliContext = {
      app,
      options,
      logger,
      out: io.out,
      setAction: (fn) => (action = fn),
      openApp: async (area) => {
        const opened = await Application.create({ ...options, area, logger });
        extraApps.push(opened);
        return opened;
      },
    };
    addModuleStatusCommand(program, context);
    addSetupUpgradeCommand(program, context);
    addPluginListCommand(program, context);
    addEventListCommand(program, context);
    addRouteListCommand(program, context);
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
      if (app.config.developerMode && error instanceof Error) io.err(error.stack ?? '');
      return 1;
    }
  } finally {
    for (const opened of extraApps) await opened.close();
    await app.close();
  }
}

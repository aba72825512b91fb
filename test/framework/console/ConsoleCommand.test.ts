/**
 * ConsoleCommand.ts: a command's definition becomes a commander command (arguments, options,
 * defaults, parsers), and what the command line gave reaches `run`; CommandList adapts the older
 * CliCommand form to it. Every real command goes through this (test/framework/cli and the modules'
 * CLI tests); here the cases no command of this repository has.
 */
import { expect } from 'chai';
import { Command } from 'commander';
import { CommandList } from '../../../app/framework/console/CommandList.js';
import {
  addCommand,
  collect,
  type CliCommand,
  type CommandInput,
  type ConsoleCommand,
} from '../../../app/framework/console/ConsoleCommand.js';

/** Parses `argv` with `commands` declared; answers what ran (exit code or undefined when nothing did) and what was printed. */
async function run(
  commands: ConsoleCommand[],
  argv: string[],
  before?: () => Promise<unknown>,
): Promise<{ code: number | void | undefined; printed: string[] }> {
  const program = new Command('cli').exitOverride();
  const printed: string[] = [];
  let action: (() => Promise<number | void>) | undefined;
  for (const command of commands)
    addCommand(
      program,
      command,
      (fn) => (action = fn),
      (line) => printed.push(line),
      before,
    );
  await program.parseAsync(['node', 'cli', ...argv]);
  return { code: action ? await action() : undefined, printed };
}

/** A command that prints what it received as JSON and answers `code`. */
function echo(definition: ConsoleCommand['definition'], code?: number): ConsoleCommand & { received: CommandInput[] } {
  const received: CommandInput[] = [];
  return {
    definition,
    received,
    async run(input, print) {
      received.push(input);
      print(JSON.stringify(input));
      return code;
    },
  };
}

describe('ConsoleCommand: one definition for every console command', () => {
  it('should pass positional arguments in order, a variadic one spread out, and options by camelCase name', async () => {
    const command = echo({
      name: 'x:copy',
      description: 'copy',
      arguments: [
        { syntax: '<from>', description: 'source' },
        { syntax: '[to...]', description: 'targets' },
      ],
      options: [
        { flags: '--dry-run', description: 'change nothing' },
        { flags: '--tag <tag>', description: 'repeatable', parse: collect },
        { flags: '--mode <mode>', description: 'with a default', default: 'fast' },
      ],
    });
    const { code, printed } = await run(
      [command],
      ['x:copy', 'a', 'b', 'c', '--dry-run', '--tag', 't1', '--tag', 't2'],
    );
    expect(code).to.equal(undefined);
    expect(JSON.parse(printed[0]!)).to.deep.equal({
      args: ['a', 'b', 'c'],
      options: { dryRun: true, tag: ['t1', 't2'], mode: 'fast' },
    });
  });

  it('should leave out an optional argument that is not given, and a repeatable option until given', async () => {
    const command = echo({
      name: 'x:list',
      description: 'list',
      arguments: [{ syntax: '[filter]', description: 'only these' }],
      options: [{ flags: '--tag <tag>', description: 'repeatable', parse: collect }],
    });
    await run([command], ['x:list']);
    expect(command.received).to.deep.equal([{ args: [], options: {} }]);
  });

  it('should refuse a missing required option through commander, before anything runs', async () => {
    const command = echo({
      name: 'x:make',
      description: 'make',
      options: [{ flags: '--name <name>', description: 'name', required: true }],
    });
    const error = await run([command], ['x:make']).catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).to.equal('commander.missingMandatoryOptionValue');
    expect(command.received).to.deep.equal([]);
  });

  it("should answer the command's exit code", async () => {
    expect((await run([echo({ name: 'x:status', description: 'status' }, 2)], ['x:status'])).code).to.equal(2);
  });

  it('should run `before` first unless the definition says needsDatabase: false', async () => {
    const calls: string[] = [];
    const before = async () => calls.push('before');
    const needing = { definition: { name: 'x:db', description: 'db' }, run: async () => void calls.push('x:db') };
    const notNeeding = {
      definition: { name: 'x:info', description: 'info', needsDatabase: false },
      run: async () => void calls.push('x:info'),
    };
    await run([needing, notNeeding], ['x:db'], before);
    await run([needing, notNeeding], ['x:info'], before);
    expect(calls).to.deep.equal(['before', 'x:db', 'x:info']);
  });

  it('CommandList should serve a CliCommand (the older form) through the same path: configure, then execute(options, args, print)', async () => {
    const executed: unknown[] = [];
    const legacy: CliCommand = {
      name: 'x:legacy',
      description: 'legacy',
      needsDatabase: false,
      configure: (command) => void command.argument('<what>', 'what').option('--loud', 'louder'),
      execute: async (options, args, print) => {
        executed.push({ options, args });
        print(`said ${args[0]}`);
      },
    };
    const [adapted] = new CommandList({ legacy }).list();
    expect(adapted!.definition).to.include({ name: 'x:legacy', description: 'legacy', needsDatabase: false });
    const { printed } = await run([adapted!], ['x:legacy', 'hello', '--loud']);
    expect(printed).to.deep.equal(['said hello']);
    expect(executed).to.deep.equal([{ options: { loud: true }, args: ['hello'] }]);
  });
});

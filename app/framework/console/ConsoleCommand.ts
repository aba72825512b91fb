import type { Command } from 'commander';

/**
 * A console command as data (its name, description, arguments and options: Magento's
 * Command::configure()) and one method that runs it. The framework's own commands and the ones
 * modules list in di.xml are all declared this way, and `addCommand` is the one place that turns
 * a declaration into a commander command:
 *
 *   @injectable()
 *   export class StoreListCommand implements ConsoleCommand {
 *     readonly definition = { name: 'store:list', description: 'List stores' };
 *     constructor(@inject(...) private readonly stores: ...) {}
 *     async run({ args, options }: CommandInput, print: Print): Promise<void> { ... }
 *   }
 */
export interface ConsoleCommand {
  readonly definition: CommandDefinition;
  /** Throw to fail with exit code 1; a number answered is the exit code. */
  run(input: CommandInput, print: Print): Promise<number | void>;
}

export interface CommandDefinition {
  /** `group:action`, e.g. `store:create`. */
  readonly name: string;
  readonly description: string;
  /** Positional arguments, in order. */
  readonly arguments?: readonly CommandArgument[];
  readonly options?: readonly CommandOption[];
  /** A module command: whether pending migrations are applied before it runs (default true). */
  readonly needsDatabase?: boolean;
  /** Anything else commander offers, after the arguments and options above. */
  readonly configure?: (command: Command) => void;
}

export interface CommandArgument {
  /** commander's syntax: `<name>` (required), `[name]` (optional), `[names...]` (any number). */
  readonly syntax: string;
  readonly description: string;
}

export interface CommandOption {
  /** commander's syntax: `-f, --force`, `--name <name>`, `--store [code]`. */
  readonly flags: string;
  readonly description: string;
  /** Fails the command line when it is missing. */
  readonly required?: boolean;
  readonly default?: unknown;
  /** Turns the text into the value; `previous` is the value so far (a repeatable option collects). */
  readonly parse?: (value: string, previous: never) => unknown;
}

/** What the command line gave: positional arguments (a variadic one spread out) and the options by camelCase name. */
export interface CommandInput {
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, unknown>>;
}

/** Writes a line to stdout. */
export type Print = (line: string) => void;

/** Hands over what the command line runs once commander has parsed it. */
export type SetAction = (action: () => Promise<number | void>) => void;

/** A repeatable option's parser: each value is added to the list (undefined while none is given, unless a default says `[]`). */
export const collect = (value: string, previous: readonly string[] = []): string[] => [...previous, value];

/**
 * Declares `command` on `program`; when the command line names it, `setAction` receives what runs
 * it: `before` first (when given and the definition does not say `needsDatabase: false`), then
 * `command.run` printing with `print`.
 */
export function addCommand(
  program: Command,
  command: ConsoleCommand,
  setAction: SetAction,
  print: Print,
  before?: () => Promise<unknown>,
): Command {
  const { definition } = command;
  const declared = program.command(definition.name).description(definition.description);
  for (const argument of definition.arguments ?? []) declared.argument(argument.syntax, argument.description);
  for (const option of definition.options ?? []) {
    const add = (option.required ? declared.requiredOption : declared.option).bind(declared);
    if (option.parse)
      add(
        option.flags,
        option.description,
        option.parse as (value: string, previous: unknown) => unknown,
        option.default,
      );
    else add(option.flags, option.description, option.default as string | boolean | string[] | undefined);
  }
  definition.configure?.(declared);
  return declared.action((...received: unknown[]) => {
    const args = received
      .slice(0, -2)
      .flatMap((value) => (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []));
    const options = declared.opts();
    setAction(async () => {
      if (before && definition.needsDatabase !== false) await before();
      return command.run({ args, options }, print);
    });
  });
}

/** The older form of a module's command, declared on the commander command in code (CommandList adapts it). */
export interface CliCommand {
  /** `group:action`, e.g. `store:create`. */
  readonly name: string;
  readonly description: string;
  /** Whether pending migrations must be applied first (default true). */
  readonly needsDatabase?: boolean;
  /** Declares arguments and options on the commander command. */
  configure(command: Command): void;
  /** Runs it; `print` writes a line to stdout. Throw to fail with exit code 1. */
  execute(options: Record<string, unknown>, args: string[], print: (line: string) => void): Promise<void>;
}

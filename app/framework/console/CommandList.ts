import type { CliCommand, CommandInput, ConsoleCommand, Print } from './ConsoleCommand.js';

/**
 * The CLI commands modules contribute through di.xml:
 *
 *   <type name="Framework\Console\CommandList"><arguments>
 *     <argument name="commands" xsi:type="array">
 *       <item name="store_create" xsi:type="object">Vendor\Module\Console\StoreCreateCommand</item>
 *     </argument></arguments></type>
 *
 * Each item is a `ConsoleCommand` (ConsoleCommand.ts), or a `CliCommand`, the older form, which
 * declares itself on the commander command in code.
 */
export class CommandList {
  constructor(readonly commands: Record<string, ConsoleCommand | CliCommand> = {}) {}

  list(): ConsoleCommand[] {
    return Object.values(this.commands).map((command) => ('definition' in command ? command : fromCliCommand(command)));
  }
}

function fromCliCommand(command: CliCommand): ConsoleCommand {
  const { name, description, needsDatabase } = command;
  return {
    definition: { name, description, needsDatabase, configure: (declared) => command.configure(declared) },
    run: ({ args, options }: CommandInput, print: Print) => command.execute({ ...options }, [...args], print),
  };
}

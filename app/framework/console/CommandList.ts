import type { Command } from 'commander';

/**
 * A CLI command contributed by a module through di.xml:
 *
 *   <type name="Framework\Console\CommandList"><arguments>
 *     <argument name="commands" xsi:type="array">
 *       <item name="store_create" xsi:type="object">Vendor\Module\Console\StoreCreateCommand</item>
 *     </argument></arguments></type>
 */
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

export class CommandList {
  constructor(readonly commands: Record<string, CliCommand> = {}) {}

  list(): CliCommand[] {
    return Object.values(this.commands);
  }
}

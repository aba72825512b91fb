import { collect, type CommandInput, type CommandOption } from '#framework';
import type { IntegrationTokenRequest } from '../Api/IntegrationTokenServiceInterface.js';

/** `--username <username>`: the admin user a command acts on. */
export const USERNAME: CommandOption = {
  flags: '--username <username>',
  description: 'admin user name (any case)',
  required: true,
};

/** `--name <name>`: the integration (or integration token) a command acts on. */
export const INTEGRATION_NAME: CommandOption = {
  flags: '--name <name>',
  description: 'integration name',
  required: true,
};

/**
 * What integration:create and integration:token:create both ask: a name, the store (or every
 * store) and the ACL resources; `what` is the thing granted, as the help text names it.
 */
export function grantOptions(what: 'integration' | 'token'): CommandOption[] {
  return [
    {
      flags: '--name <name>',
      description: `integration name, unique among active ${what === 'token' ? 'tokens' : 'integrations and tokens'}`,
      required: true,
    },
    { flags: '--store <code>', description: `bind the ${what} to this store` },
    { flags: '--all-stores', description: `let the ${what} act for every store, \`all\` included` },
    {
      flags: '--resource <id>',
      description: `ACL resource the ${what} may use (repeatable); all when omitted`,
      parse: collect,
      default: [],
    },
  ];
}

/** The request the options of `grantOptions` describe. */
export function grantRequest({ options }: CommandInput): IntegrationTokenRequest {
  return {
    name: String(options.name),
    store: options.store === undefined ? undefined : String(options.store),
    allStores: options.allStores === true,
    resources: options.resource as string[],
  };
}

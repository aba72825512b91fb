/**
 * An application whose database link runs through a TcpProxy the test controls (cut it, black-hole
 * it, restore it), with an all-stores integration token made through the real CLI. For the tests
 * of a database server going away (TEST_DATABASE_URL): SQLite has no link to cut.
 */
import { Application, type ApplicationOptions } from '../../app/bootstrap/Application.js';
import { runCli } from '../../app/cli/Cli.js';
import type { TestDatabase } from './database.js';
import { TcpProxy } from './tcpProxy.js';

export interface ProxiedApp {
  readonly app: Application;
  readonly proxy: TcpProxy;
  readonly token: string;
}

export async function startAppBehindProxy(
  database: TestDatabase,
  tokenName: string,
  options: ApplicationOptions = {},
): Promise<ProxiedApp> {
  const target = new URL(database.url);
  const proxy = new TcpProxy(
    target.hostname,
    Number(target.port || (target.protocol.startsWith('postgres') ? 5432 : 3306)),
  );
  const proxied = new URL(database.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(await proxy.start());
  const appOptions = { ...options, databaseUrl: proxied.toString() };
  const app = await Application.create(appOptions);
  await app.setupUpgrade();
  const out: string[] = [];
  await runCli(
    ['node', 'cli', 'integration:token:create', '--name', tokenName, '--all-stores'],
    { out: (l) => out.push(l), err: () => undefined },
    appOptions,
  );
  return { app, proxy, token: out.pop()! };
}

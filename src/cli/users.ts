// `heritage-api users …`: the contributors' accounts from a shell on the server (issue 37).
// A new account's password is read from standard input (its first line), never from an
// argument, which other users of the machine could read in the process list.
import { Accounts } from '../accounts/accounts.js';
import { siteWords } from '../accounts/passwords.js';
import { ROLES, isRole, type Role } from '../accounts/roles.js';
import { loadConfig, type Config, type RawSettings } from '../config.js';
import { CONTRIBUTE_PATHS } from '../site/paths.js';
import { siteOf } from '../pages/site.js';
import { describeDatabase, openStore } from '../store/open.js';
import type { CatalogueStore } from '../store/store.js';
import { CliError } from './io.js';

async function withAccounts<R>(settings: RawSettings, work: (accounts: Accounts, where: string, config: Config) => Promise<R>): Promise<R> {
  const config = loadConfig(settings);
  const store: CatalogueStore = await openStore(config, { create: true });
  try {
    return await work(new Accounts(store, undefined, undefined, siteWords(siteOf(config))), describeDatabase(config), config);
  } finally {
    await store.close();
  }
}

function checkedRole(role: string): Role {
  if (!isRole(role)) throw new CliError(`--role must be one of ${ROLES.join(', ')}; got ${role}.`);
  return role;
}

/** The first line of standard input: the password (a terminal echoes it; pipe it in). */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password (then Enter): ');
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') throw new CliError('No password on standard input: give it as its first line, e.g. printf \'%s\\n\' "$PASSWORD" | heritage-api users add NAME.');
  return line;
}

/** `author`: linked to the catalogue author of exactly this name, the one account that may be credited as it. */
export async function runUsersAdd(name: string, role: string, author: boolean, settings: RawSettings): Promise<number> {
  const checked = checkedRole(role);
  const password = await passwordFromStdin();
  return withAccounts(settings, async (accounts, where) => {
    const made = await accounts.create(name, password, { role: checked, author });
    if ('problem' in made) throw new CliError(made.problem);
    const linked = author ? `, linked to the catalogue author ${made.account.username}` : '';
    process.stderr.write(`Added ${made.account.username} (${checked}${linked}) to ${where}.\n`);
    return 0;
  });
}

export async function runUsersRole(name: string, role: string, settings: RawSettings): Promise<number> {
  const checked = checkedRole(role);
  return withAccounts(settings, async (accounts) => {
    if (!(await accounts.setRole(name, checked))) throw new CliError(`There is no account ${name}.`);
    process.stderr.write(`${name} is now ${checked}.\n`);
    return 0;
  });
}

export async function runUsersDisable(name: string, settings: RawSettings): Promise<number> {
  return withAccounts(settings, async (accounts) => {
    if (!(await accounts.disable(name))) throw new CliError(`There is no account ${name}.`);
    process.stderr.write(`${name} is disabled and signed out everywhere.\n`);
    return 0;
  });
}

/** One account a line: name, role, state, created (ISO date), tab-separated for scripts. */
export async function runUsersList(settings: RawSettings): Promise<number> {
  return withAccounts(settings, async (accounts) => {
    for (const a of await accounts.list()) {
      process.stdout.write(`${a.username}\t${a.role}\t${a.disabled ? 'disabled' : 'active'}\t${new Date(a.created).toISOString().slice(0, 10)}\n`);
    }
    return 0;
  });
}

/**
 * A password reset link for the account (single use, an hour), its only line on standard
 * output; an earlier link of the account no longer works. Absolute from BASE_URL, or from
 * HOST and PORT (said on standard error: the link may then not be the public address).
 */
export async function runUsersReset(name: string, settings: RawSettings): Promise<number> {
  return withAccounts(settings, async (accounts, _where, config) => {
    const issue = await accounts.issueReset(name);
    if (!('issued' in issue)) {
      throw new CliError(issue.refused === 'disabled' ? `${name} is disabled: a new password would not sign it in.` : `There is no account ${name}.`);
    }
    if (config.baseUrl === null) process.stderr.write(`BASE_URL is unset: the link is made from HOST and PORT (${serverOrigin(config)}).\n`);
    process.stdout.write(`${config.baseUrl ?? serverOrigin(config)}${CONTRIBUTE_PATHS.reset(issue.token)}\n`);
    process.stderr.write(`The link sets ${issue.issued.username}'s password once, until ${new Date(issue.expires).toISOString()}.\n`);
    return 0;
  });
}

/** http://HOST:PORT, an IPv6 address in brackets. */
const serverOrigin = (config: Pick<Config, 'host' | 'port'>) => `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;

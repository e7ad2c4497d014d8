/** The `eventplan` operator command line (D12): an adapter over the same use cases as HTTP. */
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Command, Option } from 'commander';
import { openStore } from '../adapters/open-store.js';
import { randomIds, systemClock } from '../adapters/system.js';
import { issueKey, listKeys, reissueKey, revokeKey } from '../app/api-keys.js';
import { OPERATOR } from '../app/change-event.js';
import { copyData } from '../app/copy-data.js';
import type { AppDeps } from '../app/deps.js';
import { changeEventStatus } from '../app/events.js';
import { listMails, MAIL_LIST_LIMIT } from '../app/mail.js';
import {
  addGroupMember,
  createDemo,
  createGroup,
  createOrganization,
  createUser,
  deactivateUser,
  removeGroupMember,
} from '../app/organizations.js';
import { inviteUser, mailInvite, setPassword, signOutUser } from '../app/people.js';
import { sendRequestVersion } from '../app/request-versions.js';
import { awardByOperator, declineByOperator, moveReplyDateByOperator } from '../app/venue-requests.js';
import { ConfigError, loadConfig, readBaseUrl, readDatabaseConfig, readMailFrom } from '../config.js';
import { DomainError, ValidationError } from '../domain/errors.js';
import { isStatusTarget } from '../domain/status.js';
import { STATUSES } from '../domain/types.js';
import { DECLINE_REASONS } from '../domain/venue-request.js';
import { href } from '../web/href.js';

interface GlobalOptions {
  json?: boolean;
  databaseUrl?: string;
}

/** The same database configuration as `serve`: DATABASE_URL or --database-url, with DATABASE_POOL_SIZE and DATABASE_STATEMENT_TIMEOUT_MS. */
function databaseOf(options: GlobalOptions) {
  return options.databaseUrl !== undefined
    ? readDatabaseConfig(process.env, options.databaseUrl, '--database-url')
    : readDatabaseConfig(process.env);
}

function print(options: GlobalOptions, result: Record<string, unknown>) {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  for (const [key, value] of Object.entries(result)) {
    process.stdout.write(
      `${key}: ${typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value)}\n`,
    );
  }
}

/**
 * The first line of stdin, without its line ending: a password never travels in the arguments, where
 * other users of the machine and the shell history would see it.
 */
async function readLineFromStdin(prompt: string): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write(prompt);
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
  }
}

/**
 * Runs one use case against the configured store, prints its result (without --json, as `text` writes
 * it when it gives a text, else key by key), and closes the store.
 */
function action<A extends unknown[], R extends Record<string, unknown>>(
  run: (deps: AppDeps, ...args: A) => Promise<R>,
  text?: (result: R) => string | undefined,
) {
  return async (...args: [...A, Command]) => {
    const command = args[args.length - 1] as Command;
    const options = command.optsWithGlobals<GlobalOptions>();
    const store = await openStore(databaseOf(options));
    try {
      await store.migrate();
      // Mail queued by a command (a venue's request, an award) comes from MAIL_FROM, its links lead to PUBLIC_BASE_URL.
      const mail = { from: readMailFrom(process.env), publicBaseUrl: readBaseUrl(process.env) };
      const result = await run(
        { store, clock: systemClock, ids: randomIds, mail },
        ...(args.slice(0, -1) as A),
      );
      const written = options.json ? undefined : text?.(result);
      if (written === undefined) print(options, result);
      else process.stdout.write(written);
    } finally {
      await store.close();
    }
  };
}

/** A whole number option from `min` to `max`, or a ValidationError naming it. */
function wholeNumber(field: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ValidationError([
      { field, code: 'invalid_value', message: `must be a whole number from ${min} to ${max}` },
    ]);
  }
  return value;
}

/** `mail list` for a person at a terminal: each mail's header lines, then its text as it would arrive. */
function mailsAsText({ mails }: Awaited<ReturnType<typeof listMails>>): string {
  if (mails.length === 0) return 'No mail in the outbox.\n';
  return mails
    .map((mail) =>
      [
        `To:      ${mail.to}`,
        `Subject: ${mail.subject}`,
        `Created: ${mail.createdAt}`,
        `Sent:    ${mail.sentAt ?? 'not yet'}`,
        `Id:      ${mail.id}`,
        '',
        mail.text ?? '(text erased once sent)\n',
      ].join('\n'),
    )
    .join(`${'='.repeat(72)}\n`);
}

export function buildCli(): Command {
  const program = new Command('eventplan')
    .description(
      'Operate eventplan: serve the API and manage organizations, people, keys, event statuses and awards.',
    )
    .option('--json', 'print exactly one JSON object on stdout')
    .option('--database-url <url>', 'database to use (default: DATABASE_URL, else ./data/eventplan.db)')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('serve')
    .description('start the API')
    .action(async (_options, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      const config = loadConfig(
        options.databaseUrl ? { ...process.env, DATABASE_URL: options.databaseUrl } : process.env,
      );
      // Loaded only here, so the other commands start without the HTTP stack.
      const { startServer } = await import('../server.js');
      await startServer(config);
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async (_options, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      const store = await openStore(databaseOf(options));
      try {
        print(options, { applied: await store.migrate() });
      } finally {
        await store.close();
      }
    });

  const org = program.command('org').description('organizations');
  org
    .command('create')
    .requiredOption('--name <name>', 'organization name')
    .action(action((deps, options: { name: string }) => createOrganization(deps, options.name)));

  const user = program.command('user').description('people: API keys and dashboard sign-in');
  user
    .command('create')
    .requiredOption('--org <orgId>', 'organization id')
    .requiredOption('--email <email>', 'email address, unique within the organization')
    .option('--name <name>', 'display name')
    .action(
      action((deps, options: { org: string; email: string; name?: string }) =>
        createUser(deps, { organizationId: options.org, email: options.email, name: options.name }),
      ),
    );
  user
    .command('deactivate')
    .description('deactivate a user: their keys stop working and their dashboard sessions end')
    .requiredOption('--user <userId>', 'user id')
    .action(action((deps, options: { user: string }) => deactivateUser(deps, options.user)));
  user
    .command('set-password')
    .description('set the dashboard password of a user, read as one line from stdin; their sessions end')
    .requiredOption('--user <userId>', 'user id')
    .action(async (options: { user: string }, command: Command) => {
      // Read before the store opens, so a person typing it holds no database connection meanwhile.
      const password = await readLineFromStdin('Password: ');
      await action((deps) => setPassword(deps, options.user, password))(command);
    });
  user
    .command('invite')
    .description(
      'print a single-use link (valid 24 h) where the user chooses a password, or with --send mail it to them; voids older links',
    )
    .requiredOption('--user <userId>', 'user id')
    .option(
      '--base-url <url>',
      'where the dashboard is reached (default: PUBLIC_BASE_URL, else http://HOST:PORT)',
    )
    .option('--send', 'mail the link to the user through the outbox instead of printing it')
    .action(
      action(
        async (
          deps,
          options: { user: string; baseUrl?: string; send?: boolean },
        ): Promise<Record<string, unknown>> => {
          const baseUrl = options.baseUrl ?? readBaseUrl(process.env);
          if (!options.send) return inviteUser(deps, options.user, baseUrl, href.invite);
          return mailInvite(
            { ...deps, mail: { from: readMailFrom(process.env), publicBaseUrl: baseUrl } },
            options.user,
            baseUrl,
            href.invite,
          );
        },
        (result) =>
          'mailId' in result
            ? `Invitation to ${result.to} queued in the outbox as mail ${result.mailId}; its link works once, until ${result.expiresAt}.\n`
            : undefined,
      ),
    );
  user
    .command('sign-out')
    .description("end every dashboard session of a user, at the user's next request")
    .requiredOption('--user <userId>', 'user id')
    .action(action((deps, options: { user: string }) => signOutUser(deps, options.user)));

  const mail = program.command('mail').description('the outbox of mail');
  mail
    .command('list')
    .description(
      'mails in the outbox, newest first, with their text until they are sent: without SMTP_URL, where the links mails carry are found',
    )
    .option('--to <address>', 'only mails to this address')
    .option('--limit <count>', `at most this many mails (default ${MAIL_LIST_LIMIT})`)
    .action(
      action(
        (deps, options: { to?: string; limit?: string }) =>
          listMails(deps, {
            to: options.to,
            limit: options.limit === undefined ? undefined : wholeNumber('limit', options.limit, 1, 10_000),
          }),
        mailsAsText,
      ),
    );

  const group = program.command('group').description('groups of members and approvers');
  group
    .command('create')
    .requiredOption('--org <orgId>', 'organization id')
    .requiredOption('--name <name>', 'group name')
    .action(
      action((deps, options: { org: string; name: string }) =>
        createGroup(deps, { organizationId: options.org, name: options.name }),
      ),
    );
  group
    .command('add-member')
    .requiredOption('--group <groupId>', 'group id')
    .requiredOption('--user <userId>', 'user id')
    .option('--approver', 'add as an approver rather than a member')
    .action(
      action((deps, options: { group: string; user: string; approver?: boolean }) =>
        addGroupMember(deps, {
          groupId: options.group,
          userId: options.user,
          role: options.approver ? 'approver' : 'member',
        }),
      ),
    );
  group
    .command('remove-member')
    .requiredOption('--group <groupId>', 'group id')
    .requiredOption('--user <userId>', 'user id')
    .action(
      action((deps, options: { group: string; user: string }) =>
        removeGroupMember(deps, { groupId: options.group, userId: options.user }),
      ),
    );

  const key = program.command('key').description('API keys');
  key
    .command('issue')
    .requiredOption('--user <userId>', 'user the key acts as')
    .action(action(async (deps, options: { user: string }) => ({ ...(await issueKey(deps, options.user)) })));
  key
    .command('revoke')
    .requiredOption('--key <keyId>', 'key id')
    .action(action((deps, options: { key: string }) => revokeKey(deps, options.key)));
  key
    .command('reissue')
    .requiredOption('--key <keyId>', 'key id to replace')
    .action(action(async (deps, options: { key: string }) => ({ ...(await reissueKey(deps, options.key)) })));
  key
    .command('list')
    .requiredOption('--org <orgId>', 'organization id')
    .action(action((deps, options: { org: string }) => listKeys(deps, options.org)));

  const event = program.command('event').description('events');
  event
    .command('status')
    .requiredOption('--event <eventId>', 'event id')
    .addOption(
      new Option('--to <status>', `new status: ${STATUSES.join(', ')}, or reopen`).makeOptionMandatory(),
    )
    .action(
      action((deps, options: { event: string; to: string }) => {
        if (!isStatusTarget(options.to)) {
          throw new ValidationError([
            { field: 'to', code: 'invalid_value', message: `must be one of ${STATUSES.join(', ')}, reopen` },
          ]);
        }
        return changeEventStatus(deps, options.event, options.to);
      }),
    );

  const rfp = program
    .command('rfp')
    .description("requests for proposals: award or decline a venue's proposal (each venue is told by mail)");
  rfp
    .command('award')
    .description(
      'award the request: the event is booked, every other request declined or closed, every venue told',
    )
    .requiredOption('--request <requestId>', 'venue request id')
    .option('--comment <text>', 'told to the venue with the award')
    .action(
      action((deps, options: { request: string; comment?: string }) =>
        awardByOperator(deps, options.request, options.comment),
      ),
    );
  rfp
    .command('decline')
    .description("decline the request's proposal with a reason; the venue is told")
    .requiredOption('--request <requestId>', 'venue request id')
    .requiredOption('--reason <reason>', `one of ${DECLINE_REASONS.join(', ')}`)
    .option('--comment <text>', 'told to the venue with the reason; required for other')
    .action(
      action((deps, options: { request: string; reason: string; comment?: string }) =>
        declineByOperator(deps, options.request, options.reason, options.comment),
      ),
    );

  rfp
    .command('move-reply-date')
    .description('move the reply date of a request; the venue of an open request is told by mail')
    .requiredOption('--request <requestId>', 'venue request id')
    .requiredOption('--date <YYYY-MM-DD>', 'the new reply date, not in the past')
    .action(
      action((deps, options: { request: string; date: string }) =>
        moveReplyDateByOperator(deps, options.request, options.date),
      ),
    );

  rfp
    .command('send-changes')
    .description(
      'send the changes of what venues read as the next version of the request, with an optional message; every open request is mailed',
    )
    .requiredOption('--event <eventId>', 'event id')
    .option('--message <text>', 'told to every venue with the changes (at most 1,000 characters)')
    .action(
      action((deps, options: { event: string; message?: string }) =>
        sendRequestVersion(
          deps,
          OPERATOR,
          options.event,
          options.message === undefined ? {} : { message: options.message },
        ).then((version) => ({ ...version })),
      ),
    );

  program
    .command('copy-data')
    .description(
      'copy every record of one database into another, empty one (e.g. the SQLite file into PostgreSQL), then verify the copy; Idempotency-Key records of creates come along, so retries still replay, and webhook endpoints and deliveries and the mail outbox too, without leases (a delivery or mail being attempted is due again on the target)',
    )
    .requiredOption('--from <database>', 'source: a SQLite file path or file: URL (or a postgres:// URL)')
    .requiredOption(
      '--to <database>',
      'target, which must hold no data: a postgres:// URL (or a SQLite file)',
    )
    .action(async (options: { from: string; to: string }, command: Command) => {
      const from = readDatabaseConfig(process.env, options.from, '--from');
      const to = readDatabaseConfig(process.env, options.to, '--to');
      // Opening a missing SQLite file would create an empty one and copy nothing.
      if (from.kind === 'sqlite' && (from.path === ':memory:' || !existsSync(from.path))) {
        throw new ConfigError(`--from names no existing database file (${options.from})`);
      }
      if (JSON.stringify(from) === JSON.stringify(to)) {
        throw new ConfigError('--from and --to name the same database');
      }
      const source = await openStore(from);
      try {
        const target = await openStore(to);
        try {
          print(command.optsWithGlobals<GlobalOptions>(), { ...(await copyData(source, target)) });
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    });

  program
    .command('demo')
    .description(
      'create an organization, a user in a group with an approver, and print a key and single-use links where both choose a password',
    )
    .option('--base-url <url>', 'where the dashboard is reached (default: http://HOST:PORT)')
    .action(
      action(async (deps, options: { baseUrl?: string }) => ({
        ...(await createDemo(deps, {
          baseUrl: options.baseUrl ?? readBaseUrl(process.env),
          invitePage: href.invite,
        })),
      })),
    );

  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  const program = buildCli();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return;
    if (code.startsWith('commander.')) {
      process.exitCode = 2;
      return;
    }
    const message =
      error instanceof DomainError || error instanceof ConfigError
        ? error.message
        : String((error as Error)?.message ?? error);
    process.stderr.write(`eventplan: ${message}\n`);
    process.exitCode = error instanceof ConfigError ? 78 : 1;
  }
}

// `punctual`, the command line of the client: signs requests, and speaks the signed HTTP API for
// people at a terminal. It loads what HTTP needs and nothing of the RPC transports, so that it
// starts at once.
import { parseArgs } from 'node:util';
import { signRequest, signedMessage } from '@punctual/contract';
import { SignedHttp } from '../http/signed-http';
import { PunctualError, asErrorBody } from '../punctual-error';
import { CLI_HELP } from './cli-help';

/** What the command line reads and writes: the process's, or a test's. */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** All of standard input, for a body given as `-`. */
  readStdin(): Promise<string>;
}

const OPTIONS = {
  url: { type: 'string' },
  'key-id': { type: 'string' },
  secret: { type: 'string' },
  'idempotency-key': { type: 'string' },
  status: { type: 'string' },
  action: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  note: { type: 'string' },
  count: { type: 'string' },
  tz: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type OptionName = keyof typeof OPTIONS;
type Values = Partial<Record<OptionName, string | boolean>>;

/** The options every command takes. */
const SHARED: readonly OptionName[] = ['url', 'key-id', 'secret', 'help'];

/** A command line that cannot be run; exits 2 with the reason. */
class UsageError extends Error {}

/** One command as run: its arguments and options, the key to sign with, and where to write. */
interface Invocation {
  args: string[];
  values: Values;
  io: CliIo;
}

interface Command {
  /** Its arguments, as the usage line names them; the optional ones in brackets. */
  args: readonly string[];
  options: readonly OptionName[];
  run(invocation: Invocation): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  sign: { args: ['METHOD', 'PATH', '[BODY]'], options: [], run: sign },
  create: {
    args: ['BODY'],
    options: ['idempotency-key'],
    run: async (call) => {
      const key = string(call.values['idempotency-key']);
      printJson(call, await send(call, 'POST', '/actions', await jsonBody(call), key === undefined ? undefined : { 'Idempotency-Key': key }));
    },
  },
  get: { args: ['ID'], options: [], run: async (call) => printJson(call, await send(call, 'GET', actionPath(call))) },
  list: {
    args: [],
    options: ['status', 'action', 'limit', 'cursor'],
    run: async (call) => printJson(call, await send(call, 'GET', `/actions${query(call.values, ['status', 'action', 'limit', 'cursor'])}`)),
  },
  history: {
    args: ['ID'],
    options: ['limit', 'cursor'],
    run: async (call) => printJson(call, await send(call, 'GET', `${actionPath(call)}/history${query(call.values, ['limit', 'cursor'])}`)),
  },
  cancel: { args: ['ID'], options: ['note'], run: (call) => control(call, 'cancel', { note: string(call.values.note) }) },
  pause: { args: ['ID'], options: ['note'], run: (call) => control(call, 'pause', { note: string(call.values.note) }) },
  resume: { args: ['ID'], options: [], run: (call) => control(call, 'resume') },
  skip: { args: ['ID'], options: ['count'], run: (call) => control(call, 'skip', { count: count(call.values.count) }) },
  preview: { args: ['BODY'], options: ['count', 'tz'], run: preview },
};

/** Runs one command line; answers the exit code: 0 done, 1 refused or failed, 2 a wrong command line. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parse(argv);
    const [name, ...args] = positionals;
    if (values.help || name === 'help' || argv.length === 0) {
      io.stdout.write(CLI_HELP);
      return 0;
    }
    const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!command) throw new UsageError(name === undefined ? 'no command given' : `unknown command "${name}"`);
    const unexpected = (Object.keys(values) as OptionName[]).filter((option) => !SHARED.includes(option) && !command.options.includes(option));
    if (unexpected.length > 0) throw new UsageError(`${name} does not take --${unexpected.join(', --')}`);
    const required = command.args.filter((arg) => !arg.startsWith('[')).length;
    if (args.length < required || args.length > command.args.length) throw new UsageError(`usage: punctual ${name} ${command.args.join(' ')}`.trim());
    await command.run({ args, values, io });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`punctual: ${error.message}\nRun "punctual --help" for the commands and options.\n`);
      return 2;
    }
    io.stderr.write(`punctual: ${describe(error)}\n`);
    return 1;
  }
}

function parse(argv: readonly string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `sign METHOD PATH [BODY]` or `sign RPC PATTERN BODY`: prints, sends nothing. */
async function sign({ args: [method, target, body = ''], values, io }: Invocation): Promise<void> {
  const rpc = method.toUpperCase() === 'RPC';
  if (!rpc && !target.startsWith('/')) throw new UsageError(`the path must start with /: ${target}`);
  const key = signingKey(values, io.env);
  if (rpc) {
    io.stdout.write(`${JSON.stringify(signedMessage(key, target, body))}\n`);
    return;
  }
  const headers = signRequest({ ...key, method: method.toUpperCase(), pathWithQuery: target, body });
  // Header values hold no spaces, so a shell splits `$(punctual sign …)` into these arguments safely.
  io.stdout.write(
    `${Object.entries(headers)
      .map(([name, value]) => `-H ${name}:${value}`)
      .join(' ')}\n`,
  );
}

/** `preview BODY`: the server's times for the body, shown in the `--tz` zone or the machine's. */
async function preview(call: Invocation): Promise<void> {
  const zone = string(call.values.tz) ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const format = localTime(zone);
  const answer = (await send(call, 'POST', `/actions/preview${query(call.values, ['count'])}`, await jsonBody(call))) as { occurrences: string[] };
  call.io.stdout.write(answer.occurrences.map((time) => `${format(new Date(time))}\n`).join(''));
}

/** `Fri 2027-03-26 09:00:00 +01:00`: a time in `zone`, with the zone's offset then. */
function localTime(zone: string): (time: Date) => string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
  } catch {
    throw new UsageError(`not a time zone: ${zone}`);
  }
  return (time) => {
    const part = Object.fromEntries(format.formatToParts(time).map(({ type, value }) => [type, value]));
    const offset = part.timeZoneName === 'GMT' ? '+00:00' : part.timeZoneName.replace('GMT', '');
    return `${part.weekday} ${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second} ${offset}`;
  };
}

/** `POST /actions/:id/<route>`: with the options given as its JSON body (`{}` when none is set), or none. */
async function control(call: Invocation, route: string, options?: Record<string, unknown>): Promise<void> {
  const body = options && JSON.stringify(Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)));
  printJson(call, await send(call, 'POST', `${actionPath(call)}/${route}`, body));
}

/** One signed request; answers the body of a success, throws the server's refusal as a `PunctualError`. */
async function send(call: Invocation, method: string, path: string, rawBody?: string, headers?: Record<string, string>): Promise<unknown> {
  const baseUrl = address(call);
  const http = new SignedHttp({ baseUrl, ...signingKey(call.values, call.io.env) });
  const answer = await http.request(method, path, undefined, { rawBody, headers }).catch((error: unknown) => {
    throw new Error(`${method} ${baseUrl}${path} failed: ${describe(error)}`);
  });
  if (answer.status >= 400) {
    throw new PunctualError(asErrorBody(answer.body) ?? { statusCode: answer.status, error: 'Error', message: `HTTP ${answer.status}` });
  }
  return answer.body;
}

/**
 * Where to send: `--url`, else PUNCTUAL_URL, else the API on this machine at the PORT it reads
 * itself (3000 unset), so that in a project whose `.env` moves the API the commands follow it.
 */
function address(call: Invocation): string {
  const url = string(call.values.url) ?? call.io.env.PUNCTUAL_URL;
  if (url !== undefined) return url.replace(/\/+$/, '');
  const port = call.io.env.PORT ?? '3000';
  // The API refuses to start with such a PORT; taken as it is, the command would fail later, less clearly.
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    throw new UsageError(`PORT must be a port number (1-65535) to reach the API on this machine, not "${port}"; or give --url or PUNCTUAL_URL`);
  }
  return `http://localhost:${Number(port)}`;
}

/**
 * The key to sign with: `--key-id` and `--secret`, else PUNCTUAL_KEY_ID and PUNCTUAL_SECRET; without a
 * secret, the key's entry in API_KEYS (`keyId:secret[:tenant],…`), or its first entry when no key is named.
 */
function signingKey(values: Values, env: CliIo['env']): { keyId: string; secret: string } {
  const keyId = string(values['key-id']) ?? env.PUNCTUAL_KEY_ID;
  const secret = string(values.secret) ?? env.PUNCTUAL_SECRET;
  if (secret) {
    if (!keyId) throw new UsageError('a secret needs its key: --key-id or PUNCTUAL_KEY_ID');
    return { keyId, secret };
  }
  const listed = (env.API_KEYS ?? '')
    .split(',')
    .map((entry) => entry.trim().split(':'))
    .find(([id, listedSecret]) => id && listedSecret && (keyId === undefined || id === keyId));
  if (!listed) {
    throw new UsageError(
      keyId === undefined
        ? 'no key to sign with: set PUNCTUAL_KEY_ID and PUNCTUAL_SECRET (or --key-id and --secret), or API_KEYS'
        : `no secret for key "${keyId}": set PUNCTUAL_SECRET or --secret`,
    );
  }
  return { keyId: listed[0], secret: listed[1] };
}

/** The command's BODY argument (or standard input for `-`), checked to be JSON; sent as it is, so exactly what was signed. */
async function jsonBody({ args: [body], io }: Invocation): Promise<string> {
  const text = body === '-' ? await io.readStdin() : body;
  try {
    JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the body is not JSON: ${(error as Error).message}`);
  }
  return text;
}

function actionPath({ args: [id] }: Invocation): string {
  return `/actions/${encodeURIComponent(id)}`;
}

/** `?a=1&b=x` of the options named that are set, or ''. */
function query(values: Values, names: readonly OptionName[]): string {
  const set = names.flatMap((name): [string, string][] => {
    const value = values[name];
    return typeof value === 'string' ? [[name, value]] : [];
  });
  return set.length === 0 ? '' : `?${new URLSearchParams(set).toString()}`;
}

function count(value: Values[OptionName]): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new UsageError(`--count must be a whole number: ${String(value)}`);
  return parsed;
}

function string(value: Values[OptionName]): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function printJson({ io }: Invocation, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A refusal as the server put it (`404 Not Found: …`); another failure by its message and its cause's code or message (`ECONNREFUSED`). */
function describe(error: unknown): string {
  // Read by shape: fetch's errors may come from another realm than this module's Error.
  if (typeof error !== 'object' || error === null || !('message' in error)) return String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = [cause?.code, cause?.message].find((value) => typeof value === 'string');
  return detail === undefined ? String(error.message) : `${String(error.message)} (${String(detail)})`;
}

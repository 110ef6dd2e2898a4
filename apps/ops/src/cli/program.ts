import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '@payments/config';
import { DependencyUnavailableError } from '@payments/database';
import { withKafka, type KafkaSession } from '../kafka/session';
import { OpsConfig } from '../ops.config';
import { ExitCode, OpsError } from './errors';

/** What a command needs from the process: validated settings (read only when used) and Kafka. */
export interface OpsContext {
  config(): OpsConfig;
  kafka<T>(fn: (session: KafkaSession) => Promise<T>): Promise<T>;
}

/** Adding a command is one function in commands/ and one entry in commands/index.ts. */
export type CommandRegistration = (program: Command, ctx: OpsContext) => void;

const EXIT_CODES = `
Exit codes:
  0  done (a dry run included)
  1  failed: Kafka or the API unreachable, an unexpected error
  2  wrong command line: unknown command or option, bad value, unknown group or topic
  3  refused for safety: events would be skipped, or the group has running consumers
  4  timed out: lag did not reach 0, or nothing moved for --stall-timeout
130 stopped by ^C at a safe point (a live replay continues where it stopped when run again)

Settings come from the environment (KAFKA_BROKERS, KAFKA_TOPIC_PREFIX, ...): see docs/operations.md.`;

/** Prints the message and the command's usage, and exits 2. */
export function usageError(cmd: Command, message: string): never {
  cmd.error(`error: ${message}`, { exitCode: ExitCode.Usage, code: 'ops.usage' });
}

function defaultContext(): OpsContext {
  let config: OpsConfig | undefined;
  const ctx: OpsContext = {
    config: () => (config ??= loadConfig(OpsConfig)),
    kafka: (fn) => withKafka(ctx.config(), fn),
  };
  return ctx;
}

export function buildProgram(registrations: CommandRegistration[], ctx: OpsContext = defaultContext()): Command {
  const program = new Command('ops')
    .description('on-call tooling for the payments platform: consumer lag, replays, dead letters, admin tasks')
    .exitOverride()
    .showHelpAfterError()
    .addHelpText('after', EXIT_CODES);
  for (const register of registrations) register(program, ctx);
  return program;
}

/** With OPS_REPORT_RSS, the peak resident memory and CPU time of the whole command on stderr (scale tests, bench). */
export function reportPeakMemory(): void {
  let report = false;
  try {
    report = loadConfig(OpsConfig).OPS_REPORT_RSS;
  } catch {
    // Invalid settings were already reported by the command that read them.
  }
  if (!report) return;
  const usage = process.resourceUsage();
  const cpu = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  process.stderr.write(`ops: peak memory ${Math.round(usage.maxRSS / 1024)} MB, CPU ${cpu.toFixed(2)} s\n`);
}

/** Runs the command line and returns the exit code; every error becomes one line on stderr. */
export async function runCli(argv: string[], registrations: CommandRegistration[], ctx?: OpsContext): Promise<number> {
  try {
    await buildProgram(registrations, ctx).parseAsync(argv);
    return ExitCode.Ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander already printed the help or the error with the usage.
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? ExitCode.Ok : ExitCode.Usage;
    }
    process.stderr.write(`error: ${(err as Error).message}\n`);
    if (err instanceof OpsError) return err.exitCode;
    if (err instanceof ConfigError) return ExitCode.Usage;
    if (err instanceof DependencyUnavailableError) return ExitCode.Failed;
    return ExitCode.Failed;
  }
}

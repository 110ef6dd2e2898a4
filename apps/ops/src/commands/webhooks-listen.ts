import { InvalidArgumentError, type Command } from 'commander';
import { EVENT_CATALOGUE, MODES } from '@payments/contracts';
import { interrupted } from '../cli/interrupt';
import { usageError, type CommandRegistration } from '../cli/program';
import { isoTimestamp, positiveInt } from '../cli/values';
import { listen } from '../listen/listen';
import { localSigningSecret } from '../listen/forwarder';

const SECRET_KEY = new RegExp(`^sk_(${MODES.join('|')})_[A-Za-z0-9]{32,64}$`);

function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an http(s) URL, e.g. http://localhost:4242/webhooks');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('expected an http(s) URL, e.g. http://localhost:4242/webhooks');
  return value;
}

function eventTypes(value: string): string[] {
  const types = value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = types.filter((t) => !(EVENT_CATALOGUE as readonly string[]).includes(t));
  if (types.length === 0 || unknown.length)
    throw new InvalidArgumentError(
      `unknown event type ${unknown.join(', ') || '(none)'}; one or more of ${EVENT_CATALOGUE.join(', ')}`,
    );
  return [...new Set(types)];
}

interface ListenOptions {
  forwardTo?: string;
  apiKey?: string;
  events?: string[];
  since?: Date;
  printSecret?: boolean;
  pollInterval: number;
  forwardTimeout: number;
}

/**
 * `ops webhooks listen`: local webhook forwarding, as `stripe listen` does. Run with a merchant's
 * secret key; the key is never printed or logged.
 */
export const registerWebhooksListen: CommandRegistration = (program, ctx) => {
  const webhooks = program.commands.find((c) => c.name() === 'webhooks') ?? program.command('webhooks');
  webhooks
    .command('listen')
    .description("forward the business's new events to a local URL, signed with a local secret it prints (^C to quit)")
    .option('--forward-to <url>', 'where each event is POSTed, e.g. http://localhost:4242/webhooks', httpUrl)
    .option(
      '--api-key <key>',
      'the secret key (sk_test_… or sk_live_…) whose events are forwarded; default PAYMENTS_API_KEY',
    )
    .option('--events <types>', 'comma-separated event types to forward (default: all)', eventTypes)
    .option(
      '--since <iso>',
      'also forward the events created at or after this time (default: only events created after start)',
      isoTimestamp,
    )
    .option('--print-secret', 'print the local signing secret and exit')
    .option('--poll-interval <ms>', 'how often the events API is asked for new events', positiveInt, 1000)
    .option('--forward-timeout <ms>', 'how long the local endpoint may take to answer', positiveInt, 10_000)
    .action(async (opts: ListenOptions, cmd: Command) => {
      const config = ctx.config();
      const apiKey = opts.apiKey ?? config.PAYMENTS_API_KEY;
      if (!apiKey) usageError(cmd, 'give --api-key or set PAYMENTS_API_KEY (a secret key, sk_test_… or sk_live_…)');
      if (!SECRET_KEY.test(apiKey))
        usageError(
          cmd,
          'the API key must be a secret key (sk_test_… or sk_live_…); publishable keys cannot read events',
        );
      const secret = localSigningSecret(apiKey);
      if (opts.printSecret) {
        console.log(secret);
        return;
      }
      if (!opts.forwardTo) usageError(cmd, "required option '--forward-to <url>' not specified");

      // ^C (or SIGTERM) ends it: the shared handler aborts `interrupted`.
      await listen(
        {
          gatewayUrl: config.GATEWAY_URL,
          apiKey,
          forwardTo: opts.forwardTo,
          events: opts.events ?? [],
          since: opts.since,
          pollIntervalMs: opts.pollInterval,
          forwardTimeoutMs: opts.forwardTimeout,
        },
        interrupted,
      );
    });
};

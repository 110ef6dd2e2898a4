import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per process, with the default Node metrics and the platform's own. */
export const metricsRegistry = new Registry();
let initialised = false;

/**
 * How often the event-loop lag histogram samples the loop (ms). prom-client's default, 10 ms, keeps a timer waking
 * every service 100 times a second, busy or idle: 4 ms of CPU a second per process on this machine, against 0.6 ms at
 * 100 ms (docs/benchmarks.md, twenty-third round). Its series (`nodejs_eventloop_lag_p99_seconds`…) count the time
 * between samples, so a free loop reads 0.1 s, and a stall shows in them once it spans a sample (docs/operations.md).
 */
const EVENT_LOOP_SAMPLE_MS = 100;

export function initMetrics(service: string): void {
  if (initialised) return;
  initialised = true;
  metricsRegistry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const rpcRequestDuration = new Histogram({
  name: 'rpc_request_duration_seconds',
  help: 'RPC handler duration by pattern and outcome',
  labelNames: ['pattern', 'outcome'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

export const outboxRelayed = new Counter({
  name: 'outbox_events_relayed_total',
  help: 'Outbox events published to Kafka',
  labelNames: ['topic'] as const,
  registers: [metricsRegistry],
});

export const outboxRelayFailures = new Counter({
  name: 'outbox_relay_failures_total',
  help:
    'Outbox batches Kafka did not take (the rows stay unsent and go out on a later try), by reason: ' +
    'not_enough_replicas, leader_unavailable, timeout, connection, other',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

export const eventsConsumed = new Counter({
  name: 'kafka_events_consumed_total',
  help: 'Kafka events handled by consumers, by outcome (applied, duplicate, dead_lettered)',
  labelNames: ['group', 'topic', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const rpcRefused = new Counter({
  name: 'rpc_requests_refused_total',
  help:
    'RPC requests refused before any handler ran, by reason ' +
    '(missing, malformed, bad_signature, expired, replayed, scope, oversize, timeout)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Admin } from 'kafkajs';
import { ROOT } from './infra';
import type { Stack } from './stack';

const run = promisify(execFile);

/**
 * The ops command line as `npm run ops` runs it (package.json): node with the heap limits the CLI
 * is documented with, then the built entry point. Tests and the bench run it exactly so.
 */
export function opsCommand(): string[] {
  const script = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { ops: string } }
  ).scripts.ops.split(/\s+/);
  if (script[0] !== 'node') throw new Error(`package.json's ops script should start with node: ${script.join(' ')}`);
  return script.slice(1).map((arg) => (arg.startsWith('dist/') ? join(ROOT, arg) : arg));
}

export interface OpsResult {
  code: number;
  out: string;
}

/** Runs the built ops CLI against a stack (stdout is not a terminal: plain progress lines). */
export async function runOps(
  stack: Stack,
  args: string[],
  timeoutMs = 120_000,
  extraEnv: Record<string, string> = {},
): Promise<OpsResult> {
  const env = {
    PATH: process.env.PATH ?? '',
    KAFKA_BROKERS: stack.infra.KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: stack.topicPrefix,
    GATEWAY_URL: stack.gatewayUrl,
    ADMIN_API_TOKEN: stack.adminToken,
    ...extraEnv,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [...opsCommand(), ...args], {
      env,
      timeout: timeoutMs,
      maxBuffer: 256 * 1024 * 1024,
    });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

/** Committed offsets of a group on a topic, by partition (-1: none). */
export async function committedOffsets(admin: Admin, groupId: string, topic: string): Promise<Record<number, number>> {
  const [res] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return Object.fromEntries(res.partitions.map((p) => [p.partition, Number(p.offset)]));
}

/** Consumer groups of a stack (prefix removed). */
export async function stackGroups(admin: Admin, stack: Stack): Promise<string[]> {
  const { groups } = await admin.listGroups();
  return groups
    .map((g) => g.groupId)
    .filter((g) => g.startsWith(stack.topicPrefix))
    .map((g) => g.slice(stack.topicPrefix.length));
}

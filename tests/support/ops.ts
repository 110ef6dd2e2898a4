import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Admin } from 'kafkajs';
import { ROOT } from './infra';
import type { Stack } from './stack';

const run = promisify(execFile);

export interface OpsResult {
  code: number;
  out: string;
}

/** Runs the built ops CLI against a stack (stdout is not a terminal: plain progress lines). */
export async function runOps(stack: Stack, args: string[], timeoutMs = 120_000, extraEnv: Record<string, string> = {}): Promise<OpsResult> {
  const env = {
    PATH: process.env.PATH ?? '',
    KAFKA_BROKERS: stack.infra.KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: stack.topicPrefix,
    GATEWAY_URL: stack.gatewayUrl,
    ADMIN_API_TOKEN: stack.adminToken,
    ...extraEnv,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'dist', 'apps', 'ops', 'src', 'main.js'), ...args], { env, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 });
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
  return groups.map((g) => g.groupId).filter((g) => g.startsWith(stack.topicPrefix)).map((g) => g.slice(stack.topicPrefix.length));
}

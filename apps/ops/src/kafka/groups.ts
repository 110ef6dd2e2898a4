import { AssignerProtocol } from 'kafkajs';
import { REPLAY_RESULTS_TOPIC } from '@payments/contracts';
import { BadValueError } from '../cli/errors';
import type { KafkaSession } from './session';

/** Prefix of the short-lived groups ops itself reads with (deleted when done). */
export const OPS_READER_GROUP = 'ops-reader-';

export interface Member {
  memberId: string;
  clientId: string;
  host: string;
  /** Assigned partitions by topic (names without prefix). */
  assignment: Record<string, number[]>;
  subscription: string[];
}

export interface GroupInfo {
  name: string;
  state: string;
  members: Member[];
}

export interface PartitionLag {
  topic: string;
  partition: number;
  /** Committed offset, or null when the group never committed on this partition. */
  committed: number | null;
  low: number;
  end: number;
  lag: number;
}

/** The deployment's consumer groups, without ops' own temporary readers. */
export async function listGroups(s: KafkaSession): Promise<string[]> {
  const { groups } = await s.admin.listGroups();
  return s
    .ownNames(groups.map((g) => g.groupId))
    .filter((g) => !g.startsWith(OPS_READER_GROUP))
    .sort();
}

/** Fails with the list of existing groups when `group` is not one (a typo must not create a group). */
export async function requireGroup(s: KafkaSession, group: string): Promise<void> {
  const groups = await listGroups(s);
  if (!groups.includes(group)) {
    throw new BadValueError(`unknown consumer group "${group}"; existing groups: ${groups.join(', ') || '(none)'}`);
  }
}

export async function describeGroup(s: KafkaSession, group: string): Promise<GroupInfo> {
  const [g] = (await s.admin.describeGroups([s.full(group)])).groups;
  const members = (g?.members ?? []).map((m) => {
    const assignment = m.memberAssignment.length
      ? (AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? {})
      : {};
    const subscription = m.memberMetadata.length
      ? (AssignerProtocol.MemberMetadata.decode(m.memberMetadata)?.topics ?? [])
      : [];
    return {
      memberId: m.memberId,
      clientId: m.clientId,
      host: m.clientHost.replace(/^\//, ''),
      assignment: Object.fromEntries(
        Object.entries(assignment).map(([t, ps]) => [s.base(t), [...ps].sort((a, b) => a - b)]),
      ),
      subscription: subscription.map((t) => s.base(t)),
    };
  });
  return { name: group, state: g?.state ?? 'Dead', members };
}

/**
 * The topics a group consumes: what its running members subscribe to, plus the topics it has
 * committed offsets on (a stopped group has no members). Never topics merely present in Kafka.
 */
export async function groupTopics(s: KafkaSession, group: string, info?: GroupInfo): Promise<string[]> {
  const described = info ?? (await describeGroup(s, group));
  const topics = new Set(described.members.flatMap((m) => m.subscription));
  const candidates = (await s.admin.listTopics()).filter(
    (t) => t.startsWith(s.prefix) && s.base(t) !== REPLAY_RESULTS_TOPIC,
  );
  const offsets = await s.admin.fetchOffsets({ groupId: s.full(group), topics: candidates });
  for (const { topic, partitions } of offsets)
    if (partitions.some((p) => Number(p.offset) >= 0)) topics.add(s.base(topic));
  return [...topics].sort();
}

/** Fails with the group's topics when `topic` is not one of them. */
export function requireTopic(group: string, topics: string[], topic: string): void {
  if (!topics.includes(topic))
    throw new BadValueError(
      `group "${group}" does not consume topic "${topic}"; its topics: ${topics.join(', ') || '(none)'}`,
    );
}

/** Committed offset, end offset and lag per partition of the given topics. */
export async function groupLag(s: KafkaSession, group: string, topics: string[]): Promise<PartitionLag[]> {
  const committed = await s.admin.fetchOffsets({ groupId: s.full(group), topics: topics.map((t) => s.full(t)) });
  const rows: PartitionLag[] = [];
  for (const { topic, partitions } of committed) {
    const ends = new Map((await s.admin.fetchTopicOffsets(topic)).map((x) => [x.partition, x]));
    for (const p of partitions) {
      const e = ends.get(p.partition);
      const low = Number(e?.low ?? 0);
      const end = Number(e?.high ?? 0);
      const c = Number(p.offset) >= 0 ? Number(p.offset) : null;
      // A group that never committed starts from the earliest offset (consumers subscribe fromBeginning).
      rows.push({
        topic: s.base(topic),
        partition: p.partition,
        committed: c,
        low,
        end,
        lag: Math.max(0, end - (c ?? low)),
      });
    }
  }
  return rows.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
}

export const totalLag = (rows: PartitionLag[]): number => rows.reduce((sum, r) => sum + r.lag, 0);

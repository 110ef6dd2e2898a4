import { BadValueError, RefusedError } from '../cli/errors';
import { OPS_READER_GROUP } from './groups';
import type { KafkaSession } from './session';

/** One partition's copy: offsets [from, end) of the source, copied up to `next`. */
export interface CopyRange {
  partition: number;
  from: number;
  end: number;
  next: number;
  /** The command's range (e.g. `{"kind":"earliest"}`), or null when recorded by an older ops. */
  spec: string | null;
}

/**
 * How far a live replay copied, kept in Kafka as the copier's own group's commits (with the range in their metadata),
 * so the same command from any machine continues it. A finished replay deletes the group; a running copier is a member.
 */
export class ReplayCheckpoint {
  readonly groupId: string;

  constructor(
    private readonly s: KafkaSession,
    readonly group: string,
  ) {
    this.groupId = s.full(`${OPS_READER_GROUP}live-replay.${group}`);
  }

  /** Refuses when another live replay of the group is copying right now. */
  async requireIdle(): Promise<void> {
    const { groups } = await this.s.admin.describeGroups([this.groupId]);
    const members = groups[0]?.members ?? [];
    if (members.length > 0) {
      throw new RefusedError(
        `another live replay of ${this.group} is copying right now ` +
          `(${members.map((m) => `${m.clientId} on ${m.clientHost}`).join(', ')}); wait for it, or stop it with ^C`,
      );
    }
  }

  /** What an interrupted replay copied of `topic` (base name), by partition; empty when none is pending. */
  async load(topic: string): Promise<Map<number, CopyRange>> {
    const saved = new Map<number, CopyRange>();
    const offsets = await this.s.admin
      .fetchOffsets({ groupId: this.groupId, topics: [this.s.full(topic)] })
      .catch(() => []);
    for (const { partitions } of offsets) {
      for (const p of partitions) {
        const next = Number(p.offset);
        const meta = parseMetadata(p.metadata);
        if (next >= 0 && meta)
          saved.set(p.partition, {
            partition: p.partition,
            ...meta,
            next: Math.min(Math.max(next, meta.from), meta.end),
          });
      }
    }
    return saved;
  }

  metadata(from: number, end: number, spec: string): string {
    return JSON.stringify({ from, end, spec });
  }

  /** Forgets the pending copy (it finished, or --restart). */
  async discard(): Promise<void> {
    await this.s.admin.deleteGroups([this.groupId]).catch((err: Error) => {
      if (!/does not exist|GROUP_ID_NOT_FOUND/i.test(err.message))
        throw new BadValueError(`cannot discard the state of the interrupted live replay: ${err.message}`);
    });
  }
}

function parseMetadata(text: string | null | undefined): { from: number; end: number; spec: string | null } | null {
  try {
    const m = JSON.parse(text ?? '') as { from?: unknown; end?: unknown; spec?: unknown };
    if (!Number.isInteger(m.from) || !Number.isInteger(m.end)) return null;
    return { from: m.from as number, end: m.end as number, spec: typeof m.spec === 'string' ? m.spec : null };
  } catch {
    return null;
  }
}

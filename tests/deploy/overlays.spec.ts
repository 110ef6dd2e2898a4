/**
 * What only one overlay has: production's registry image, Ingress, Pod Security, zone spread and
 * KEDA scaling; local's in-cluster PostgreSQL, Redis and Kafka.
 */
import { ConsumerGroups } from '@payments/contracts';
import {
  APPS,
  arr,
  at,
  containerEnv,
  containers,
  find,
  nameOf,
  obj,
  ofKind,
  podLabels,
  podSpec,
  render,
  selects,
  str,
  type Obj,
} from './support/render';

const configOf = (objects: Obj[]): Record<string, string> => {
  const cm = objects.find((o) => o.kind === 'ConfigMap' && /^payments-config-[a-z0-9]{10}$/.test(nameOf(o)));
  return obj(cm?.data) as Record<string, string>;
};
const restricted = (ns: Obj) => {
  const labels = obj(at(ns, 'metadata', 'labels'));
  return labels['pod-security.kubernetes.io/enforce'];
};

describe('overlay production', () => {
  const objects = render('production');
  const config = configOf(objects);

  it('runs the image from a registry, at a fixed tag', () => {
    for (const w of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      for (const c of containers(w)) {
        const image = str(c.image) ?? '';
        expect(image).toMatch(/^[a-z0-9.-]+\.[a-z]{2,}(:\d+)?\/.+\/payments-platform(:[\w.-]+|@sha256:[a-f0-9]{64})$/);
        expect(image).not.toMatch(/:latest$/);
      }
    }
  });

  it('exposes only /v1, /checkout and /docs, over TLS, on the gateway HTTP port', () => {
    const [ingress] = ofKind(objects, 'Ingress');
    const rules = arr(at(ingress, 'spec', 'rules')).map(obj);
    const hosts = rules.map((r) => str(r.host));
    expect(arr(at(ingress, 'spec', 'tls')).flatMap((t) => arr(obj(t).hosts))).toEqual(hosts);
    const paths = rules.flatMap((r) => arr(at(r, 'http', 'paths')).map(obj));
    expect(paths.map((p) => `${str(p.pathType)} ${str(p.path)}`).sort()).toEqual([
      'Prefix /checkout',
      'Prefix /docs',
      'Prefix /v1',
    ]);
    const svc = find(objects, 'Service', 'gateway');
    for (const p of paths) {
      expect(at(p, 'backend', 'service', 'name')).toBe('gateway');
      const port = arr(at(svc, 'spec', 'ports'))
        .map(obj)
        .find((sp) => sp.name === at(p, 'backend', 'service', 'port', 'name'));
      expect(port?.targetPort).toBe('http');
    }
    const [gw] = containers(find(objects, 'Deployment', 'gateway'));
    const env = containerEnv(objects, gw);
    const http = arr(gw.ports)
      .map(obj)
      .find((p) => p.name === 'http');
    expect(String(http?.containerPort)).toBe(env.get('GATEWAY_PORT')?.value);
    // /metrics lives on its own port, which no Service routes from outside.
    expect(env.get('METRICS_PORT')?.value).not.toBe(env.get('GATEWAY_PORT')?.value);
    expect(arr(at(svc, 'spec', 'ports')).map((p) => obj(p).targetPort)).toEqual(['http']);
  });

  it('enforces the restricted Pod Security profile on the namespace', () => {
    const ns = find(objects, 'Namespace', 'payments');
    expect(restricted(ns)).toBe('restricted');
    for (const o of objects.filter((x) => x.kind !== 'Namespace'))
      expect({ o: `${str(o.kind)}/${nameOf(o)}`, ns: at(o, 'metadata', 'namespace') }).toEqual({
        o: `${str(o.kind)}/${nameOf(o)}`,
        ns: 'payments',
      });
  });

  it('spreads every Deployment over zones', () => {
    for (const d of ofKind(objects, 'Deployment')) {
      const zone = arr(podSpec(d).topologySpreadConstraints)
        .map(obj)
        .find((t) => t.topologyKey === 'topology.kubernetes.io/zone');
      expect({ d: nameOf(d), skew: zone?.maxSkew, own: selects(obj(zone?.labelSelector), podLabels(d)) }).toEqual({
        d: nameOf(d),
        skew: 1,
        own: true,
      });
    }
  });

  it('keeps at least one pod of every app through voluntary disruptions, and at least two running', () => {
    for (const d of ofKind(objects, 'Deployment')) {
      const pdb = ofKind(objects, 'PodDisruptionBudget').find((p) =>
        selects(obj(at(p, 'spec', 'selector')), podLabels(d)),
      );
      expect(at(pdb, 'spec', 'minAvailable')).toBe(1);
      const scaler = [...ofKind(objects, 'HorizontalPodAutoscaler'), ...ofKind(objects, 'ScaledObject')].filter(
        (s) => at(s, 'spec', 'scaleTargetRef', 'name') === nameOf(d),
      );
      expect(scaler).toHaveLength(1);
      expect(
        Number(at(scaler[0], 'spec', 'minReplicas') ?? at(scaler[0], 'spec', 'minReplicaCount')),
      ).toBeGreaterThanOrEqual(2);
    }
  });

  it('scales each Kafka consumer on its consumer-group lag with KEDA, authenticated with its own Kafka user', () => {
    const consumers = Object.values(ConsumerGroups) as string[];
    expect(ofKind(objects, 'ScaledObject').map(nameOf).sort()).toEqual([...consumers].sort());
    for (const group of consumers) {
      const so = find(objects, 'ScaledObject', group);
      const kafka = arr(at(so, 'spec', 'triggers'))
        .map(obj)
        .find((t) => t.type === 'kafka');
      expect(at(kafka, 'metadata', 'consumerGroup')).toBe(`${config.KAFKA_TOPIC_PREFIX ?? ''}${group}`);
      expect(at(kafka, 'metadata', 'bootstrapServers')).toBe(config.KAFKA_BROKERS);
      expect(Number(at(so, 'spec', 'maxReplicaCount'))).toBeLessThanOrEqual(Number(config.KAFKA_PARTITIONS));
      const auth = find(objects, 'TriggerAuthentication', str(at(kafka, 'authenticationRef', 'name')) ?? '');
      const env = containerEnv(objects, containers(find(objects, 'Deployment', group))[0]);
      for (const ref of arr(at(auth, 'spec', 'secretTargetRef')).map(obj)) {
        const key = str(ref.key) ?? '';
        expect(env.get(key)?.secret).toBe(ref.name);
        expect(Object.keys(obj(find(objects, 'Secret', str(ref.name) ?? '').data))).toContain(key);
      }
    }
  });

  it('talks to Kafka over TLS with SASL, one user per app, and leaves topic creation to the platform', () => {
    expect(config).toMatchObject({
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: expect.stringMatching(/^scram-sha-(256|512)$/),
      KAFKA_CREATE_TOPICS: 'false',
    });
    const users = APPS.filter((a) => a !== 'gateway').map(
      (a) => containerEnv(objects, containers(find(objects, 'Deployment', a))[0]).get('KAFKA_SASL_USERNAME')?.value,
    );
    expect(new Set(users).size).toBe(3);
  });
});

describe('overlay local', () => {
  const objects = render('local');
  const config = configOf(objects);
  const backed = (host: string): boolean => {
    const svc = objects.find((o) => o.kind === 'Service' && nameOf(o) === host);
    return !!svc && ofKind(objects, 'StatefulSet').some((s) => selects(obj(at(svc, 'spec', 'selector')), podLabels(s)));
  };

  it('includes the PostgreSQL, Redis and Kafka every app and Job is pointed at', () => {
    const hosts = new Set<string>(config.KAFKA_BROKERS.split(',').map((b) => b.split(':')[0]));
    for (const w of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      const env = containerEnv(objects, containers(w)[0]);
      for (const key of ['DATABASE_URL', 'REDIS_URL'])
        if (env.get(key)?.value) hosts.add(new URL(env.get(key)?.value ?? '').hostname);
    }
    expect([...hosts].sort()).toEqual(['kafka', 'postgres', 'redis']);
    for (const h of hosts) expect({ h, backed: backed(h) }).toEqual({ h, backed: true });
  });

  it('creates each app role on first start from the URLs the apps get, with the roles SQL', () => {
    const pg = find(objects, 'StatefulSet', 'postgres');
    const env = containerEnv(objects, containers(pg)[0]);
    for (const app of APPS) {
      const serving = containerEnv(objects, containers(find(objects, 'Deployment', app))[0]).get('DATABASE_URL');
      const migrating = containerEnv(objects, containers(find(objects, 'Job', `${app}-migrate`))[0]).get(
        'DATABASE_URL',
      );
      const given = [...env.values()].filter((v) => v.secret);
      expect(given).toContainEqual(serving);
      expect(given).toContainEqual(migrating);
    }
    const volumes = arr(podSpec(pg).volumes).map((v) => str(at(v, 'configMap', 'name')) ?? '');
    expect(volumes.some((v) => v.startsWith('database-roles-sql-'))).toBe(true);
  });

  it('runs every pod, the infrastructure included, under the restricted Pod Security profile', () => {
    expect(restricted(find(objects, 'Namespace', 'payments'))).toBe('restricted');
    for (const s of ofKind(objects, 'StatefulSet')) {
      expect(at(podSpec(s), 'securityContext')).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      for (const c of containers(s))
        expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    }
  });
});

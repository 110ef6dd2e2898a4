/**
 * The NetworkPolicies of every overlay, evaluated on the rendered objects: default deny, then
 * exactly the flows the platform needs.
 */
import { APPS, OVERLAYS, SERVICES, at, find, nameOf, obj, ofKind, podLabels, render, str } from './support/render';
import { allowed, type Peer } from './support/netpol';

const NS = 'payments';
const RPC_PORTS: Record<string, number> = {
  'transaction-service': 4001,
  'split-ledger-service': 4002,
  'webhook-dispatcher': 4003,
};
const HTTP_PORTS: Record<string, number> = {
  gateway: 9464,
  'transaction-service': 4101,
  'split-ledger-service': 4102,
  'webhook-dispatcher': 4103,
};
const USES_REDIS = ['gateway', 'split-ledger-service', 'webhook-dispatcher'];
const DNS: Peer = { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
const PROMETHEUS: Peer = { namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'prometheus' } };

describe.each(OVERLAYS)('NetworkPolicies of overlay %s', (overlay) => {
  const objects = render(overlay);
  const pod = (kind: string, name: string): Peer => ({ namespace: NS, labels: podLabels(find(objects, kind, name)) });
  const app = (name: string) => pod('Deployment', name);
  const migration = (name: string) => pod('Job', `${name}-migrate`);
  /** Where the datastores are: in the namespace locally, somewhere on the network in production. */
  const store = (name: string, ip: string): Peer => (overlay === 'local' ? pod('StatefulSet', name) : { ip });
  const kafkaPort = Number(
    str(
      obj(
        find(
          objects,
          'ConfigMap',
          nameOf(objects.find((o) => o.kind === 'ConfigMap' && nameOf(o).startsWith('payments-config-')) ?? {}),
        ).data,
      ).KAFKA_BROKERS,
    )
      ?.split(',')[0]
      .split(':')[1],
  );

  it('denies everything by default, in both directions', () => {
    const deny = ofKind(objects, 'NetworkPolicy').find(
      (p) =>
        Object.keys(obj(at(p, 'spec', 'podSelector'))).length === 0 &&
        !at(p, 'spec', 'ingress') &&
        !at(p, 'spec', 'egress'),
    );
    expect(at(deny, 'spec', 'policyTypes')).toEqual(['Ingress', 'Egress']);
    // Services never call the gateway, nor each other's HTTP ports, nor the internet.
    expect(allowed(objects, app('transaction-service'), app('gateway'), 3000)).toBe(false);
    expect(allowed(objects, app('gateway'), { ip: '203.0.113.10' }, 443)).toBe(false);
    expect(allowed(objects, app('split-ledger-service'), app('transaction-service'), 4101)).toBe(false);
  });

  it('lets the gateway call each service on its RPC port, and nobody else', () => {
    for (const svc of SERVICES) {
      expect({ svc, gateway: allowed(objects, app('gateway'), app(svc), RPC_PORTS[svc]) }).toEqual({
        svc,
        gateway: true,
      });
      for (const other of SERVICES)
        expect({ other, svc, allowed: allowed(objects, app(other), app(svc), RPC_PORTS[svc]) }).toEqual({
          other,
          svc,
          allowed: false,
        });
      expect(allowed(objects, { namespace: 'default', labels: {} }, app(svc), RPC_PORTS[svc])).toBe(false);
    }
  });

  it('lets every pod resolve names through the cluster DNS', () => {
    for (const name of APPS) {
      expect(allowed(objects, app(name), DNS, 53, 'UDP')).toBe(true);
      expect(allowed(objects, app(name), DNS, 53, 'TCP')).toBe(true);
      expect(allowed(objects, migration(name), DNS, 53, 'UDP')).toBe(true);
    }
  });

  it('lets apps and their migration Jobs reach PostgreSQL, Redis and Kafka as each needs, and no more', () => {
    const pg = store('postgres', '10.20.0.5');
    const redis = store('redis', '10.20.0.6');
    const kafka = store('kafka', '10.20.0.7');
    for (const name of APPS) {
      expect({
        name,
        pg: allowed(objects, app(name), pg, 5432),
        migrationPg: allowed(objects, migration(name), pg, 5432),
      }).toEqual({ name, pg: true, migrationPg: true });
      expect({ name, redis: allowed(objects, app(name), redis, 6379) }).toEqual({
        name,
        redis: USES_REDIS.includes(name),
      });
      expect({ name, kafka: allowed(objects, app(name), kafka, kafkaPort) }).toEqual({
        name,
        kafka: name !== 'gateway',
      });
      expect({ name, migrationKafka: allowed(objects, migration(name), kafka, kafkaPort) }).toEqual({
        name,
        migrationKafka: false,
      });
    }
  });

  it('lets Prometheus scrape the metrics ports, and only from its namespace', () => {
    for (const name of APPS) {
      expect({ name, scrape: allowed(objects, PROMETHEUS, app(name), HTTP_PORTS[name]) }).toEqual({
        name,
        scrape: true,
      });
      expect({
        name,
        stranger: allowed(objects, { namespace: 'default', labels: {} }, app(name), HTTP_PORTS[name]),
      }).toEqual({ name, stranger: false });
    }
  });

  it('lets the webhook dispatcher reach internet HTTPS only, no private/loopback/link-local/CGNAT/metadata IP', () => {
    const dispatcher = app('webhook-dispatcher');
    for (const ip of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'])
      expect({ ip, ok: allowed(objects, dispatcher, { ip }, 443) }).toEqual({ ip, ok: true });
    const inside = [
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '100.100.100.200',
      '100.64.0.1',
      '192.0.0.192',
      '0.0.0.1',
      '::1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      '2001:0:a00:1::1',
      '2001:db8::1',
    ];
    for (const ip of inside) expect({ ip, ok: allowed(objects, dispatcher, { ip }, 443) }).toEqual({ ip, ok: false });
    expect(allowed(objects, dispatcher, { ip: '93.184.215.14' }, 80)).toBe(false);
    for (const other of APPS.filter((a) => a !== 'webhook-dispatcher'))
      expect({ other, ok: allowed(objects, app(other), { ip: '93.184.215.14' }, 443) }).toEqual({ other, ok: false });
  });
});

describe('NetworkPolicies of overlay production', () => {
  const objects = render('production');
  it("admits the public port from the ingress controller's namespace only", () => {
    const gateway = { namespace: NS, labels: podLabels(find(objects, 'Deployment', 'gateway')) };
    expect(allowed(objects, { namespace: 'ingress-nginx', labels: {} }, gateway, 3000)).toBe(true);
    expect(allowed(objects, { namespace: 'default', labels: {} }, gateway, 3000)).toBe(false);
    expect(allowed(objects, { namespace: 'ingress-nginx', labels: {} }, gateway, 9464)).toBe(false);
  });
});

/**
 * The rendered overlays (`kustomize build k8s/overlays/<overlay>`): what every Deployment and
 * migration Job runs, with which identity, settings and credentials.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  APPS,
  OVERLAYS,
  ROOT,
  arr,
  at,
  containerEnv,
  containers,
  entry,
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
import { known } from './support/known-env';
import { decodeCredentialsKey } from '../../apps/transaction-service/src/config/transaction.config';

const DATABASE_NAMES: Record<string, string> = {
  gateway: 'payments_gateway',
  'transaction-service': 'payments_transactions',
  'split-ledger-service': 'payments_ledger',
  'webhook-dispatcher': 'payments_webhooks',
};
/** kustomize's generator suffix: <name>-<10 characters of content hash>. */
const generated = (name: string | undefined, base: string): boolean =>
  new RegExp(`^${base}-[a-z0-9]{10}$`).test(name ?? '');
const secretNames = (objects: Obj[], workload: Obj): string[] =>
  containers(workload).flatMap((c) =>
    [...containerEnv(objects, c).values()].map((v) => v.secret).filter((s): s is string => !!s),
  );

describe.each(OVERLAYS)('overlay %s', (overlay) => {
  const objects = render(overlay);
  const deployments = ofKind(objects, 'Deployment');
  const jobs = ofKind(objects, 'Job');
  const appDeployments = deployments.filter((d) => (APPS as readonly string[]).includes(nameOf(d)));

  it('has one Deployment and one migration Job per app, each starting an app that exists', () => {
    expect(appDeployments.map(nameOf).sort()).toEqual([...APPS].sort());
    for (const app of APPS) {
      const [c] = containers(find(objects, 'Deployment', app));
      expect(entry(c)).toEqual({ app, args: [] });
      const [m] = containers(find(objects, 'Job', `${app}-migrate`));
      expect(entry(m)).toEqual({ app, args: ['migrate'] });
      expect(fs.existsSync(path.join(ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
    }
  });

  it('leaves replica counts to the autoscaler: no `replicas` where an HPA or ScaledObject scales a Deployment', () => {
    const scaled = [...ofKind(objects, 'HorizontalPodAutoscaler'), ...ofKind(objects, 'ScaledObject')].map((s) =>
      str(at(s, 'spec', 'scaleTargetRef', 'name')),
    );
    for (const d of appDeployments) {
      expect({ deployment: nameOf(d), scaled: scaled.includes(nameOf(d)) }).toEqual({
        deployment: nameOf(d),
        scaled: true,
      });
      expect({ deployment: nameOf(d), replicas: at(d, 'spec', 'replicas') }).toEqual({
        deployment: nameOf(d),
        replicas: undefined,
      });
    }
  });

  it('rolls pods when a setting or credential changes: every ConfigMap and Secret they use has a content hash', () => {
    for (const w of [...appDeployments, ...jobs]) {
      for (const c of containers(w)) {
        for (const from of arr(c.envFrom).map(obj)) {
          const ref = str(at(from, 'configMapRef', 'name')) ?? str(at(from, 'secretRef', 'name'));
          expect({ workload: nameOf(w), ref, generated: /-[a-z0-9]{10}$/.test(ref ?? '') }).toEqual({
            workload: nameOf(w),
            ref,
            generated: true,
          });
        }
      }
    }
  });

  it('gives each app its own ServiceAccount (no token mounted) and Secret; shares only the internal RPC secret', () => {
    for (const app of APPS) {
      const d = find(objects, 'Deployment', app);
      expect(podSpec(d).serviceAccountName).toBe(app);
      expect(podSpec(find(objects, 'Job', `${app}-migrate`)).serviceAccountName).toBe(app);
      expect(find(objects, 'ServiceAccount', app).automountServiceAccountToken).toBe(false);
      const secrets = [...new Set(secretNames(objects, d))].sort();
      expect(secrets).toHaveLength(2);
      expect(
        generated(
          secrets.find((s) => !s.startsWith('internal-rpc')),
          app,
        ),
      ).toBe(true);
      expect(
        generated(
          secrets.find((s) => s.startsWith('internal-rpc')),
          'internal-rpc',
        ),
      ).toBe(true);
    }
  });

  it('hands ADMIN_API_TOKEN to the gateway only, and INTERNAL_RPC_SECRET to the gateway and the three services', () => {
    for (const app of APPS) {
      const env = containerEnv(objects, containers(find(objects, 'Deployment', app))[0]);
      expect({ app, admin: env.has('ADMIN_API_TOKEN') }).toEqual({ app, admin: app === 'gateway' });
      expect({ app, rpc: env.has('INTERNAL_RPC_SECRET') }).toEqual({ app, rpc: true });
    }
  });

  it('hands PROVIDER_CREDENTIALS_KEY to transaction-service only (pods and migration Job), from its own Secret', () => {
    for (const app of APPS) {
      for (const w of [find(objects, 'Deployment', app), find(objects, 'Job', `${app}-migrate`)]) {
        const key = containerEnv(objects, containers(w)[0]).get('PROVIDER_CREDENTIALS_KEY');
        expect({ workload: nameOf(w), key: !!key }).toEqual({
          workload: nameOf(w),
          key: app === 'transaction-service',
        });
        if (key)
          expect({ workload: nameOf(w), own: generated(key.secret, 'transaction-service') }).toEqual({
            workload: nameOf(w),
            own: true,
          });
      }
    }
    // The local overlay runs as it is (a valid key); the production template keeps the placeholder the app refuses.
    const key =
      containerEnv(objects, containers(find(objects, 'Deployment', 'transaction-service'))[0]).get(
        'PROVIDER_CREDENTIALS_KEY',
      )?.value ?? '';
    expect(decodeCredentialsKey(key)?.length).toBe(overlay === 'local' ? 32 : undefined);
  });

  it('serves with the DML role and migrates with the DDL role, on the same database', () => {
    for (const app of APPS) {
      const serving = containerEnv(objects, containers(find(objects, 'Deployment', app))[0]);
      const migrating = containerEnv(objects, containers(find(objects, 'Job', `${app}-migrate`))[0]);
      expect(generated(serving.get('DATABASE_URL')?.secret, app)).toBe(true);
      expect(generated(migrating.get('DATABASE_URL')?.secret, `${app}-migration`)).toBe(true);
      expect(new URL(serving.get('DATABASE_URL')?.value ?? '').username).not.toBe(
        new URL(migrating.get('DATABASE_URL')?.value ?? '').username,
      );
      expect(serving.get('DATABASE_NAME')?.value).toBe(DATABASE_NAMES[app]);
      expect(migrating.get('DATABASE_NAME')?.value).toBe(DATABASE_NAMES[app]);
      expect(serving.get('MIGRATE_ON_BOOT')?.value).toBe('false');
      // The migration role's credentials never reach a serving pod.
      expect(secretNames(objects, find(objects, 'Deployment', app)).some((s) => generated(s, `${app}-migration`))).toBe(
        false,
      );
    }
  });

  it('listens on the pod IP (RPC_HOST and HTTP_HOST 0.0.0.0) and sets only variables the code reads', () => {
    for (const w of [...appDeployments, ...jobs]) {
      const env = containerEnv(objects, containers(w)[0]);
      expect({ workload: nameOf(w), rpc: env.get('RPC_HOST')?.value, http: env.get('HTTP_HOST')?.value }).toEqual({
        workload: nameOf(w),
        rpc: '0.0.0.0',
        http: '0.0.0.0',
      });
      expect({ workload: nameOf(w), unknown: [...env.keys()].filter((k) => !known(k)) }).toEqual({
        workload: nameOf(w),
        unknown: [],
      });
    }
  });

  it('runs every pod non-root, read-only, without privileges and with probes on its own ports', () => {
    for (const w of [...appDeployments, ...jobs]) {
      const spec = podSpec(w);
      expect({
        workload: nameOf(w),
        nonRoot: at(spec, 'securityContext', 'runAsNonRoot'),
        seccomp: at(spec, 'securityContext', 'seccompProfile', 'type'),
      }).toEqual({ workload: nameOf(w), nonRoot: true, seccomp: 'RuntimeDefault' });
      for (const c of containers(w)) {
        expect(c.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(at(c, 'resources', 'limits', 'memory')).toBeDefined();
      }
    }
    for (const d of appDeployments) {
      const [c] = containers(d);
      const ports = arr(c.ports).map((p) => str(obj(p).name));
      for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
        expect({ deployment: nameOf(d), probe, port: ports.includes(str(at(c, probe, 'httpGet', 'port'))) }).toEqual({
          deployment: nameOf(d),
          probe,
          port: true,
        });
      }
      expect(at(c, 'readinessProbe', 'httpGet', 'path')).toBe('/health/ready');
    }
  });

  it('routes Services to Deployment pods on their container ports, never to migration pods', () => {
    for (const svc of ofKind(objects, 'Service')) {
      const selector = obj(at(svc, 'spec', 'selector'));
      const targets = [...deployments, ...ofKind(objects, 'StatefulSet')].filter((w) =>
        selects(selector, podLabels(w)),
      );
      expect({ service: nameOf(svc), targets: targets.length > 0 }).toEqual({ service: nameOf(svc), targets: true });
      expect(jobs.filter((j) => selects(selector, podLabels(j))).map(nameOf)).toEqual([]);
      for (const w of targets) {
        const named = containers(w).flatMap((c) => arr(c.ports).map(obj));
        for (const p of arr(at(svc, 'spec', 'ports')).map(obj)) {
          const target = p.targetPort ?? p.port;
          expect({
            service: nameOf(svc),
            target,
            found: named.some((n) => n.name === target || n.containerPort === target),
          }).toEqual({ service: nameOf(svc), target, found: true });
        }
      }
    }
  });

  it("points the gateway's *_ADDRS at headless Services of each service's RPC_PORT", () => {
    const env = containerEnv(objects, containers(find(objects, 'Deployment', 'gateway'))[0]);
    for (const [key, app] of [
      ['TRANSACTION_SERVICE_ADDRS', 'transaction-service'],
      ['SPLIT_LEDGER_SERVICE_ADDRS', 'split-ledger-service'],
      ['WEBHOOK_DISPATCHER_ADDRS', 'webhook-dispatcher'],
    ]) {
      const [host, port] = (env.get(key)?.value ?? '').split(':');
      const svc = find(objects, 'Service', host);
      expect(at(svc, 'spec', 'clusterIP')).toBe('None');
      expect(selects(obj(at(svc, 'spec', 'selector')), podLabels(find(objects, 'Deployment', app)))).toBe(true);
      expect(containerEnv(objects, containers(find(objects, 'Deployment', app))[0]).get('RPC_PORT')?.value).toBe(port);
    }
  });

  it('has a PodDisruptionBudget for every Deployment', () => {
    for (const d of appDeployments) {
      const pdbs = ofKind(objects, 'PodDisruptionBudget').filter((p) =>
        selects(obj(at(p, 'spec', 'selector')), podLabels(d)),
      );
      expect({ deployment: nameOf(d), pdbs: pdbs.length }).toEqual({ deployment: nameOf(d), pdbs: 1 });
    }
  });
});

/**
 * Every overlay applied (`kubectl apply --server-side`) to a real kube-apiserver with etcd of the
 * release pinned in scripts/deploy/kube/go.mod (scripts/deploy/apiserver.sh starts one per overlay),
 * and the STORED objects checked: what the server defaulted, validated and admitted, not what
 * kustomize printed. No controllers run, so Pod Security admission is exercised by a server-side
 * dry run of the Pod each workload's controller would create.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
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
  nameOf,
  obj,
  podLabels,
  podSpec,
  render,
  selects,
  str,
  type Obj,
} from './support/render';

const KUBECTL = path.resolve(ROOT, process.env.CACHE_DIR ?? '.cache', 'bin', 'kubectl');
const SCRIPT = path.join(ROOT, 'scripts', 'deploy', 'apiserver.sh');
const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'];
/** Building the binaries the first time (scripts/deploy/apiserver-tools.sh) takes minutes. */
const SETUP_TIMEOUT_MS = 40 * 60_000;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

const key = (o: Obj): string => `${str(o.kind)}/${str(at(o, 'metadata', 'namespace')) ?? ''}/${nameOf(o)}`;
const namespaceOf = (o: Obj): string => str(at(o, 'metadata', 'namespace')) ?? '';
/** The app or piece of infrastructure an object is for: its app.kubernetes.io/name label. */
const ownerOf = (o: Obj): string => str(at(o, 'metadata', 'labels', 'app.kubernetes.io/name')) ?? nameOf(o);

/** The kubectl resource argument of an object's type: kind.version.group (kind alone for core). */
function resourceOf(o: Obj): string {
  const apiVersion = str(o.apiVersion) ?? '';
  const kind = (str(o.kind) ?? '').toLowerCase();
  if (!apiVersion.includes('/')) return kind;
  const [group, version] = apiVersion.split('/');
  return `${kind}.${version}.${group}`;
}

/**
 * A label selector with several values in one `In` expression, as one selector per value: each
 * value must select something (a misspelt name in a list still leaves the selector matching).
 */
function alternatives(selector: Obj): Obj[] {
  const exprs = arr(selector.matchExpressions).map(obj);
  const i = exprs.findIndex((e) => e.operator === 'In' && arr(e.values).length > 1);
  if (i < 0) return [selector];
  return arr(exprs[i].values).flatMap((v) =>
    alternatives({ ...selector, matchExpressions: exprs.map((e, j) => (j === i ? { ...e, values: [v] } : e)) }),
  );
}

/** The Pod a workload's controller would create from its template (StatefulSet claims included). */
function podOf(workload: Obj): Obj {
  const spec = { ...podSpec(workload) };
  const claims = arr(at(workload, 'spec', 'volumeClaimTemplates')).map(obj);
  if (claims.length > 0) {
    spec.volumes = [
      ...arr(spec.volumes),
      ...claims.map((c) => ({
        name: nameOf(c),
        persistentVolumeClaim: { claimName: `${nameOf(c)}-${nameOf(workload)}-0` },
      })),
    ];
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${nameOf(workload)}-dry-run`, namespace: namespaceOf(workload), labels: podLabels(workload) },
    spec,
  };
}

describe.each(OVERLAYS)('overlay %s on a real kube-apiserver', (overlay) => {
  const rendered = render(overlay);
  let dir = '';
  let applied: Run = { status: null, stdout: '', stderr: 'not applied' };
  let stored: Obj[] = [];

  const kubectl = (args: string[], input?: string): Run => {
    const r = spawnSync(KUBECTL, args, {
      input,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      env: { ...process.env, KUBECONFIG: path.join(dir, 'kubeconfig') },
    });
    if (r.error) throw r.error;
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const list = (kind: string): Obj[] => stored.filter((o) => o.kind === kind);
  const workloads = (namespace: string): Obj[] =>
    stored.filter((o) => WORKLOAD_KINDS.includes(str(o.kind) ?? '') && namespaceOf(o) === namespace);
  /** The workloads (same namespace) whose pods a selector selects, by name. */
  const selected = (selector: Obj, namespace: string): string[] =>
    workloads(namespace)
      .filter((w) => selects(selector, podLabels(w)))
      .map(nameOf)
      .sort();

  beforeAll(() => {
    // A directory that does not exist yet (apiserver.sh creates it and removes it on `down`).
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-apiserver-')), overlay);
    // The servers stop by themselves if this process ends without reaching afterAll.
    execFileSync('bash', [SCRIPT, 'up', dir, String(process.pid)], { stdio: ['ignore', 'inherit', 'inherit'] });
    applied = kubectl(
      ['apply', '--server-side', '--field-manager', 'deploy-check', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: rendered }),
    );
    const types = [...new Set(rendered.map(resourceOf))].join(',');
    const got = kubectl(['get', types, '--all-namespaces', '-o', 'json']);
    if (got.status !== 0) throw new Error(`kubectl get ${types} failed: ${got.stderr}`);
    // The overlay's namespaces and what is in them (not the server's own, e.g. Service default/kubernetes).
    const namespaces = new Set(rendered.map(namespaceOf).filter(Boolean));
    stored = arr(obj(JSON.parse(got.stdout)).items)
      .map(obj)
      .filter((o) => namespaces.has(namespaceOf(o)) || (o.kind === 'Namespace' && namespaces.has(nameOf(o))));
  }, SETUP_TIMEOUT_MS);

  afterAll(() => {
    if (!dir) return;
    execFileSync('bash', [SCRIPT, 'down', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });
  /** A check of a kind of object this overlay does not render is reported as skipped. */
  const itFor = (kinds: string[]) => (rendered.some((o) => kinds.includes(str(o.kind) ?? '')) ? it : it.skip);

  it('accepts every object, without a warning, and stores each of them', () => {
    expect({ status: applied.status, stderr: applied.stderr }).toEqual({ status: 0, stderr: '' });
    expect(stored.map(key).sort()).toEqual(rendered.map(key).sort());
  });

  it("admits the Pod of every workload under the namespace's Pod Security level (server-side dry run)", () => {
    const namespaces = list('Namespace');
    expect(namespaces.length).toBeGreaterThan(0);
    for (const ns of namespaces) {
      expect({
        ns: nameOf(ns),
        enforce: str(at(ns, 'metadata', 'labels', 'pod-security.kubernetes.io/enforce')),
      }).toEqual({ ns: nameOf(ns), enforce: 'restricted' });
      // What the ServiceAccount controller would have created: pods without serviceAccountName use it.
      const sa = kubectl(['create', 'serviceaccount', 'default', '-n', nameOf(ns)]);
      expect(sa.status === 0 || sa.stderr.includes('AlreadyExists')).toBe(true);
    }
    const all = stored.filter((o) => WORKLOAD_KINDS.includes(str(o.kind) ?? ''));
    expect(all.length).toBeGreaterThan(0);
    for (const w of all) {
      const r = kubectl(['create', '--dry-run=server', '-o', 'name', '-f', '-'], JSON.stringify(podOf(w)));
      expect({ workload: key(w), status: r.status, stderr: r.stderr }).toEqual({
        workload: key(w),
        status: 0,
        stderr: '',
      });
    }
    // ...and the admission does refuse a Pod that breaks the profile (it is really enforced).
    const pod = podOf(all[0]);
    const spec = obj(pod.spec);
    const loose = { ...pod, spec: { ...spec, securityContext: { ...obj(spec.securityContext), runAsNonRoot: false } } };
    const refused = kubectl(['create', '--dry-run=server', '-o', 'name', '-f', '-'], JSON.stringify(loose));
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('violates PodSecurity "restricted');
  });

  itFor(['Service'])(
    'has every Service select the pods of exactly the workload it is for, on ports they declare',
    () => {
      const services = list('Service');
      expect(services.length).toBeGreaterThan(0);
      for (const s of services) {
        const selector = obj(at(s, 'spec', 'selector'));
        expect({ service: nameOf(s), selects: selected(selector, namespaceOf(s)) }).toEqual({
          service: nameOf(s),
          selects: [ownerOf(s)],
        });
        const target = workloads(namespaceOf(s)).find((w) => nameOf(w) === ownerOf(s));
        const portNames = (target ? containers(target) : []).flatMap((c) => arr(c.ports).map((p) => str(obj(p).name)));
        const portNumbers = (target ? containers(target) : []).flatMap((c) =>
          arr(c.ports).map((p) => str(obj(p).containerPort)),
        );
        for (const p of arr(at(s, 'spec', 'ports')).map(obj)) {
          const t = str(p.targetPort) ?? str(p.port);
          const declared = typeof p.targetPort === 'string' ? portNames.includes(t) : portNumbers.includes(t);
          expect({ service: nameOf(s), targetPort: t, declared }).toEqual({
            service: nameOf(s),
            targetPort: t,
            declared: true,
          });
        }
      }
    },
  );

  itFor(['PodDisruptionBudget'])(
    'has every PodDisruptionBudget select the pods of exactly the workload it is for',
    () => {
      const pdbs = list('PodDisruptionBudget');
      expect(pdbs.length).toBeGreaterThan(0);
      for (const p of pdbs) {
        expect({ pdb: nameOf(p), selects: selected(obj(at(p, 'spec', 'selector')), namespaceOf(p)) }).toEqual({
          pdb: nameOf(p),
          selects: [ownerOf(p)],
        });
      }
    },
  );

  itFor(['NetworkPolicy'])(
    'has every NetworkPolicy and every pod peer of its rules select pods of some workload (each In value too)',
    () => {
      const policies = list('NetworkPolicy');
      expect(policies.length).toBeGreaterThan(0);
      for (const np of policies) {
        const ns = namespaceOf(np);
        for (const alt of alternatives(obj(at(np, 'spec', 'podSelector')))) {
          expect({ policy: nameOf(np), podSelector: alt, selects: selected(alt, ns).length > 0 }).toEqual({
            policy: nameOf(np),
            podSelector: alt,
            selects: true,
          });
        }
        const rules = [
          ...arr(at(np, 'spec', 'ingress')).map((r) => arr(obj(r).from)),
          ...arr(at(np, 'spec', 'egress')).map((r) => arr(obj(r).to)),
        ];
        for (const peer of rules.flat().map(obj)) {
          if (peer.podSelector === undefined) continue;
          // Pods of another namespace (kube-dns, Prometheus) are not part of these overlays.
          const nsSelector = peer.namespaceSelector;
          if (nsSelector !== undefined && !selects(obj(nsSelector), { 'kubernetes.io/metadata.name': ns })) continue;
          for (const alt of alternatives(obj(peer.podSelector))) {
            expect({ policy: nameOf(np), peer: alt, selects: selected(alt, ns).length > 0 }).toEqual({
              policy: nameOf(np),
              peer: alt,
              selects: true,
            });
          }
        }
      }
    },
  );

  itFor(['HorizontalPodAutoscaler', 'ScaledObject'])(
    'has every HorizontalPodAutoscaler and KEDA ScaledObject scale the Deployment it is for, which exists',
    () => {
      const scalers = [...list('HorizontalPodAutoscaler'), ...list('ScaledObject')];
      expect(scalers.length).toBeGreaterThan(0);
      for (const s of scalers) {
        const ref = obj(at(s, 'spec', 'scaleTargetRef'));
        const target = {
          apiVersion: str(ref.apiVersion) ?? 'apps/v1',
          kind: str(ref.kind) ?? 'Deployment',
          name: str(ref.name),
        };
        const exists = stored.some(
          (o) =>
            o.apiVersion === target.apiVersion &&
            o.kind === target.kind &&
            nameOf(o) === target.name &&
            namespaceOf(o) === namespaceOf(s),
        );
        expect({ scaler: key(s), target, exists }).toEqual({
          scaler: key(s),
          target: { apiVersion: 'apps/v1', kind: 'Deployment', name: ownerOf(s) },
          exists: true,
        });
      }
    },
  );

  itFor(['ScaledObject'])('has every KEDA trigger authenticate with a Secret key that exists', () => {
    expect(list('ScaledObject').length).toBeGreaterThan(0);
    for (const so of list('ScaledObject')) {
      for (const trigger of arr(at(so, 'spec', 'triggers')).map(obj)) {
        const auth = str(at(trigger, 'authenticationRef', 'name'));
        if (auth === undefined) continue;
        const ta = list('TriggerAuthentication').find((t) => nameOf(t) === auth && namespaceOf(t) === namespaceOf(so));
        expect({ scaledObject: nameOf(so), auth, exists: ta !== undefined }).toEqual({
          scaledObject: nameOf(so),
          auth,
          exists: true,
        });
        for (const ref of arr(at(ta, 'spec', 'secretTargetRef')).map(obj)) {
          const secret = list('Secret').find((x) => nameOf(x) === str(ref.name) && namespaceOf(x) === namespaceOf(so));
          const hasKey = secret !== undefined && str(ref.key) !== undefined && str(ref.key)! in obj(secret.data);
          expect({ auth, secret: str(ref.name), key: str(ref.key), hasKey }).toEqual({
            auth,
            secret: str(ref.name),
            key: str(ref.key),
            hasKey: true,
          });
        }
      }
    }
  });

  itFor(['Ingress'])('routes every Ingress path to a Service port that exists', () => {
    expect(list('Ingress').length).toBeGreaterThan(0);
    for (const ing of list('Ingress')) {
      for (const p of arr(at(ing, 'spec', 'rules'))
        .flatMap((r) => arr(at(r, 'http', 'paths')))
        .map(obj)) {
        const backend = obj(at(p, 'backend', 'service'));
        const svc = list('Service').find((s) => nameOf(s) === str(backend.name) && namespaceOf(s) === namespaceOf(ing));
        const port = obj(backend.port);
        const ok = arr(at(svc, 'spec', 'ports'))
          .map(obj)
          .some((sp) => (port.name !== undefined ? sp.name === port.name : sp.port === port.number));
        expect({ ingress: nameOf(ing), path: p.path, backend, ok }).toEqual({
          ingress: nameOf(ing),
          path: p.path,
          backend,
          ok: true,
        });
      }
    }
  });

  it("has every migration Job run its app's migrations with its image, identity, settings and migration role", () => {
    const jobs = list('Job').filter((j) => at(j, 'metadata', 'labels', 'app.kubernetes.io/component') === 'migration');
    expect(jobs.map(nameOf).sort()).toEqual(APPS.map((a) => `${a}-migrate`).sort());
    for (const job of jobs) {
      const app = nameOf(job).replace(/-migrate$/, '');
      const deployment = list('Deployment').find((d) => nameOf(d) === app && namespaceOf(d) === namespaceOf(job));
      expect({ job: nameOf(job), deployment: deployment !== undefined }).toEqual({
        job: nameOf(job),
        deployment: true,
      });
      const [jc] = containers(job);
      const [dc] = containers(deployment!);
      expect(fs.existsSync(path.join(ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
      const jobEnv = containerEnv(stored, jc);
      const appEnv = containerEnv(stored, dc);
      expect({ app, database: appEnv.get('DATABASE_NAME')?.value }).toEqual({
        app,
        database: expect.stringMatching(/^payments_/),
      });
      expect({
        job: nameOf(job),
        runs: entry(jc),
        image: str(jc.image),
        serviceAccount: str(podSpec(job).serviceAccountName),
        database: jobEnv.get('DATABASE_NAME')?.value,
        databaseUrlSecret: jobEnv.get('DATABASE_URL')?.secret?.replace(/-[a-z0-9]{10}$/, ''),
        appSecrets: arr(jc.envFrom)
          .map((f) => str(at(f, 'secretRef', 'name')))
          .filter(Boolean)
          .sort(),
      }).toEqual({
        job: nameOf(job),
        runs: { app, args: ['migrate'] },
        image: str(dc.image),
        serviceAccount: str(podSpec(deployment!).serviceAccountName),
        database: appEnv.get('DATABASE_NAME')?.value,
        databaseUrlSecret: `${app}-migration`,
        appSecrets: arr(dc.envFrom)
          .map((f) => str(at(f, 'secretRef', 'name')))
          .filter(Boolean)
          .sort(),
      });
    }
  });
});

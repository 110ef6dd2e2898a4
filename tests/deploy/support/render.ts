/**
 * Renders the kustomize overlays the way `kubectl apply -k` would and hands the tests the
 * objects. kustomize is the pinned binary under .cache/bin, installed by
 * scripts/deploy/tools.sh (run here when it is missing, as .ci/run does first).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

export type Obj = Record<string, unknown>;
export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const OVERLAYS = fs.readdirSync(path.join(ROOT, 'k8s', 'overlays')).sort();
export const APPS = ['gateway', 'transaction-service', 'split-ledger-service', 'webhook-dispatcher'] as const;
export const SERVICES = APPS.filter((a) => a !== 'gateway');

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
/** `obj.a.b.c` without casts: missing steps give undefined. */
export const at = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => obj(o)[k], v);

/** Where scripts/deploy/tools.sh puts it (CACHE_DIR, as scripts/lib/common.sh resolves it). */
export const KUSTOMIZE = path.resolve(ROOT, process.env.CACHE_DIR ?? '.cache', 'bin', 'kustomize');

let checked = false;
/** The pinned kustomize: tools.sh installs it if missing, or waits for an install already running (CI's validation). */
function kustomize(): string {
  if (!checked) execFileSync('bash', [path.join(ROOT, 'scripts', 'deploy', 'tools.sh')], { stdio: 'inherit' });
  checked = true;
  return KUSTOMIZE;
}

const cache = new Map<string, Obj[]>();
/** Every object of `kustomize build k8s/overlays/<overlay>`. */
export function render(overlay: string): Obj[] {
  let objects = cache.get(overlay);
  if (!objects) {
    const out = execFileSync(kustomize(), ['build', path.join(ROOT, 'k8s', 'overlays', overlay)], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    objects = parseAllDocuments(out).map((d) => obj(d.toJS()));
    cache.set(overlay, objects);
  }
  return objects;
}

export const kindOf = (o: Obj): string => str(o.kind) ?? '?';
export const nameOf = (o: Obj): string => str(at(o, 'metadata', 'name')) ?? '?';
export const describe_ = (o: Obj): string => `${kindOf(o)}/${nameOf(o)}`;
export const ofKind = (objects: Obj[], kind: string): Obj[] => objects.filter((o) => o.kind === kind);
export function find(objects: Obj[], kind: string, name: string): Obj {
  const found = objects.find((o) => o.kind === kind && nameOf(o) === name);
  if (!found) throw new Error(`no ${kind}/${name} rendered`);
  return found;
}

export const podSpec = (workload: Obj): Obj => obj(at(workload, 'spec', 'template', 'spec'));
export const podLabels = (workload: Obj): Obj => obj(at(workload, 'spec', 'template', 'metadata', 'labels'));
export const containers = (workload: Obj): Obj[] => arr(podSpec(workload).containers).map(obj);

/** A container's environment as the process sees it: envFrom ConfigMaps/Secrets, then env. */
export function containerEnv(objects: Obj[], c: Obj): Map<string, { value?: string; secret?: string; key?: string }> {
  const env = new Map<string, { value?: string; secret?: string; key?: string }>();
  for (const from of arr(c.envFrom).map(obj)) {
    const cm = str(at(from, 'configMapRef', 'name'));
    const secret = str(at(from, 'secretRef', 'name'));
    const source = cm ? find(objects, 'ConfigMap', cm) : secret ? find(objects, 'Secret', secret) : undefined;
    for (const [k, v] of Object.entries(obj(source?.data))) {
      env.set(
        k,
        cm ? { value: str(v) } : { secret, key: k, value: Buffer.from(str(v) ?? '', 'base64').toString('utf8') },
      );
    }
  }
  for (const e of arr(c.env).map(obj)) {
    const ref = obj(at(e, 'valueFrom', 'secretKeyRef'));
    if (ref.name) {
      const secret = find(objects, 'Secret', str(ref.name) ?? '');
      env.set(str(e.name) ?? '', {
        secret: str(ref.name),
        key: str(ref.key),
        value: Buffer.from(str(obj(secret.data)[str(ref.key) ?? '']) ?? '', 'base64').toString('utf8'),
      });
    } else env.set(str(e.name) ?? '', { value: str(e.value) });
  }
  return env;
}

/** The app a container starts: `node dist/apps/<app>/src/main.js [migrate]`. */
export function entry(c: Obj): { app?: string; args: string[] } {
  const words = arr(c.command)
    .concat(arr(c.args))
    .map((w) => str(w) ?? '');
  const i = words.findIndex((w) => /^dist\/apps\/[^/]+\/src\/main\.js$/.test(w));
  return i < 0 ? { args: words } : { app: words[i].split('/')[2], args: words.slice(i + 1) };
}

/** Label selector (matchLabels and matchExpressions In/NotIn/Exists) against pod labels. */
export function selects(selector: Obj, labels: Obj): boolean {
  const ml = obj(selector.matchLabels ?? (selector.matchExpressions ? {} : selector));
  const okLabels = Object.entries(ml).every(([k, v]) => str(labels[k]) === str(v));
  const okExpr = arr(selector.matchExpressions)
    .map(obj)
    .every((e) => {
      const value = str(labels[str(e.key) ?? '']);
      const values = arr(e.values).map((v) => str(v));
      switch (e.operator) {
        case 'In':
          return value !== undefined && values.includes(value);
        case 'NotIn':
          return value === undefined || !values.includes(value);
        case 'Exists':
          return value !== undefined;
        case 'DoesNotExist':
          return value === undefined;
        default:
          return false;
      }
    });
  return okLabels && okExpr;
}

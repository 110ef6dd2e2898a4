/**
 * Static checks of the deployment files: Dockerfile, docker-compose.yml and the
 * kustomize tree under k8s/. Nothing is built or started; the files are parsed and
 * cross-checked against each other and against the source tree:
 *   - commands must start an app that exists (apps/<app>/src/main.ts),
 *   - every environment variable set must be one the config classes declare,
 *   - images must be the one built from the repo Dockerfile,
 *   - probes, ports, selectors and service addresses must line up.
 * Each test collects every problem and fails with the full list.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';

type Obj = Record<string, unknown>;

const ROOT = path.resolve(__dirname, '..', '..');
const K8S_DIR = path.join(ROOT, 'k8s');
const BASE_KUSTOMIZATION = path.join(K8S_DIR, 'base', 'kustomization.yaml');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
const DOCKERFILE = path.join(ROOT, 'Dockerfile');
const DOCKERIGNORE = path.join(ROOT, '.dockerignore');

/** Third-party images in compose: not built here, their env is theirs (exempt from the env check). */
const INFRA_IMAGES = ['apache/kafka', 'postgres', 'redis'];
const REQUIRED_STAGES = ['deps', 'build', 'runtime'];
const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
/** `dist/apps/<app>/src/main.js`, optionally absolute (/app/dist/...) or ./-prefixed. */
const ENTRY = /^(?:\.\/|\/[^\s]*\/)?dist\/apps\/([^/\s]+)\/src\/main\.js$/;

// ---------------------------------------------------------------------------
// small helpers
// ---------------------------------------------------------------------------
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
const rel = (p: string): string => path.relative(ROOT, p).split(path.sep).join('/') || '.';
const unique = (items: string[]): string[] => [...new Set(items)];

function walk(dir: string, keep: (file: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full, keep));
    else if (entry.isFile() && keep(full)) out.push(full);
  }
  return out.sort();
}

/** `a` is a subset of `b` (every key of a non-empty selector has the same value in the labels). */
function selects(selector: Obj, labels: Obj): boolean {
  const keys = Object.keys(selector);
  return keys.length > 0 && keys.every((k) => str(labels[k]) !== undefined && str(labels[k]) === str(selector[k]));
}

/** Image reference without tag or digest: `reg:5000/ns/name:tag@sha256:..` -> `reg:5000/ns/name`. */
function imageName(image: string): string {
  const noDigest = image.split('@')[0];
  const lastSlash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > lastSlash ? noDigest.slice(0, colon) : noDigest;
}

/** A command as a list of words (compose also accepts a plain string). */
function words(v: unknown): string[] {
  if (typeof v === 'string') return v.trim().split(/\s+/);
  return arr(v).map((w) => str(w) ?? '');
}

function entryApp(command: string[]): string | undefined {
  for (const w of command) {
    const m = ENTRY.exec(w);
    if (m) return m[1];
  }
  return undefined;
}

const appExists = (app: string): boolean => fs.existsSync(path.join(ROOT, 'apps', app, 'src', 'main.ts'));

// ---------------------------------------------------------------------------
// environment variables the code reads
// ---------------------------------------------------------------------------
interface KnownEnv {
  files: string[];
  isKnown: (name: string) => boolean;
}

let knownEnvCache: KnownEnv | undefined;

/**
 * The config classes declare each variable as a property named exactly like it, so a
 * name is known when it appears as a whole word in a TypeScript source file under
 * apps/<x>/src or libs/<x>/src whose path contains "config" (tests excluded).
 */
function knownEnv(): KnownEnv {
  if (knownEnvCache) return knownEnvCache;
  const isConfigSource = (file: string): boolean => {
    const r = rel(file);
    return (
      /^(apps|libs)\/[^/]+\/src\/.+\.ts$/.test(r) &&
      /config/i.test(r) &&
      !/\.(spec|test)\.ts$/.test(r) &&
      !r.endsWith('.d.ts')
    );
  };
  const files = [...walk(path.join(ROOT, 'apps'), isConfigSource), ...walk(path.join(ROOT, 'libs'), isConfigSource)];
  const sources = files.map((f) => fs.readFileSync(f, 'utf8'));
  const memo = new Map<string, boolean>();
  knownEnvCache = {
    files,
    isKnown: (name: string) => {
      let known = memo.get(name);
      if (known === undefined) {
        const word = new RegExp(`(?<![A-Za-z0-9_$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_$])`);
        known = sources.some((s) => word.test(s));
        memo.set(name, known);
      }
      return known;
    },
  };
  return knownEnvCache;
}

function unknownEnvProblems(where: string, names: string[]): string[] {
  const env = knownEnv();
  return unique(names)
    .filter((n) => !env.isKnown(n))
    .map(
      (n) =>
        `${where}: sets environment variable ${n}, which no config class declares ` +
        `(searched ${env.files.length} config source file(s) under apps/*/src and libs/*/src)`,
    );
}

// ---------------------------------------------------------------------------
// Dockerfile
// ---------------------------------------------------------------------------
interface Stage {
  name: string | undefined;
  from: string;
  instructions: string[];
}

function dockerfileStages(src: string): Stage[] {
  // Join continuation lines, drop comments and blank lines.
  const logical = src
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of logical) {
    const from = /^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?\s*$/i.exec(line);
    if (from) stages.push({ from: from[1], name: from[2]?.toLowerCase(), instructions: [] });
    else if (stages.length > 0) stages[stages.length - 1].instructions.push(line);
  }
  return stages;
}

let stagesCache: Stage[] | undefined;
function stages(): Stage[] {
  if (!stagesCache) stagesCache = fs.existsSync(DOCKERFILE) ? dockerfileStages(fs.readFileSync(DOCKERFILE, 'utf8')) : [];
  return stagesCache;
}

// ---------------------------------------------------------------------------
// Kubernetes manifests and kustomizations
// ---------------------------------------------------------------------------
interface Doc {
  file: string;
  index: number;
  value: unknown;
}

interface YamlFile {
  file: string;
  docs: Doc[];
  errors: string[];
}

function loadYamlFile(file: string): YamlFile {
  const src = fs.readFileSync(file, 'utf8');
  const errors: string[] = [];
  const docs: Doc[] = [];
  let index = 0;
  for (const doc of parseAllDocuments(src)) {
    index += 1;
    if (doc.errors.length > 0) {
      errors.push(...doc.errors.map((e) => `${rel(file)} (document ${index}): ${e.message.split('\n')[0]}`));
      continue;
    }
    const value: unknown = doc.toJS();
    if (value !== null && value !== undefined) docs.push({ file, index, value });
  }
  if (errors.length === 0 && docs.length === 0) errors.push(`${rel(file)}: holds no YAML document`);
  return { file, docs, errors };
}

const kindOf = (d: Doc): string | undefined => str(obj(d.value).kind);
const nameOf = (d: Doc): string | undefined => str(obj(obj(d.value).metadata).name);
const describeDoc = (d: Doc): string => `${rel(d.file)}: ${kindOf(d) ?? '?'}/${nameOf(d) ?? '?'}`;

interface Kustomization {
  file: string;
  dir: string;
  spec: Obj;
}

interface K8sModel {
  files: YamlFile[];
  kustomizations: Kustomization[];
  /** resource files reachable from each kustomization (recursively through directories). */
  resourcesOf: Map<string, string[]>;
  /** patch files named by each kustomization. */
  patchesOf: Map<string, string[]>;
  /** documents of every resource file reachable from any kustomization (each file once). */
  resources: Doc[];
  /** documents of every patch file. */
  patches: Doc[];
  /** problems found while following kustomization references. */
  referenceProblems: string[];
}

function findKustomization(dir: string): string | undefined {
  return KUSTOMIZATION_NAMES.map((n) => path.join(dir, n)).find((f) => fs.existsSync(f));
}

function patchPaths(spec: Obj): string[] {
  const out: string[] = [];
  for (const p of arr(spec.patches)) {
    const file = typeof p === 'string' ? p : str(obj(p).path);
    if (file) out.push(file);
  }
  for (const p of arr(spec.patchesStrategicMerge)) if (typeof p === 'string' && !p.includes('\n')) out.push(p);
  for (const p of arr(spec.patchesJson6902)) {
    const file = str(obj(p).path);
    if (file) out.push(file);
  }
  return out;
}

let k8sCache: K8sModel | undefined;

function k8s(): K8sModel {
  if (k8sCache) return k8sCache;
  const files = walk(K8S_DIR, (f) => /\.ya?ml$/.test(f) || path.basename(f) === 'Kustomization').map(loadYamlFile);
  const byFile = new Map(files.map((f) => [f.file, f]));
  const kustomizations: Kustomization[] = files
    .filter((f) => KUSTOMIZATION_NAMES.includes(path.basename(f.file)) && f.docs.length > 0)
    .map((f) => ({ file: f.file, dir: path.dirname(f.file), spec: obj(f.docs[0].value) }));
  const byKustomizationFile = new Map(kustomizations.map((k) => [k.file, k]));
  const referenceProblems: string[] = [];
  const resourcesOf = new Map<string, string[]>();
  const patchesOf = new Map<string, string[]>();

  const resolve = (k: Kustomization, seen: Set<string>): string[] => {
    const cached = resourcesOf.get(k.file);
    if (cached) return cached;
    if (seen.has(k.file)) {
      referenceProblems.push(`${rel(k.file)}: resources form a cycle`);
      return [];
    }
    seen.add(k.file);
    const out: string[] = [];
    for (const entry of [...arr(k.spec.resources), ...arr(k.spec.components)]) {
      const ref = str(entry);
      if (!ref) continue;
      if (/^[a-z]+:\/\//i.test(ref) || ref.startsWith('github.com/')) {
        referenceProblems.push(`${rel(k.file)}: remote resource ${ref} cannot be checked; vendor it under k8s/`);
        continue;
      }
      const target = path.resolve(k.dir, ref);
      if (!fs.existsSync(target)) {
        referenceProblems.push(`${rel(k.file)}: resource ${ref} does not exist (${rel(target)})`);
      } else if (fs.statSync(target).isDirectory()) {
        const nested = findKustomization(target);
        const nestedK = nested ? byKustomizationFile.get(nested) : undefined;
        if (!nestedK) referenceProblems.push(`${rel(k.file)}: resource directory ${ref} has no kustomization.yaml`);
        else out.push(...resolve(nestedK, seen));
      } else {
        out.push(target);
      }
    }
    const patches: string[] = [];
    for (const ref of patchPaths(k.spec)) {
      const target = path.resolve(k.dir, ref);
      if (!fs.existsSync(target) || !fs.statSync(target).isFile()) {
        referenceProblems.push(`${rel(k.file)}: patch ${ref} does not exist (${rel(target)})`);
      } else {
        patches.push(target);
      }
    }
    patchesOf.set(k.file, patches);
    resourcesOf.set(k.file, unique(out));
    return unique(out);
  };
  for (const k of kustomizations) resolve(k, new Set());

  const resourceFiles = unique([...resourcesOf.values()].flat());
  const patchFiles = unique([...patchesOf.values()].flat());
  const docsOf = (list: string[]): Doc[] => list.flatMap((f) => byFile.get(f)?.docs ?? []);
  k8sCache = {
    files,
    kustomizations,
    resourcesOf,
    patchesOf,
    resources: docsOf(resourceFiles),
    patches: docsOf(patchFiles),
    referenceProblems,
  };
  return k8sCache;
}

interface Workload {
  doc: Doc;
  kind: string;
  name: string;
  podSpec: Obj;
  podLabels: Obj;
  containers: Obj[];
}

function workloads(docs: Doc[]): Workload[] {
  return docs
    .filter((d) => kindOf(d) === 'Deployment' || kindOf(d) === 'Job')
    .map((d) => {
      const template = obj(obj(obj(d.value).spec).template);
      const podSpec = obj(template.spec);
      return {
        doc: d,
        kind: kindOf(d) ?? '',
        name: nameOf(d) ?? '',
        podSpec,
        podLabels: obj(obj(template.metadata).labels),
        containers: [...arr(podSpec.initContainers), ...arr(podSpec.containers)].map(obj),
      };
    });
}

const containerWhere = (w: Workload, c: Obj): string => `${describeDoc(w.doc)} container ${str(c.name) ?? '?'}`;

function containerEnv(c: Obj): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  for (const e of arr(c.env).map(obj)) {
    const name = str(e.name);
    if (name) env.set(name, str(e.value));
  }
  return env;
}

/** `data`/`stringData` keys of the ConfigMaps or Secrets with this name (resources and patches). */
function keysOf(kind: 'ConfigMap' | 'Secret', name: string, docs: Doc[]): string[] | undefined {
  const found = docs.filter((d) => kindOf(d) === kind && nameOf(d) === name);
  if (found.length === 0) return undefined;
  return unique(found.flatMap((d) => [...Object.keys(obj(obj(d.value).data)), ...Object.keys(obj(obj(d.value).stringData))]));
}

function containerPortMatches(port: unknown, containers: Obj[]): boolean {
  const ports = containers.flatMap((c) => arr(c.ports).map(obj));
  if (typeof port === 'number' || /^\d+$/.test(str(port) ?? '')) {
    return ports.some((p) => Number(p.containerPort) === Number(port));
  }
  return ports.some((p) => str(p.name) !== undefined && str(p.name) === str(port));
}

function probePort(probe: Obj): unknown {
  return obj(probe.httpGet).port ?? obj(probe.tcpSocket).port ?? obj(probe.grpc).port;
}

// ---------------------------------------------------------------------------
// docker-compose.yml
// ---------------------------------------------------------------------------
interface Compose {
  services: Map<string, Obj>;
  error?: string;
}

let composeCache: Compose | undefined;
function compose(): Compose {
  if (composeCache) return composeCache;
  try {
    // Compose files commonly share fragments through YAML merge keys (<<: *anchor).
    const doc = obj(parse(fs.readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }));
    composeCache = { services: new Map(Object.entries(obj(doc.services)).map(([k, v]) => [k, obj(v)])) };
  } catch (err) {
    composeCache = { services: new Map(), error: `${rel(COMPOSE_FILE)}: ${(err as Error).message.split('\n')[0]}` };
  }
  return composeCache;
}

function composeEnv(service: Obj): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  const raw = service.environment;
  if (Array.isArray(raw)) {
    for (const item of raw) {
      const s = str(item) ?? '';
      const eq = s.indexOf('=');
      env.set(eq < 0 ? s : s.slice(0, eq), eq < 0 ? undefined : s.slice(eq + 1));
    }
  } else {
    for (const [k, v] of Object.entries(obj(raw))) env.set(k, v === null ? undefined : str(v));
  }
  return env;
}

const isInfraImage = (image: string | undefined): boolean =>
  image !== undefined && INFRA_IMAGES.includes(imageName(image));

/** `host:port` items of a comma list (the *_ADDRS format). */
function addresses(value: string): { host: string; port: number }[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const i = item.lastIndexOf(':');
      return { host: i < 0 ? item : item.slice(0, i), port: i < 0 ? NaN : Number(item.slice(i + 1)) };
    });
}

// ===========================================================================
describe('deployment manifests', () => {
  describe('Dockerfile', () => {
    it('has the deps, build and runtime stages', () => {
      expect(fs.existsSync(DOCKERFILE)).toBe(true);
      const names = stages().map((s) => s.name);
      const missing = REQUIRED_STAGES.filter((s) => !names.includes(s));
      expect(missing.map((s) => `Dockerfile: no stage "FROM ... AS ${s}" (stages: ${names.join(', ')})`)).toEqual([]);
    });

    it('runs the runtime stage as a non-root user with the compiled output', () => {
      const runtime = stages().find((s) => s.name === 'runtime');
      const problems: string[] = [];
      if (!runtime) {
        problems.push('Dockerfile: no runtime stage');
      } else {
        const users = runtime.instructions.filter((l) => /^USER\s+/i.test(l)).map((l) => l.replace(/^USER\s+/i, '').trim());
        const last = users[users.length - 1];
        if (!last) problems.push('Dockerfile: the runtime stage has no USER instruction (it would run as root)');
        else if (/^(root|0)(:.*)?$/.test(last)) problems.push(`Dockerfile: the runtime stage ends as USER ${last}`);
        if (!runtime.instructions.some((l) => /^COPY\s+.*--from=build\b.*\bdist\b/i.test(l))) {
          problems.push('Dockerfile: the runtime stage does not COPY --from=build the dist/ tree');
        }
        if (!runtime.instructions.some((l) => /^(CMD|ENTRYPOINT)\s/i.test(l))) {
          problems.push('Dockerfile: the runtime stage has no CMD/ENTRYPOINT');
        }
      }
      expect(problems).toEqual([]);
    });

    it('keeps node_modules, dist and .git out of the build context', () => {
      expect(fs.existsSync(DOCKERIGNORE)).toBe(true);
      const patterns = fs
        .readFileSync(DOCKERIGNORE, 'utf8')
        .split(/\r?\n/)
        .map((l) => l.trim().replace(/^\/+|\/+$/g, ''));
      const missing = ['node_modules', 'dist', '.git'].filter((p) => !patterns.includes(p));
      expect(missing.map((p) => `.dockerignore: does not exclude ${p}`)).toEqual([]);
    });
  });

  describe('docker-compose.yml', () => {
    it('parses and defines services', () => {
      const c = compose();
      expect(c.error).toBeUndefined();
      expect(c.services.size).toBeGreaterThan(0);
    });

    it('builds every app service from the repo Dockerfile, one image, an existing target stage', () => {
      const problems: string[] = [];
      const stageNames = stages().map((s) => s.name);
      const appImages = new Set<string>();
      let apps = 0;
      for (const [name, svc] of compose().services) {
        const image = str(svc.image);
        if (svc.build === undefined) {
          if (!isInfraImage(image)) {
            problems.push(
              `compose service ${name}: image ${image ?? '(none)'} is neither built from the Dockerfile ` +
                `nor one of the infrastructure images ${INFRA_IMAGES.join(', ')}`,
            );
          }
          continue;
        }
        apps += 1;
        const build = typeof svc.build === 'string' ? { context: svc.build } : obj(svc.build);
        const context = path.resolve(ROOT, str(build.context) ?? '.');
        const dockerfile = path.resolve(context, str(build.dockerfile) ?? 'Dockerfile');
        if (dockerfile !== DOCKERFILE) problems.push(`compose service ${name}: builds ${rel(dockerfile)}, not the repo Dockerfile`);
        const target = str(build.target);
        if (!target) problems.push(`compose service ${name}: build has no target stage`);
        else if (!stageNames.includes(target.toLowerCase())) {
          problems.push(`compose service ${name}: build target "${target}" is not a Dockerfile stage (${stageNames.join(', ')})`);
        }
        if (!image) problems.push(`compose service ${name}: no image tag, so each app would build its own image`);
        else appImages.add(image);
      }
      if (apps === 0) problems.push('docker-compose.yml: no service is built from the Dockerfile');
      if (appImages.size > 1) problems.push(`docker-compose.yml: app services use several image tags: ${[...appImages].join(', ')}`);
      expect(problems).toEqual([]);
    });

    it('starts an existing app in every app service and sets only env vars the code reads', () => {
      const problems: string[] = [];
      for (const [name, svc] of compose().services) {
        if (svc.build === undefined) continue;
        const command = words(svc.command);
        const app = entryApp(command);
        if (!app) problems.push(`compose service ${name}: command ${JSON.stringify(command)} does not run dist/apps/<app>/src/main.js`);
        else if (!appExists(app)) problems.push(`compose service ${name}: command starts app "${app}" but apps/${app}/src/main.ts does not exist`);
        problems.push(...unknownEnvProblems(`compose service ${name}`, [...composeEnv(svc).keys()]));
      }
      expect(problems).toEqual([]);
    });

    it('waits for healthy dependencies and health-checks every app on /health/ready of its HTTP port', () => {
      const problems: string[] = [];
      const services = compose().services;
      for (const [name, svc] of services) {
        const dependsOn = svc.depends_on;
        const deps = Array.isArray(dependsOn) ? dependsOn.map((d) => [str(d) ?? '', {}] as const) : Object.entries(obj(dependsOn));
        for (const [dep, spec] of deps) {
          if (Array.isArray(dependsOn)) problems.push(`compose service ${name}: depends_on ${dep} without condition: service_healthy`);
          else if (str(obj(spec).condition) !== 'service_healthy') {
            problems.push(`compose service ${name}: depends_on ${dep} with condition ${str(obj(spec).condition) ?? '(none)'}, expected service_healthy`);
          }
          const target = services.get(dep);
          if (!target) problems.push(`compose service ${name}: depends_on unknown service ${dep}`);
          else if (!isObj(target.healthcheck)) problems.push(`compose service ${name}: depends_on ${dep}, which has no healthcheck`);
        }
        if (svc.build === undefined) continue;
        const test = words(obj(svc.healthcheck).test).join(' ');
        const env = composeEnv(svc);
        const port = env.get('HTTP_PORT') ?? env.get('GATEWAY_PORT');
        if (!test) problems.push(`compose service ${name}: no healthcheck`);
        else if (!test.includes('/health/ready')) problems.push(`compose service ${name}: healthcheck does not call /health/ready`);
        else if (!port) problems.push(`compose service ${name}: sets neither HTTP_PORT nor GATEWAY_PORT, so its health port is unknown`);
        else if (!new RegExp(`:${port}/health/ready`).test(test)) {
          problems.push(`compose service ${name}: healthcheck does not target its HTTP port ${port}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it("points the gateway's *_ADDRS at app services and their RPC_PORT", () => {
      const problems: string[] = [];
      const services = compose().services;
      let found = 0;
      for (const [name, svc] of services) {
        for (const [key, value] of composeEnv(svc)) {
          if (!key.endsWith('_ADDRS')) continue;
          found += 1;
          for (const { host, port } of addresses(value ?? '')) {
            const target = services.get(host);
            if (!target) {
              problems.push(`compose service ${name}: ${key} names ${host}, which is not a compose service`);
              continue;
            }
            const rpcPort = composeEnv(target).get('RPC_PORT');
            if (String(port) !== rpcPort) {
              problems.push(`compose service ${name}: ${key} uses port ${port}, but ${host} listens for RPC on ${rpcPort ?? '(RPC_PORT unset)'}`);
            }
          }
        }
      }
      if (found === 0) problems.push('docker-compose.yml: no service sets a *_ADDRS variable (the gateway needs them)');
      expect(problems).toEqual([]);
    });
  });

  describe('k8s/', () => {
    it('parses every file; every document has apiVersion, kind and metadata.name', () => {
      const model = k8s();
      expect(model.files.length).toBeGreaterThan(0);
      const patchFiles = new Set([...model.patchesOf.values()].flat());
      const problems = model.files.flatMap((f) => f.errors);
      for (const f of model.files) {
        for (const d of f.docs) {
          // A JSON6902 patch file is a list of operations, not an object.
          if (Array.isArray(d.value) && patchFiles.has(d.file)) continue;
          const where = `${rel(d.file)} (document ${d.index})`;
          if (!isObj(d.value)) {
            problems.push(`${where}: is not a mapping`);
            continue;
          }
          if (!str(d.value.apiVersion)) problems.push(`${where}: no apiVersion`);
          if (!str(d.value.kind)) problems.push(`${where}: no kind`);
          // A Kustomization is a build file, not an API object: it has no name.
          if (kindOf(d) !== 'Kustomization' && !nameOf(d)) problems.push(`${where}: no metadata.name`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('references only existing files from kustomizations, and every YAML file is used', () => {
      const model = k8s();
      const problems = [...model.referenceProblems];
      if (!fs.existsSync(BASE_KUSTOMIZATION)) problems.push(`${rel(BASE_KUSTOMIZATION)} does not exist`);
      const used = new Set([
        ...model.kustomizations.map((k) => k.file),
        ...[...model.resourcesOf.values()].flat(),
        ...[...model.patchesOf.values()].flat(),
      ]);
      for (const f of model.files) if (!used.has(f.file)) problems.push(`${rel(f.file)}: not referenced by any kustomization`);
      expect(problems).toEqual([]);
    });

    it('patches only objects that the kustomization actually includes', () => {
      const model = k8s();
      const byFile = new Map(model.files.map((f) => [f.file, f]));
      const problems: string[] = [];
      for (const k of model.kustomizations) {
        const included = (model.resourcesOf.get(k.file) ?? []).flatMap((f) => byFile.get(f)?.docs ?? []);
        const has = (kind: string | undefined, name: string | undefined): boolean =>
          included.some((d) => (!kind || kindOf(d) === kind) && (!name || nameOf(d) === name));
        for (const file of model.patchesOf.get(k.file) ?? []) {
          for (const d of byFile.get(file)?.docs ?? []) {
            if (!isObj(d.value)) continue;
            if (!has(kindOf(d), nameOf(d))) problems.push(`${rel(k.file)}: patch ${describeDoc(d)} matches no resource`);
          }
        }
        for (const p of arr(k.spec.patches).map(obj)) {
          const target = obj(p.target);
          if (Object.keys(target).length === 0) continue;
          if (!has(str(target.kind), str(target.name))) {
            problems.push(`${rel(k.file)}: patch target ${JSON.stringify(target)} matches no resource`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it('runs the image built from the Dockerfile in every Deployment and Job container', () => {
      const model = k8s();
      const base = model.kustomizations.find((k) => k.file === BASE_KUSTOMIZATION);
      const problems: string[] = [];
      const images = arr(base?.spec.images).map(obj);
      const names = new Set(images.map((i) => str(i.name)).filter((n): n is string => !!n));
      if (names.size === 0) problems.push(`${rel(BASE_KUSTOMIZATION)}: no images: entry for the app image`);
      for (const i of images) {
        if (!str(i.newTag) && !str(i.digest)) problems.push(`${rel(BASE_KUSTOMIZATION)}: image ${str(i.name)} has no newTag/digest`);
      }
      for (const k of model.kustomizations) {
        for (const i of arr(k.spec.images).map(obj)) {
          if (!names.has(str(i.name) ?? '')) problems.push(`${rel(k.file)}: images entry ${str(i.name)} is not an image of the base`);
        }
      }
      const list = workloads(model.resources);
      if (list.length === 0) problems.push('k8s/: no Deployment or Job found');
      for (const w of list) {
        if (w.containers.length === 0) problems.push(`${describeDoc(w.doc)}: no containers`);
        for (const c of w.containers) {
          const image = str(c.image);
          if (!image) problems.push(`${containerWhere(w, c)}: no image`);
          else if (!names.has(imageName(image))) {
            problems.push(`${containerWhere(w, c)}: image ${image} is not listed in ${rel(BASE_KUSTOMIZATION)} images (${[...names].join(', ')})`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it('starts an existing app: Deployments serve, Jobs migrate', () => {
      const model = k8s();
      const problems: string[] = [];
      const check = (w: Workload, c: Obj, required: boolean): void => {
        const command = [...words(c.command), ...words(c.args)];
        if (command.length === 0 && !required) return;
        const app = entryApp(command);
        if (!app) {
          problems.push(`${containerWhere(w, c)}: command ${JSON.stringify(command)} does not run dist/apps/<app>/src/main.js`);
          return;
        }
        if (!appExists(app)) problems.push(`${containerWhere(w, c)}: starts app "${app}" but apps/${app}/src/main.ts does not exist`);
        if (w.kind === 'Job' && !command.includes('migrate')) problems.push(`${containerWhere(w, c)}: a Job that does not run "migrate"`);
        if (w.kind === 'Deployment' && command.includes('migrate')) problems.push(`${containerWhere(w, c)}: a Deployment that runs "migrate"`);
      };
      for (const w of workloads(model.resources)) for (const c of w.containers) check(w, c, true);
      for (const w of workloads(model.patches)) for (const c of w.containers) check(w, c, false);
      expect(problems).toEqual([]);
    });

    it('sets only env vars the code reads (container env and referenced ConfigMap/Secret keys)', () => {
      const model = k8s();
      const all = [...model.resources, ...model.patches];
      const problems: string[] = [];
      for (const w of [...workloads(model.resources), ...workloads(model.patches)]) {
        for (const c of w.containers) {
          const names = [...containerEnv(c).keys()];
          for (const from of arr(c.envFrom).map(obj)) {
            if (str(from.prefix)) problems.push(`${containerWhere(w, c)}: envFrom prefix ${str(from.prefix)} renames the variables`);
            for (const [kind, ref] of [
              ['ConfigMap', from.configMapRef],
              ['Secret', from.secretRef],
            ] as const) {
              const refName = str(obj(ref).name);
              if (!refName) continue;
              const keys = keysOf(kind, refName, all);
              if (!keys) problems.push(`${containerWhere(w, c)}: envFrom ${kind} ${refName}, which is not defined under k8s/`);
              else names.push(...keys);
            }
          }
          problems.push(...unknownEnvProblems(containerWhere(w, c), names));
        }
      }
      // Keys of every ConfigMap/Secret (including overlay patches) become env vars too.
      for (const d of all.filter((x) => kindOf(x) === 'ConfigMap' || kindOf(x) === 'Secret')) {
        const keys = [...Object.keys(obj(obj(d.value).data)), ...Object.keys(obj(obj(d.value).stringData))];
        problems.push(...unknownEnvProblems(describeDoc(d), keys));
      }
      expect(unique(problems)).toEqual([]);
    });

    it('keeps only placeholders in the base Secret', () => {
      const model = k8s();
      const baseFiles = new Set(model.resourcesOf.get(BASE_KUSTOMIZATION) ?? []);
      const problems: string[] = [];
      for (const d of model.resources.filter((x) => kindOf(x) === 'Secret' && baseFiles.has(x.file))) {
        const spec = obj(d.value);
        if (Object.keys(obj(spec.data)).length > 0) problems.push(`${describeDoc(d)}: base64 data in the template; use stringData placeholders`);
        for (const [k, v] of Object.entries(obj(spec.stringData))) {
          if (!/REPLACE/.test(str(v) ?? '')) problems.push(`${describeDoc(d)}: ${k} is not a REPLACE_ME placeholder`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('gives every Deployment probes on a container port, resources, a non-root user and no boot migrations', () => {
      const problems: string[] = [];
      const deployments = workloads(k8s().resources).filter((w) => w.kind === 'Deployment');
      if (deployments.length === 0) problems.push('k8s/: no Deployment found');
      for (const w of deployments) {
        const selector = obj(obj(obj(w.doc.value).spec).selector).matchLabels;
        if (!selects(obj(selector), w.podLabels)) problems.push(`${describeDoc(w.doc)}: spec.selector does not match the pod template labels`);
        const podSecurity = obj(w.podSpec.securityContext);
        for (const c of arr(w.podSpec.containers).map(obj)) {
          const where = containerWhere(w, c);
          for (const [probeName, probePath] of [
            ['livenessProbe', '/health/live'],
            ['readinessProbe', '/health/ready'],
          ] as const) {
            const probe = obj(c[probeName]);
            if (Object.keys(probe).length === 0) {
              problems.push(`${where}: no ${probeName}`);
              continue;
            }
            const port = probePort(probe);
            if (port === undefined) problems.push(`${where}: ${probeName} has no port`);
            else if (!containerPortMatches(port, [c])) problems.push(`${where}: ${probeName} port ${String(port)} is not a containerPort`);
            const httpPath = str(obj(probe.httpGet).path);
            if (httpPath !== probePath) problems.push(`${where}: ${probeName} checks ${httpPath ?? '(no http path)'}, expected ${probePath}`);
          }
          const requests = obj(obj(c.resources).requests);
          if (!str(requests.cpu) || !str(requests.memory)) problems.push(`${where}: resources.requests needs cpu and memory`);
          const limits = obj(obj(c.resources).limits);
          if (!str(limits.memory)) problems.push(`${where}: resources.limits has no memory limit`);
          const security = { ...podSecurity, ...obj(c.securityContext) };
          if (security.runAsNonRoot !== true) problems.push(`${where}: securityContext.runAsNonRoot is not true`);
          // The image's USER is a name; the kubelet can only verify runAsNonRoot with a numeric uid.
          if (!(typeof security.runAsUser === 'number' && security.runAsUser > 0)) problems.push(`${where}: no numeric non-root runAsUser`);
          if (!isObj(obj(c.lifecycle).preStop)) problems.push(`${where}: no preStop hook to let endpoints drain`);
          if (containerEnv(c).get('MIGRATE_ON_BOOT') !== 'false') problems.push(`${where}: MIGRATE_ON_BOOT must be "false" (migrations run in Jobs)`);
        }
        if (!(Number(w.podSpec.terminationGracePeriodSeconds) > 0)) problems.push(`${describeDoc(w.doc)}: no terminationGracePeriodSeconds`);
      }
      expect(problems).toEqual([]);
    });

    it('routes every Service to Deployment pods and ports, never to migration Jobs', () => {
      const resources = k8s().resources;
      const all = workloads(resources);
      const deployments = all.filter((w) => w.kind === 'Deployment');
      const jobs = all.filter((w) => w.kind === 'Job');
      const problems: string[] = [];
      for (const svc of resources.filter((d) => kindOf(d) === 'Service')) {
        const spec = obj(obj(svc.value).spec);
        const selector = obj(spec.selector);
        const targets = deployments.filter((w) => selects(selector, w.podLabels));
        if (targets.length === 0) problems.push(`${describeDoc(svc)}: selector ${JSON.stringify(selector)} matches no Deployment's pods`);
        for (const j of jobs) if (selects(selector, j.podLabels)) problems.push(`${describeDoc(svc)}: selector also matches the pods of Job ${j.name}`);
        for (const p of arr(spec.ports).map(obj)) {
          const target = p.targetPort ?? p.port;
          for (const w of targets) {
            if (!containerPortMatches(target, arr(w.podSpec.containers).map(obj))) {
              problems.push(`${describeDoc(svc)}: targetPort ${String(target)} is not a containerPort of Deployment ${w.name}`);
            }
          }
          // A headless Service is not proxied: clients connect to `port` on the pod itself.
          if (spec.clusterIP === 'None') {
            for (const w of targets) {
              if (!containerPortMatches(p.port, arr(w.podSpec.containers).map(obj))) {
                problems.push(`${describeDoc(svc)}: headless port ${String(p.port)} is not a containerPort of Deployment ${w.name}`);
              }
            }
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it('gives each RPC app a headless <app>-rpc Service on its RPC_PORT', () => {
      const resources = k8s().resources;
      const services = resources.filter((d) => kindOf(d) === 'Service');
      const problems: string[] = [];
      const rpcApps = workloads(resources).filter(
        (w) => w.kind === 'Deployment' && w.containers.some((c) => containerEnv(c).has('RPC_PORT')),
      );
      if (rpcApps.length === 0) problems.push('k8s/: no Deployment sets RPC_PORT');
      for (const w of rpcApps) {
        const rpcPort = Number(w.containers.map((c) => containerEnv(c).get('RPC_PORT')).find((v) => v !== undefined));
        const svc = services.find((s) => nameOf(s) === `${w.name}-rpc`);
        if (!svc) {
          problems.push(`${describeDoc(w.doc)}: no Service ${w.name}-rpc`);
          continue;
        }
        const spec = obj(obj(svc.value).spec);
        if (spec.clusterIP !== 'None') problems.push(`${describeDoc(svc)}: is not headless (needs clusterIP: None)`);
        if (!selects(obj(spec.selector), w.podLabels)) problems.push(`${describeDoc(svc)}: does not select the pods of ${w.name}`);
        if (!arr(spec.ports).some((p) => Number(obj(p).port) === rpcPort)) problems.push(`${describeDoc(svc)}: does not expose RPC_PORT ${rpcPort}`);
      }
      expect(problems).toEqual([]);
    });

    it("points the gateway's *_ADDRS at existing headless Services and their ports", () => {
      const model = k8s();
      const services = model.resources.filter((d) => kindOf(d) === 'Service');
      const problems: string[] = [];
      const settings: { where: string; key: string; value: string }[] = [];
      for (const d of [...model.resources, ...model.patches].filter((x) => kindOf(x) === 'ConfigMap')) {
        for (const [key, value] of Object.entries(obj(obj(d.value).data))) {
          if (key.endsWith('_ADDRS')) settings.push({ where: describeDoc(d), key, value: str(value) ?? '' });
        }
      }
      for (const w of workloads(model.resources)) {
        for (const c of w.containers) {
          for (const [key, value] of containerEnv(c)) if (key.endsWith('_ADDRS')) settings.push({ where: containerWhere(w, c), key, value: value ?? '' });
        }
      }
      if (settings.length === 0) problems.push('k8s/: no *_ADDRS setting for the gateway');
      for (const { where, key, value } of settings) {
        const list = addresses(value);
        if (list.length === 0) problems.push(`${where}: ${key} is empty`);
        for (const { host, port } of list) {
          const name = host.split('.')[0];
          const svc = services.find((s) => nameOf(s) === name);
          if (!svc) {
            problems.push(`${where}: ${key} names ${host}, but there is no Service ${name}`);
            continue;
          }
          const spec = obj(obj(svc.value).spec);
          if (spec.clusterIP !== 'None') problems.push(`${where}: ${key} names ${name}, which is not headless (no per-pod balancing)`);
          if (!arr(spec.ports).some((p) => Number(obj(p).port) === port)) problems.push(`${where}: ${key} uses port ${port}, not a port of Service ${name}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('has an HPA and a PodDisruptionBudget for every Deployment', () => {
      const resources = k8s().resources;
      const deployments = workloads(resources).filter((w) => w.kind === 'Deployment');
      const hpas = resources.filter((d) => kindOf(d) === 'HorizontalPodAutoscaler');
      const pdbs = resources.filter((d) => kindOf(d) === 'PodDisruptionBudget');
      const problems: string[] = [];
      for (const hpa of hpas) {
        const ref = obj(obj(obj(hpa.value).spec).scaleTargetRef);
        if (str(ref.kind) !== 'Deployment' || !deployments.some((w) => w.name === str(ref.name))) {
          problems.push(`${describeDoc(hpa)}: scaleTargetRef ${str(ref.kind)}/${str(ref.name)} is not a Deployment here`);
        }
      }
      for (const pdb of pdbs) {
        const selector = obj(obj(obj(pdb.value).spec).selector).matchLabels;
        if (!deployments.some((w) => selects(obj(selector), w.podLabels))) problems.push(`${describeDoc(pdb)}: selects no Deployment's pods`);
      }
      for (const w of deployments) {
        if (!hpas.some((h) => str(obj(obj(obj(h.value).spec).scaleTargetRef).name) === w.name)) problems.push(`${describeDoc(w.doc)}: no HorizontalPodAutoscaler`);
        if (!pdbs.some((p) => selects(obj(obj(obj(obj(p.value).spec).selector).matchLabels), w.podLabels))) {
          problems.push(`${describeDoc(w.doc)}: no PodDisruptionBudget`);
        }
      }
      expect(problems).toEqual([]);
    });
  });
});

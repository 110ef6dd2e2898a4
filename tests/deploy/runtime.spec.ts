/**
 * The runtime everywhere is one Node.js version (.node-version): the image's base, the
 * development and CI scripts, and this very test run; docker-compose.yml runs the versions of
 * PostgreSQL, Redis and Kafka the test suite runs against.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { KUSTOMIZE, ROOT, arr, at, containers, find, obj, ofKind, render, str, type Obj } from './support/render';
import { known } from './support/known-env';

const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');
const NODE_VERSION = read('.node-version').trim();
const NODE_MAJOR = NODE_VERSION.split('.')[0];
const LTS_MAJORS = ['22', '24'];

describe('Node.js runtime', () => {
  it('is an LTS line, pinned to an exact version', () => {
    expect(NODE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(LTS_MAJORS).toContain(NODE_MAJOR);
  });

  it('is the base image of the Dockerfile: exact version, registry named in full', () => {
    const arg = /^ARG NODE_IMAGE=(\S+)$/m.exec(read('Dockerfile'))?.[1];
    expect(arg).toMatch(
      new RegExp(`^docker\\.io/library/node:${NODE_VERSION.replace(/\./g, '\\.')}-[a-z]+-slim(@sha256:[a-f0-9]{64})?$`),
    );
    const froms = [...read('Dockerfile').matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/gim)].map((m) => ({
      image: m[1],
      stage: m[2],
    }));
    expect(froms.map((f) => f.stage)).toEqual(['deps', 'build', 'runtime']);
    expect(froms.filter((f) => f.image !== 'deps').map((f) => f.image)).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
  });

  it('runs this test (scripts and CI put it first on PATH) and is what package.json engines allow', () => {
    expect(process.versions.node.split('.')[0]).toBe(NODE_MAJOR);
    const engines = str(at(JSON.parse(read('package.json')), 'engines', 'node')) ?? '';
    expect(engines).toMatch(new RegExp(`^>=${NODE_MAJOR}\\.\\d+\\.\\d+ <${Number(NODE_MAJOR) + 1}$`));
    expect(read('scripts/lib/node.sh')).toContain('.node-version');
    // Child processes of the tests run on the same binary.
    expect(read('tests/support/processes.ts')).toContain('spawn(process.execPath');
  });

  it('runs the runtime stage as the unprivileged node user (uid 1000, as manifests say), only compiled output', () => {
    const runtime = read('Dockerfile').split(/^FROM .* AS runtime$/m)[1] ?? '';
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runtime).toMatch(/npm ci --omit=dev/);
  });

  it('keeps caches, local state and dependencies out of the image build context', () => {
    const ignored = read('.dockerignore')
      .split(/\r?\n/)
      .map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', '.git', '.cache', '.local', '.env']) expect(ignored).toContain(entry);
  });
});

describe('docker-compose.yml', () => {
  const compose = obj(parse(read('docker-compose.yml'), { merge: true }));
  const services = Object.entries(obj(compose.services)).map(
    ([name, s]) => ({ name, ...obj(s) }) as Obj & { name: string },
  );
  const image = (name: string): string => str(services.find((s) => s.name === name)?.image) ?? '';
  const localImage = (name: string): string =>
    str(containers(find(render('local'), 'StatefulSet', name))[0].image) ?? '';

  it('pins every third-party image to an exact version, the same the local cluster overlay runs', () => {
    for (const name of ['postgres', 'redis', 'kafka']) {
      expect(image(name)).toMatch(/^docker\.io\/[a-z]+\/[a-z]+:\d+\.\d+(\.\d+)?$/);
      expect({ name, image: image(name) }).toEqual({ name, image: localImage(name) });
    }
  });

  it('runs the versions the tests run against', () => {
    const kafka = /^KAFKA_VERSION=(\S+)/m.exec(read('scripts/infra/kafka.sh'))?.[1];
    expect(image('kafka')).toBe(`docker.io/apache/kafka:${kafka}`);
    const versionOf = (cmd: string, args: string[], re: RegExp): string | undefined => {
      try {
        return re.exec(execFileSync(cmd, args, { encoding: 'utf8' }))?.[1];
      } catch {
        return undefined; // not installed here: scripts/infra installs the distribution's version in CI
      }
    };
    const pgBin = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort().pop() : undefined;
    const pg = pgBin
      ? versionOf(`/usr/lib/postgresql/${pgBin}/bin/postgres`, ['--version'], /\) (\d+\.\d+)/)
      : undefined;
    const redis = versionOf('redis-server', ['--version'], /v=(\d+\.\d+\.\d+)/);
    if (pg) expect(image('postgres')).toBe(`docker.io/library/postgres:${pg}`);
    else expect(image('postgres')).toMatch(/:15\.\d+$/);
    if (redis) expect(image('redis')).toBe(`docker.io/library/redis:${redis}`);
    else expect(image('redis')).toMatch(/:7\.0\.\d+$/);
  });

  it('builds every app service from the runtime stage of the Dockerfile and starts an existing app', () => {
    const apps = services.filter((s) => !['postgres', 'redis', 'kafka'].includes(s.name));
    expect(apps.map((s) => s.name).sort()).toEqual([
      'gateway',
      'split-ledger-service',
      'transaction-service',
      'webhook-dispatcher',
    ]);
    for (const s of apps) {
      expect(obj(s.build)).toMatchObject({ context: '.', dockerfile: 'Dockerfile', target: 'runtime' });
      expect(arr(s.command)).toEqual(['node', `dist/apps/${s.name}/src/main.js`]);
      expect(fs.existsSync(path.join(ROOT, 'apps', s.name, 'src', 'main.ts'))).toBe(true);
    }
  });

  it('sets only variables the code reads, listens on all interfaces and checks readiness', () => {
    for (const s of services.filter((x) => !['postgres', 'redis', 'kafka'].includes(x.name))) {
      const env = obj(s.environment);
      expect({ s: s.name, unknown: Object.keys(env).filter((k) => !known(k)) }).toEqual({ s: s.name, unknown: [] });
      expect(env.HTTP_HOST).toBe('0.0.0.0');
      if (s.name !== 'gateway') expect(env.RPC_HOST).toBe('0.0.0.0');
      expect(arr(at(s, 'healthcheck', 'test')).join(' ')).toContain('/health/ready');
      // Only transaction-service encrypts and decrypts provider credentials.
      expect({ s: s.name, key: 'PROVIDER_CREDENTIALS_KEY' in env }).toEqual({
        s: s.name,
        key: s.name === 'transaction-service',
      });
    }
  });
});

describe('deployment tooling', () => {
  it('pins the kustomize the tests render with', () => {
    const pinned = /^KUSTOMIZE_VERSION=(\S+)/m.exec(read('scripts/deploy/tools.sh'))?.[1];
    render('local'); // installs it when missing
    expect(execFileSync(KUSTOMIZE, ['version'], { encoding: 'utf8' }).trim()).toBe(pinned);
    expect(ofKind(render('production'), 'Deployment')).toHaveLength(4);
  });
});

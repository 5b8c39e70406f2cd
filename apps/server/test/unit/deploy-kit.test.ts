import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { configVariableNames, loadConfig } from '../../src/config.js';
import { MAX_FILES_PER_UPLOAD } from '../../src/features/files/file.routes.js';

/**
 * The deployment kit (deploy/, docs/deploy.md) cannot be run on the development machines (no Docker engine),
 * so it is read here instead: every variable it gives the server is one config.ts reads (and parses), every
 * command it runs exists, the health checks probe the health routes, and the proxies, stop timeouts and
 * replica counts agree with the server's settings.
 */

const root = path.resolve(import.meta.dirname, '../../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const known = new Set(configVariableNames);
const MiB = 1024 * 1024;

type Env = Record<string, string>;
type Json = any;

// ---------------------------------------------------------------- .env and Compose interpolation

function parseEnvFile(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(trimmed);
    if (!match) throw new Error(`deploy/.env.example: not a KEY=value line: ${line}`);
    entries.set(match[1]!, match[2]!.replace(/^(['"])(.*)\1$/, '$2'));
  }
  return entries;
}

const INTERPOLATION = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** Compose's `${VAR}`, `${VAR:-default}`, `${VAR:?error}`, `$VAR` and `$$`, with the variables of .env. */
function interpolate(value: string, vars: Map<string, string>, used: Set<string>, unset: Set<string>): string {
  return value.replace(INTERPOLATION, (whole, braced?: string, op?: string, arg?: string, bare?: string) => {
    if (whole === '$$') return '$';
    const name = (braced ?? bare)!;
    used.add(name);
    const current = vars.get(name);
    const isSet = current !== undefined && (current !== '' || !op?.startsWith(':'));
    if (op?.endsWith('-')) return isSet ? current! : (arg ?? '');
    if (op?.endsWith('+')) return isSet ? (arg ?? '') : '';
    if (current === undefined) unset.add(name);
    return current ?? '';
  });
}

function interpolateTree(node: Json, vars: Map<string, string>, used: Set<string>, unset: Set<string>): Json {
  if (typeof node === 'string') return interpolate(node, vars, used, unset);
  if (Array.isArray(node)) return node.map((item) => interpolateTree(item, vars, used, unset));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, interpolateTree(value, vars, used, unset)]),
    );
  }
  return node;
}

/** `environment:` as a map or as a list of KEY=value; numbers and booleans as Compose passes them. */
function environmentOf(service: Json): Env {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((item: string) => {
        const at = item.indexOf('=');
        return at < 0 ? [item, ''] : [item.slice(0, at), item.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value == null ? '' : String(value)]));
}

/** Compose durations: 40s, 1m30s, 1h, 500ms. */
function seconds(duration: string | number | undefined): number {
  if (duration === undefined) return 10; // Compose's default
  if (typeof duration === 'number') return duration;
  const match = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?$/.exec(duration.trim());
  if (!match || duration.trim() === '') throw new Error(`not a duration: ${duration}`);
  const [, h = '0', m = '0', s = '0', ms = '0'] = match;
  return Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
}

// ---------------------------------------------------------------- the kit's files

const envExample = parseEnvFile(read('deploy/.env.example'));
const composeUsed = new Set<string>();
const composeUnset = new Set<string>();
const compose: Json = interpolateTree(
  parse(read('deploy/compose.yaml'), { merge: true }),
  envExample,
  composeUsed,
  composeUnset,
);
const services: Record<string, Json> = compose.services ?? {};

/** Services running this repository's image; everything else (postgres, redis, minio, nginx) is third-party. */
const isHuafang = (service: Json) =>
  /^huafang(:|$)/.test(service.image ?? '') || String(service.build?.dockerfile ?? '').endsWith('deploy/Dockerfile');
const commandText = (command: Json): string => (Array.isArray(command) ? command.join(' ') : String(command ?? ''));
const huafangServices = Object.entries(services).filter(([, service]) => isHuafang(service));
const composeApis = huafangServices.filter(([, s]) => commandText(s.command).includes('apps/server/src/main.ts'));
const composeWorkers = huafangServices.filter(([, s]) => commandText(s.command).includes('apps/server/src/worker.ts'));

type Instruction = { keyword: string; args: string; stage: number };

/** Dockerfile instructions with continuation lines joined and comments dropped; `stage` counts FROMs. */
function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending = '';
  let stage = -1;
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (line.trimEnd().endsWith('\\')) {
      pending += `${line.trimEnd().slice(0, -1)} `;
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    if (!full) continue;
    const match = /^(\w+)\s+([\s\S]*)$/.exec(full);
    if (!match) throw new Error(`deploy/Dockerfile: cannot read: ${full}`);
    const keyword = match[1]!.toUpperCase();
    if (keyword === 'FROM') stage++;
    instructions.push({ keyword, args: match[2]!.trim(), stage });
  }
  return instructions;
}

/** An exec form (JSON array) or a shell form, as one command line. */
const dockerCommand = (args: string) => (args.startsWith('[') ? (JSON.parse(args) as string[]).join(' ') : args);

function dockerEnv(args: string): Env {
  const legacy = /^([A-Za-z_][A-Za-z0-9_]*)\s+([^=]*)$/.exec(args);
  if (legacy) return { [legacy[1]!]: legacy[2]! };
  const env: Env = {};
  for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g)) {
    env[m[1]!] = m[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return env;
}

const dockerfile = parseDockerfile(read('deploy/Dockerfile'));
const finalStage = Math.max(...dockerfile.map((i) => i.stage));
const healthchecks = dockerfile.filter((i) => i.keyword === 'HEALTHCHECK');

type K8sDoc = { file: string; doc: Json };
const k8sFiles = readdirSync(path.join(root, 'deploy/k8s'))
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const k8sDocs: K8sDoc[] = k8sFiles.flatMap((file) =>
  parseAllDocuments(read(`deploy/k8s/${file}`)).map((document) => {
    if (document.errors.length > 0) throw new Error(`deploy/k8s/${file}: ${document.errors[0]!.message}`);
    return { file, doc: document.toJS() };
  }),
);
const ofKind = (kind: string) => k8sDocs.filter(({ doc }) => doc?.kind === kind);
const configMaps = new Map(ofKind('ConfigMap').map(({ doc }) => [doc.metadata.name as string, doc]));
const secrets = new Map(ofKind('Secret').map(({ doc }) => [doc.metadata.name as string, doc]));
const secretData = (secret: Json): Env => ({
  ...Object.fromEntries(
    Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(String(v), 'base64').toString()]),
  ),
  ...(secret.stringData ?? {}),
});
const deployments = ofKind('Deployment');
const containersOf = (deployment: Json): Json[] => deployment.spec.template.spec.containers ?? [];
const k8sApi = deployments.find(({ doc }) =>
  containersOf(doc).some((c) => commandText([...(c.command ?? []), ...(c.args ?? [])]).includes('main.ts')),
);
const k8sWorker = deployments.find(({ doc }) =>
  containersOf(doc).some((c) => commandText([...(c.command ?? []), ...(c.args ?? [])]).includes('worker.ts')),
);

/** What a container's process sees: envFrom first, then env (which wins), as Kubernetes does. */
function containerEnv(container: Json, where: string, problems: string[]): Env {
  const env: Env = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const map = configMaps.get(from.configMapRef.name);
      if (!map) problems.push(`${where}: envFrom ConfigMap ${from.configMapRef.name} is not in deploy/k8s`);
      Object.assign(env, map?.data ?? {});
    }
    if (from.secretRef) {
      const secret = secrets.get(from.secretRef.name);
      if (!secret) problems.push(`${where}: envFrom Secret ${from.secretRef.name} is not in deploy/k8s`);
      Object.assign(env, secret ? secretData(secret) : {});
    }
  }
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.configMapKeyRef ?? variable.valueFrom?.secretKeyRef;
    if (ref) {
      const source = variable.valueFrom.configMapKeyRef
        ? configMaps.get(ref.name)?.data
        : secrets.has(ref.name)
          ? secretData(secrets.get(ref.name))
          : undefined;
      if (source?.[ref.key] === undefined)
        problems.push(`${where}: ${variable.name} refers to missing ${ref.name}/${ref.key}`);
      env[variable.name] = source?.[ref.key] ?? '';
    } else {
      env[variable.name] = variable.value == null ? '' : String(variable.value);
    }
  }
  return env;
}

/** Every container of every Deployment, with the variables it is given. */
const k8sContainers = deployments.flatMap(({ file, doc }) =>
  containersOf(doc).map((container) => {
    const where = `k8s/${file} ${doc.metadata.name}/${container.name}`;
    const problems: string[] = [];
    return { where, deployment: doc, container, env: containerEnv(container, where, problems), problems };
  }),
);

/** The server's configuration from the variables a process is given, or the error config.ts raises. */
function configOf(env: Env) {
  return loadConfig({ ...env });
}

// ---------------------------------------------------------------- commands

const packageScripts = (dir: string): Record<string, string> =>
  JSON.parse(read(path.join(dir, 'package.json'))).scripts ?? {};

/**
 * `npm start`, `npm test`, `npm run X` (with `-w <workspace>`) and `tsx [watch] <file>` in a command line:
 * the problems, one line each. Paths are relative to the repository root, the image's WORKDIR.
 */
function commandProblems(where: string, line: string): string[] {
  const problems: string[] = [];
  for (const segment of line.split(/&&|\|\||[;|\n]/)) {
    const tokens = segment
      .replace(/\s#.*$/, '')
      .trim()
      .split(/\s+/)
      .map((t) => t.replace(/^['"]|['"]$/g, ''))
      .filter(Boolean);
    tokens.forEach((token, i) => {
      if (token === 'npm' || token.endsWith('/npm')) {
        const verb = tokens[i + 1];
        let script: string | undefined;
        if (verb === 'start' || verb === 'test') script = verb;
        if (verb === 'run' || verb === 'run-script') script = tokens.slice(i + 2).find((t) => !t.startsWith('-'));
        // `npm run …` in prose names no script.
        if (script === undefined || !/^[\w:.-]+$/.test(script)) return;
        const flag = tokens.findIndex((t, j) => j > i && (t === '-w' || t === '--workspace'));
        const inline = tokens.find((t) => t.startsWith('--workspace='));
        const workspace = flag >= 0 ? tokens[flag + 1] : inline?.slice('--workspace='.length);
        const dir = workspace ?? '.';
        if (!existsSync(path.join(root, dir, 'package.json'))) {
          problems.push(`${where}: \`${segment.trim()}\` — no package.json in ${dir}`);
        } else if (!(script in packageScripts(dir))) {
          problems.push(`${where}: \`${segment.trim()}\` — no script "${script}" in ${path.join(dir, 'package.json')}`);
        }
      }
      if (token === 'tsx' || token.endsWith('/.bin/tsx')) {
        const file = tokens.slice(i + 1).find((t) => /\.(c|m)?[jt]sx?$/.test(t));
        if (!file) return;
        if (!existsSync(path.join(root, file))) problems.push(`${where}: \`${segment.trim()}\` — no file ${file}`);
      }
    });
  }
  return problems;
}

/** Shell code blocks of a Markdown document, and its inline code that runs npm or tsx. */
const shellBlocks = (markdown: string) => [
  ...[...markdown.matchAll(/```(?:bash|sh|shell|console)\n([\s\S]*?)```/g)].map((m) => m[1]!),
  ...[...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/`((?:npm|tsx) [^`]+)`/g)].map((m) => m[1]!),
];

/** An exec probe or a Compose healthcheck test as one command line. */
function healthTest(test: Json): string {
  if (typeof test === 'string') return test;
  const [kind, ...rest] = test as string[];
  return kind === 'CMD' || kind === 'CMD-SHELL' ? rest.join(' ') : [kind, ...rest].join(' ');
}

/** The health paths a check requests, like /api/health in a fetch() or a curl command. */
const probedPaths = (line: string) => [...line.matchAll(/(?:\/[\w-]+)*\/health\b/g)].map((m) => m[0]);

// ---------------------------------------------------------------- the checks

describe('deployment kit (deploy/): variables', () => {
  it('config.ts names its variables (the list the kit is checked against)', () => {
    expect(configVariableNames).toContain('DATABASE_URL');
    expect(configVariableNames).toContain('REDIS_URL');
    expect(configVariableNames).toContain('WORKER_HEALTH_PORT');
  });

  it('compose.yaml gives the huafang services only variables of config.ts, and they parse', () => {
    expect(huafangServices.length, 'services built from deploy/Dockerfile').toBeGreaterThan(0);
    const unknown: string[] = [];
    const invalid: string[] = [];
    for (const [name, service] of huafangServices) {
      const env = environmentOf(service);
      for (const key of Object.keys(env)) if (!known.has(key)) unknown.push(`compose.yaml ${name}: ${key}`);
      if (service.env_file) unknown.push(`compose.yaml ${name}: env_file gives it unchecked variables`);
      try {
        configOf(env);
      } catch (err) {
        invalid.push(`compose.yaml ${name}: ${(err as Error).message}`);
      }
    }
    expect(unknown, 'variables config.ts does not read').toEqual([]);
    expect(invalid, 'rejected by loadConfig (with the values of .env.example)').toEqual([]);
  });

  it('.env.example holds exactly what compose.yaml interpolates, with placeholders for secrets', () => {
    const unused = [...envExample.keys()].filter((key) => !composeUsed.has(key));
    expect(unused, '.env.example entries compose.yaml never uses (.env reaches no container by itself)').toEqual([]);
    expect([...composeUnset], 'compose.yaml needs these without a default, but .env.example lacks them').toEqual([]);
    const realLooking = [...envExample].filter(
      ([key, value]) => /PASSWORD|SECRET/.test(key) && value !== '' && !value.includes('CHANGE_ME'),
    );
    expect(realLooking, 'secrets in .env.example must be empty or CHANGE_ME placeholders').toEqual([]);
  });

  it('the Dockerfile sets only variables of config.ts (and PATH)', () => {
    const unknown = dockerfile
      .filter((i) => i.keyword === 'ENV')
      .flatMap((i) => Object.keys(dockerEnv(i.args)))
      .filter((key) => key !== 'PATH' && !known.has(key));
    expect(unknown, 'ENV variables config.ts does not read').toEqual([]);
  });

  it('the Kubernetes containers get only variables of config.ts, and they parse', () => {
    expect(k8sContainers.length).toBeGreaterThan(0);
    const unknown: string[] = [];
    const invalid: string[] = [];
    for (const { where, env, problems } of k8sContainers) {
      unknown.push(...problems);
      for (const key of Object.keys(env)) if (!known.has(key)) unknown.push(`${where}: ${key}`);
      try {
        configOf(env);
      } catch (err) {
        invalid.push(`${where}: ${(err as Error).message}`);
      }
    }
    for (const [name, map] of configMaps) {
      for (const key of Object.keys(map.data ?? {})) if (!known.has(key)) unknown.push(`ConfigMap ${name}: ${key}`);
    }
    for (const [name, secret] of secrets) {
      for (const key of Object.keys(secretData(secret))) if (!known.has(key)) unknown.push(`Secret ${name}: ${key}`);
      const real = Object.entries(secretData(secret)).filter(([, value]) => !value.includes('CHANGE_ME'));
      expect(
        real.map(([key]) => key),
        `Secret ${name}: placeholders only`,
      ).toEqual([]);
    }
    expect(unknown, 'variables config.ts does not read').toEqual([]);
    expect(invalid, 'rejected by loadConfig').toEqual([]);
  });

  it('docs/deploy.md describes every variable of config.ts', () => {
    const doc = read('docs/deploy.md');
    const missing = configVariableNames.filter((name) => !doc.includes(`\`${name}\``));
    expect(missing, 'variables docs/deploy.md does not mention').toEqual([]);
  });
});

describe('deployment kit (deploy/): commands', () => {
  it('every npm script, tsx entry and file the kit runs exists', () => {
    const problems: string[] = [];
    for (const i of dockerfile) {
      if (['RUN', 'CMD', 'ENTRYPOINT'].includes(i.keyword)) {
        problems.push(...commandProblems(`Dockerfile ${i.keyword}`, dockerCommand(i.args)));
      }
    }
    for (const [name, service] of Object.entries(services)) {
      for (const key of ['command', 'entrypoint'] as const) {
        if (service[key]) problems.push(...commandProblems(`compose.yaml ${name} ${key}`, commandText(service[key])));
      }
      if (service.healthcheck?.test) {
        problems.push(...commandProblems(`compose.yaml ${name} healthcheck`, healthTest(service.healthcheck.test)));
      }
      for (const volume of service.volumes ?? []) {
        const source = String(volume).split(':')[0]!;
        if (source.startsWith('.') && !existsSync(path.join(root, 'deploy', source))) {
          problems.push(`compose.yaml ${name}: mounts ${source}, which deploy/ does not have`);
        }
      }
    }
    for (const { where, container } of k8sContainers) {
      problems.push(...commandProblems(where, commandText([...(container.command ?? []), ...(container.args ?? [])])));
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
        const exec = container[probe]?.exec?.command;
        if (exec) problems.push(...commandProblems(`${where} ${probe}`, commandText(exec)));
      }
    }
    for (const code of shellBlocks(read('docs/deploy.md'))) problems.push(...commandProblems('docs/deploy.md', code));
    expect([...new Set(problems)], 'commands that would fail: missing npm scripts or files').toEqual([]);
  });

  it('the kustomization lists every manifest of deploy/k8s', () => {
    const kustomization = ofKind('Kustomization')[0]?.doc;
    expect(kustomization, 'deploy/k8s/kustomization.yaml').toBeDefined();
    const listed = new Set<string>(kustomization.resources);
    const manifests = k8sFiles.filter((f) => !/^kustomization\.ya?ml$/.test(f));
    expect(
      manifests.filter((f) => !listed.has(f)),
      'manifests not listed',
    ).toEqual([]);
    expect(
      [...listed].filter((f) => !manifests.includes(f)),
      'listed but missing',
    ).toEqual([]);
  });
});

describe('deployment kit (deploy/): health, stopping, proxies, shape', () => {
  it('the image checks the API on /api/health; Compose and Kubernetes probe /api/health and the worker /health', () => {
    expect(healthchecks.length, 'one HEALTHCHECK in the Dockerfile').toBe(1);
    expect(healthchecks[0]!.stage, 'HEALTHCHECK of the runtime stage').toBe(finalStage);
    expect(probedPaths(healthchecks[0]!.args), 'HEALTHCHECK path').toEqual(['/api/health']);

    for (const [name, service] of composeApis) {
      if (service.healthcheck?.test)
        expect(probedPaths(healthTest(service.healthcheck.test)), name).toEqual(['/api/health']);
      else expect(service.healthcheck?.disable, `${name} keeps the image's HEALTHCHECK`).not.toBe(true);
    }
    for (const [name, service] of composeWorkers) {
      const port = environmentOf(service).WORKER_HEALTH_PORT;
      expect(port, `${name}: WORKER_HEALTH_PORT`).toBeDefined();
      const test = healthTest(service.healthcheck?.test ?? []);
      expect(probedPaths(test), `${name} healthcheck`).toEqual(['/health']);
      expect(test, `${name} healthcheck port`).toContain(`:${port}/health`);
    }

    const apiContainer = containersOf(k8sApi?.doc ?? { spec: { template: { spec: {} } } })[0];
    expect(apiContainer, 'a Deployment running apps/server/src/main.ts').toBeDefined();
    for (const probe of ['readinessProbe', 'livenessProbe'] as const) {
      expect(apiContainer[probe]?.httpGet?.path, `API ${probe} path`).toBe('/api/health');
    }
    if (apiContainer.startupProbe) expect(apiContainer.startupProbe.httpGet?.path).toBe('/api/health');

    const workerEntry = k8sContainers.find(({ deployment }) => deployment === k8sWorker?.doc);
    expect(workerEntry, 'a Deployment running apps/server/src/worker.ts').toBeDefined();
    const { container: worker, env } = workerEntry!;
    const healthPort = env.WORKER_HEALTH_PORT;
    expect(healthPort, 'worker: WORKER_HEALTH_PORT').toBeDefined();
    for (const probe of ['readinessProbe', 'livenessProbe'] as const) {
      const get = worker[probe]?.httpGet;
      if (!get) continue;
      expect(get.path, `worker ${probe} path`).toBe('/health');
      const port =
        typeof get.port === 'number' ? get.port : worker.ports?.find((p: Json) => p.name === get.port)?.containerPort;
      expect(String(port), `worker ${probe} port`).toBe(healthPort);
    }
  });

  it('stop timeouts outlast SHUTDOWN_GRACE_SECONDS', () => {
    const short: string[] = [];
    for (const [name, service] of huafangServices) {
      const grace = configOf(environmentOf(service)).shutdownGraceMs / 1000;
      const stop = seconds(service.stop_grace_period);
      if (stop <= grace)
        short.push(`compose.yaml ${name}: stop_grace_period ${stop}s <= SHUTDOWN_GRACE_SECONDS ${grace}`);
    }
    for (const { where, deployment, env } of k8sContainers) {
      const grace = configOf(env).shutdownGraceMs / 1000;
      const stop = deployment.spec.template.spec.terminationGracePeriodSeconds ?? 30;
      if (stop <= grace)
        short.push(`${where}: terminationGracePeriodSeconds ${stop} <= SHUTDOWN_GRACE_SECONDS ${grace}`);
    }
    expect(short).toEqual([]);
  });

  it('nginx and the Ingress pass uploads as large as the API accepts, and the API trusts the proxy', () => {
    const sizeOf = (text: string) => {
      const m = /^(\d+)([kKmMgG]?)$/.exec(text.trim());
      if (!m) throw new Error(`not a size: ${text}`);
      const unit = { '': 1, k: 1024, m: MiB, g: 1024 * MiB }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
      return Number(m[1]) * unit;
    };
    /** The API answers an oversized file with its own 413; the proxy must let the largest request through. */
    const checkLimit = (where: string, limit: number, uploadMaxBytes: number) => {
      const needed = MAX_FILES_PER_UPLOAD * uploadMaxBytes + MiB;
      expect(limit, `${where}: at least ${MAX_FILES_PER_UPLOAD} files x UPLOAD_MAX_MB + 1 MB`).toBeGreaterThanOrEqual(
        needed,
      );
      expect(limit, `${where}: not far above what the API accepts`).toBeLessThanOrEqual(2 * needed);
    };

    const nginx = read('deploy/nginx.conf').replace(/#.*$/gm, '');
    const bodySize = /client_max_body_size\s+([^;]+);/.exec(nginx)?.[1];
    expect(bodySize, 'nginx.conf client_max_body_size').toBeDefined();
    expect(composeApis.length).toBeGreaterThan(0);
    for (const [name, service] of composeApis) {
      const config = configOf(environmentOf(service));
      checkLimit(`nginx.conf for ${name}`, sizeOf(bodySize!), config.uploadMaxBytes);
      expect(config.trustProxy, `${name}: TRUST_PROXY=true behind nginx`).toBe(true);
    }
    const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(nginx);
    expect(upstream, 'nginx.conf upstream').not.toBeNull();
    const servers = [...upstream![2]!.matchAll(/server\s+([^\s;]+)/g)].map((m) => m[1]!).sort();
    const apis = composeApis.map(([name, service]) => `${name}:${configOf(environmentOf(service)).port}`).sort();
    expect(servers, 'nginx upstream = the API services of compose.yaml').toEqual(apis);
    expect(nginx, 'nginx proxies to the upstream').toMatch(new RegExp(`proxy_pass\\s+http://${upstream![1]}\\s*;`));
    // The API takes the left-most X-Forwarded-For entry: nginx must replace the client's header, not append to it.
    expect(nginx).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$remote_addr\s*;/);
    expect(nginx).not.toMatch(/\$proxy_add_x_forwarded_for/);
    expect(nginx).toMatch(/proxy_set_header\s+X-Forwarded-Proto\s+\$scheme\s*;/);
    expect(nginx).toMatch(/proxy_set_header\s+Host\s+\$host\s*;/);

    const ingresses = ofKind('Ingress');
    expect(ingresses.length, 'an Ingress').toBe(1);
    const annotation = ingresses[0]!.doc.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
    expect(annotation, 'Ingress proxy-body-size annotation').toBeDefined();
    const apiEnv = k8sContainers.find(({ deployment }) => deployment === k8sApi?.doc)!.env;
    checkLimit('Ingress proxy-body-size', sizeOf(String(annotation)), configOf(apiEnv).uploadMaxBytes);
    expect(configOf(apiEnv).trustProxy, 'k8s API: TRUST_PROXY=true behind the Ingress').toBe(true);

    const service = ofKind('Service').find(({ doc }) =>
      Object.entries(doc.spec.selector ?? {}).every(([k, v]) => k8sApi?.doc.spec.template.metadata.labels[k] === v),
    );
    expect(service, 'a Service selecting the API pods').toBeDefined();
    const backend = ingresses[0]!.doc.spec.rules[0].http.paths[0].backend.service;
    expect(backend.name, 'the Ingress routes to the API Service').toBe(service!.doc.metadata.name);
  });

  it('Compose: PostgreSQL 15, Redis 7 with AOF, MinIO and its bucket, 2 API processes, 2 workers', () => {
    const images = Object.values(services).map((s) => String(s.image ?? ''));
    expect(
      images.some((i) => /^postgres:15(\b|$)/.test(i)),
      'postgres:15',
    ).toBe(true);
    const redis = Object.values(services).find((s) => /^redis:7/.test(s.image ?? ''));
    expect(redis, 'redis:7').toBeDefined();
    expect(commandText(redis.command), 'Redis persists with AOF').toMatch(/--appendonly yes/);
    expect(
      images.some((i) => i.startsWith('minio/minio')),
      'MinIO',
    ).toBe(true);
    const init = Object.values(services).find((s) => String(s.image ?? '').startsWith('minio/mc'));
    expect(init, 'a one-shot minio/mc bucket creation').toBeDefined();
    expect(composeApis.map(([n]) => n)).toHaveLength(2);
    expect(composeWorkers.map(([n]) => n)).toHaveLength(2);
    for (const [name, service] of huafangServices) {
      const config = configOf(environmentOf(service));
      expect(config.database.kind, `${name}: PostgreSQL`).toBe('postgres');
      expect(config.redisUrl, `${name}: REDIS_URL`).toBeDefined();
      expect(config.storage.kind, `${name}: STORAGE=s3`).toBe('s3');
    }
  });

  it('Kubernetes: 2 API replicas and 2 worker replicas', () => {
    expect(k8sApi?.doc.spec.replicas, 'API replicas').toBe(2);
    expect(k8sWorker?.doc.spec.replicas, 'worker replicas').toBe(2);
  });

  it('the image: multi-stage, Node 20 bookworm-slim with CJK fonts, non-root, a web build', () => {
    const froms = dockerfile.filter((i) => i.keyword === 'FROM');
    expect(froms.length, 'build and runtime stages').toBeGreaterThanOrEqual(2);
    expect(froms.at(-1)!.args).toMatch(/^node:20-bookworm-slim\b/);
    const runtime = dockerfile.filter((i) => i.stage === finalStage);
    expect(
      runtime.some((i) => i.keyword === 'RUN' && i.args.includes('fonts-noto-cjk')),
      'fonts-noto-cjk',
    ).toBe(true);
    const user = runtime.filter((i) => i.keyword === 'USER').at(-1)?.args;
    expect(user, 'USER of the runtime stage').toBeDefined();
    expect(user!.split(':')[0], 'non-root').not.toMatch(/^(0|root)$/);
    const build = dockerfile.filter((i) => i.stage < finalStage && i.keyword === 'RUN').map((i) => i.args);
    expect(
      build.some((cmd) => /\bnpm run build\b/.test(cmd)),
      'the build stage runs npm run build',
    ).toBe(true);
    // What the server reads at run time: its sources, the contracts, the Photoshop plugin, the built web app.
    const copied = runtime.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    for (const needed of ['apps/server', 'packages/contracts', 'apps/ps-plugin', 'apps/web/dist', 'node_modules']) {
      expect(
        copied.some((args) => args.includes(`/app/${needed} `)),
        `runtime stage copies ${needed}`,
      ).toBe(true);
    }
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(ignored, '.dockerignore keeps node_modules out').toContain('**/node_modules');
    const sources = [
      'package-lock.json',
      'apps/server/src',
      'apps/web/src',
      'apps/ps-plugin',
      'packages/contracts/src',
    ];
    const dropped = sources.filter((s) => ignored.some((p) => s === p || s.startsWith(`${p}/`)));
    expect(dropped, '.dockerignore must keep what the build needs').toEqual([]);
  });

  it('what the server imports at run time is a production dependency (the image prunes the rest)', () => {
    // Resolved only when running from TypeScript sources (tests, dev): the compiled build starts its .js entry.
    const SOURCES_ONLY: Record<string, string[]> = { 'apps/server/src/engines/threaded-engine.ts': ['tsx'] };
    const manifests = ['package.json', 'apps/server/package.json', 'packages/contracts/package.json'];
    const production = new Set(manifests.flatMap((m) => Object.keys(JSON.parse(read(m)).dependencies ?? {})));
    const files = ['apps/server/src', 'packages/contracts/src'].flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f))
        .map((f) => path.join(dir, f)),
    );
    const missing = new Set<string>();
    for (const file of files) {
      const source = read(file);
      const specifiers = [
        ...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm),
        ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
        ...source.matchAll(/import\.meta\.resolve\(\s*['"]([^'"]+)['"]\s*\)/g),
      ].map((m) => m[1]!);
      for (const specifier of specifiers) {
        if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (!production.has(name) && !SOURCES_ONLY[file]?.includes(name)) missing.add(`${file}: ${name}`);
      }
    }
    expect([...missing], 'imports of packages that are not production dependencies').toEqual([]);
  });
});

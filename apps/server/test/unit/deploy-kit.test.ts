import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { configVariableNames, loadConfig } from '../../src/config.js';
import { MAX_FILES_PER_UPLOAD } from '../../src/features/files/file.routes.js';

/**
 * The deployment kit (deploy/, docs/deploy.md), read: every variable it gives the server is one config.ts reads
 * (and parses, once the placeholders are filled in), every command it runs exists, the health checks probe the
 * health routes, every image name takes the registry prefix, and the proxies, stop timeouts and replica counts
 * agree with the server's settings. deploy/test/stack.deploy.test.ts builds and runs the Compose stack.
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
/** compose.yaml before interpolation: where the image names take their prefix. */
const rawServices: Record<string, Json> = parse(read('deploy/compose.yaml'), { merge: true }).services ?? {};

/** Services running this repository's image; everything else (postgres, redis, minio, nginx) is third-party. */
const isHuafang = (service: Json) =>
  /^huafang(:|$)/.test(service.image ?? '') || String(service.build?.dockerfile ?? '').endsWith('deploy/Dockerfile');
const commandText = (command: Json): string => (Array.isArray(command) ? command.join(' ') : String(command ?? ''));
const huafangServices = Object.entries(services).filter(([, service]) => isHuafang(service));
/** `node … apps/server/dist/<entry>.js`: the compiled entry a process runs. */
const runsEntry = (command: Json, entry: string) =>
  new RegExp(`^node( --[\\w-]+)* apps/server/dist/${entry}\\.js$`).test(commandText(command));
const composeApis = huafangServices.filter(([, s]) => runsEntry(s.command, 'main'));
const composeWorkers = huafangServices.filter(([, s]) => runsEntry(s.command, 'worker'));

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
/** Every container of a pod template, the init containers too (the API's runs the migrations). */
const containersOf = (workload: Json): Json[] => [
  ...(workload.spec.template.spec.initContainers ?? []),
  ...(workload.spec.template.spec.containers ?? []),
];
const commandOf = (c: Json) => [...(c.command ?? []), ...(c.args ?? [])];
const k8sApi = deployments.find(({ doc }) =>
  (doc.spec.template.spec.containers ?? []).some((c: Json) => runsEntry(commandOf(c), 'main')),
);
const k8sWorker = deployments.find(({ doc }) =>
  (doc.spec.template.spec.containers ?? []).some((c: Json) => runsEntry(commandOf(c), 'worker')),
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

/** Every container of every Deployment and Job, with the variables it is given. */
const k8sContainers = [...deployments, ...ofKind('Job')].flatMap(({ file, doc }) =>
  containersOf(doc).map((container) => {
    const where = `k8s/${file} ${doc.metadata.name}/${container.name}`;
    const problems: string[] = [];
    return { where, deployment: doc, container, env: containerEnv(container, where, problems), problems };
  }),
);

/** A value an operator fills in for each CHANGE_ME placeholder: 32 letters and digits, as `openssl rand -hex 16` gives. */
const filledIn = (value: string) => value.replace(/CHANGE_ME\w*/g, 'f1ed7a9c0b3e5d2486a1c9e0b7d3f5a2');

/**
 * The server's configuration from the variables a process is given once the operator replaced the placeholders
 * (production refuses CHANGE_ME values), or the error config.ts raises.
 */
function configOf(env: Env) {
  return loadConfig(Object.fromEntries(Object.entries(env).map(([key, value]) => [key, filledIn(value)])));
}

// ---------------------------------------------------------------- commands

const packageScripts = (dir: string): Record<string, string> =>
  JSON.parse(read(path.join(dir, 'package.json'))).scripts ?? {};

/** The compiled entries `npm run build:server` writes to apps/server/dist: name → source file. */
const builtEntries = new Map(
  [...read('apps/server/scripts/build.ts').matchAll(/^\s*'?([\w/-]+)'?: '(src\/[\w/-]+\.ts)',$/gm)].map((m) => [
    m[1]!,
    m[2]!,
  ]),
);

/**
 * `npm start`, `npm test`, `npm run X` (with `-w <workspace>`), `tsx [watch] <file>` and `node … apps/server/dist/X.js`
 * in a command line: the problems, one line each. Paths are relative to the repository root, the image's WORKDIR.
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
      if (token === 'node') {
        const file = tokens.slice(i + 1).find((t) => !t.startsWith('-'));
        const entry = file && /^apps\/server\/dist\/([\w/-]+)\.js$/.exec(file)?.[1];
        if (!file || /^-/.test(file) || file.includes('(')) return;
        if (entry) {
          const source = builtEntries.get(entry);
          if (!source || !existsSync(path.join(root, 'apps/server', source))) {
            problems.push(`${where}: \`${segment.trim()}\` — npm run build:server writes no ${file}`);
          }
        } else if (/\.[cm]?js$/.test(file) && !existsSync(path.join(root, file))) {
          problems.push(`${where}: \`${segment.trim()}\` — no file ${file}`);
        }
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
    // COMPOSE_PROJECT_NAME is Compose's own setting.
    const unused = [...envExample.keys()].filter((key) => !composeUsed.has(key) && key !== 'COMPOSE_PROJECT_NAME');
    expect(unused, '.env.example entries compose.yaml never uses (.env reaches no container by itself)').toEqual([]);
    expect([...composeUnset], 'compose.yaml needs these without a default, but .env.example lacks them').toEqual([]);
    const realLooking = [...envExample].filter(
      ([key, value]) => /PASSWORD|SECRET/.test(key) && value !== '' && !value.startsWith('CHANGE_ME'),
    );
    expect(realLooking, 'secrets in .env.example must be empty or placeholders starting with CHANGE_ME').toEqual([]);
  });

  it("the image's runtime stage sets only variables of config.ts (and PATH)", () => {
    const unknown = dockerfile
      .filter((i) => i.keyword === 'ENV' && i.stage === finalStage)
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
      const real = Object.entries(secretData(secret)).filter(
        ([, value]) => value !== '' && !value.includes('CHANGE_ME'),
      );
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

    const apiContainer = (k8sApi?.doc.spec.template.spec.containers ?? []).find((c: Json) =>
      runsEntry(commandOf(c), 'main'),
    );
    expect(apiContainer, 'a Deployment running apps/server/dist/main.js').toBeDefined();
    for (const probe of ['readinessProbe', 'livenessProbe'] as const) {
      expect(apiContainer[probe]?.httpGet?.path, `API ${probe} path`).toBe('/api/health');
    }
    if (apiContainer.startupProbe) expect(apiContainer.startupProbe.httpGet?.path).toBe('/api/health');

    const workerEntry = k8sContainers.find(
      ({ deployment, container }) => deployment === k8sWorker?.doc && runsEntry(commandOf(container), 'worker'),
    );
    expect(workerEntry, 'a Deployment running apps/server/dist/worker.js').toBeDefined();
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
    // nginx resolves the alias every API service answers to at run time (Docker's DNS), so recreated containers
    // are followed: proxy_pass names it through a variable.
    const target = /set\s+\$(\w+)\s+([\w.-]+):(\d+)\s*;/.exec(nginx);
    expect(target, 'nginx.conf: set $<var> <alias>:<port>').not.toBeNull();
    expect(nginx, 'nginx proxies to that address').toMatch(new RegExp(`proxy_pass\\s+http://\\$${target![1]}\\s*;`));
    expect(nginx, "Docker's DNS").toMatch(/resolver\s+127\.0\.0\.11\b/);
    for (const [name, service] of composeApis) {
      expect(service.networks?.default?.aliases, `${name} answers to ${target![2]}`).toContain(target![2]);
      expect(String(configOf(environmentOf(service)).port), `${name}: port`).toBe(target![3]);
    }
    const aliased = Object.entries(services).filter(([, service]) =>
      (service.networks?.default?.aliases ?? []).includes(target![2]),
    );
    expect(aliased.map(([name]) => name).sort(), `only API services answer to ${target![2]}`).toEqual(
      composeApis.map(([name]) => name).sort(),
    );
    // The API takes the left-most X-Forwarded-For entry: nginx must replace the client's header, not append to it.
    expect(nginx).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$remote_addr\s*;/);
    expect(nginx).not.toMatch(/\$proxy_add_x_forwarded_for/);
    expect(nginx).toMatch(/proxy_set_header\s+X-Forwarded-Proto\s+\$scheme\s*;/);
    expect(nginx).toMatch(/proxy_set_header\s+Host\s+\$host\s*;/);

    // A plain Ingress any controller reads (ingress-nginx, whose annotations the kit once used, is retired); the body
    // limit is the controller's setting, documented in ingress.yaml next to UPLOAD_MAX_MB.
    const ingresses = ofKind('Ingress');
    expect(ingresses.length, 'an Ingress').toBe(1);
    expect(ingresses[0]!.doc.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingresses[0]!.doc.metadata.annotations ?? {}, 'no controller-specific annotations').toEqual({});
    const limitNote = /(\d+) MB: UPLOAD_MAX_MB \((\d+)\)/.exec(read('deploy/k8s/ingress.yaml'));
    expect(limitNote, 'ingress.yaml states the body limit the controller needs').not.toBeNull();
    const apiEnv = k8sContainers.find(
      ({ deployment, container }) => deployment === k8sApi?.doc && container.name === 'api',
    )!.env;
    expect(limitNote![2], "the UPLOAD_MAX_MB of ingress.yaml is the configmap's").toBe(apiEnv.UPLOAD_MAX_MB);
    checkLimit('ingress.yaml body limit', Number(limitNote![1]) * MiB, configOf(apiEnv).uploadMaxBytes);
    expect(configOf(apiEnv).trustProxy, 'k8s API: TRUST_PROXY=true behind the Ingress').toBe(true);

    const service = ofKind('Service').find(({ doc }) =>
      Object.entries(doc.spec.selector ?? {}).every(([k, v]) => k8sApi?.doc.spec.template.metadata.labels[k] === v),
    );
    expect(service, 'a Service selecting the API pods').toBeDefined();
    const backend = ingresses[0]!.doc.spec.rules[0].http.paths[0].backend.service;
    expect(backend.name, 'the Ingress routes to the API Service').toBe(service!.doc.metadata.name);
    const route = parse(read('deploy/k8s-gateway/httproute.yaml'));
    expect(route).toMatchObject({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute' });
    expect(route.spec.rules[0].backendRefs[0].name, 'the HTTPRoute routes to the API Service').toBe(
      service!.doc.metadata.name,
    );
    expect(parse(read('deploy/k8s-gateway/kustomization.yaml')).resources).toEqual(['../k8s', 'httproute.yaml']);
  });

  it('Compose: PostgreSQL 15, Redis 7 (AOF, noeviction, password, non-root), a one-shot migration, 2 API processes, 2 workers, files on one volume', () => {
    const images = Object.values(services).map((s) => String(s.image ?? ''));
    expect(
      images.some((i) => /^postgres:15(\b|$)/.test(i)),
      'postgres:15',
    ).toBe(true);
    const redis = Object.values(services).find((s) => /^redis:7/.test(s.image ?? ''));
    expect(redis, 'redis:7').toBeDefined();
    const redisCommand = commandText(redis.command);
    expect(redisCommand, 'Redis persists with AOF').toMatch(/--appendonly yes/);
    expect(redisCommand, 'BullMQ needs noeviction').toMatch(/--maxmemory-policy noeviction/);
    expect(redisCommand, 'a password').toMatch(/--requirepass \S+/);
    expect(String(redis.user ?? '').split(':')[0], 'Redis runs as a non-root user').toMatch(/^[1-9]\d*$/);
    expect(
      images.filter((i) => /minio/i.test(i)),
      'no MinIO: S3-compatible storage is a documented switch',
    ).toEqual([]);
    expect(composeApis.map(([n]) => n)).toHaveLength(2);
    expect(composeWorkers.map(([n]) => n)).toHaveLength(2);
    const migrate = huafangServices.filter(([, service]) => runsEntry(service.command, 'migrate'));
    expect(
      migrate.map(([name]) => name),
      'one one-shot migration',
    ).toHaveLength(1);
    expect(migrate[0]![1].restart, 'the migration runs once').toBe('no');
    for (const [name, service] of [...composeApis, ...composeWorkers]) {
      expect(service.depends_on?.[migrate[0]![0]]?.condition, `${name} starts after the migration`).toBe(
        'service_completed_successfully',
      );
    }
    const dataVolumes = new Set<string>();
    for (const [name, service] of huafangServices) {
      const config = configOf(environmentOf(service));
      expect(config.database.kind, `${name}: PostgreSQL`).toBe('postgres');
      expect(config.redisUrl, `${name}: REDIS_URL`).toBeDefined();
      expect(config.storage.kind, `${name}: STORAGE=local by default`).toBe('local');
      const mount = (service.volumes ?? []).map(String).find((v: string) => v.split(':')[1] === config.dataDir);
      expect(mount, `${name}: a named volume at DATA_DIR (${config.dataDir})`).toMatch(/^[a-z][\w-]*:/);
      dataVolumes.add(mount.split(':')[0]);
    }
    expect([...dataVolumes], 'one files volume for every process').toHaveLength(1);
    expect(Object.keys(compose.volumes ?? {})).toContain([...dataVolumes][0]);
  });

  it('Compose: every image name takes a prefix from .env, every service rotates its log', () => {
    for (const [name, service] of Object.entries(rawServices)) {
      expect(String(service.image), `${name}: image`).toMatch(/^\$\{(REGISTRY|HUAFANG_IMAGE)(:-[^}]*)?\}/);
      expect(service.logging, `${name}: log rotation`).toMatchObject({
        driver: 'json-file',
        options: { 'max-size': expect.any(String), 'max-file': expect.any(String) },
      });
    }
    for (const [name, service] of huafangServices) {
      expect(Object.keys(service.build?.args ?? {}).sort(), `${name}: build arguments for mirrors`).toEqual(
        expect.arrayContaining(['REGISTRY', 'NPM_REGISTRY', 'DEBIAN_MIRROR']),
      );
    }
    const froms = dockerfile.filter((i) => i.keyword === 'FROM').map((i) => i.args);
    for (const from of froms) expect(from, 'the base image takes the prefix').toMatch(/^\$\{REGISTRY\}/);
    const args = dockerfile.filter((i) => i.keyword === 'ARG').map((i) => i.args.split('=')[0]);
    expect(args).toEqual(expect.arrayContaining(['REGISTRY', 'NPM_REGISTRY', 'DEBIAN_MIRROR']));
  });

  it("Compose passes what an operator in China needs: SMS, moderation, PUBLIC_BASE_URL, the AIGC producer's name", () => {
    const wanted = configVariableNames.filter((name) =>
      /^(SMS_(PROVIDER|ACCESS_KEY_ID|ACCESS_KEY_SECRET|SIGN_NAME|TEMPLATE_CODE|SDK_APP_ID|REGION)|MODERATION_(PROVIDER|ACCESS_KEY_ID|ACCESS_KEY_SECRET|REGION)|PUBLIC_BASE_URL|AIGC_PRODUCER|BACKEND_ALLOWED_HOSTS|STORAGE|S3_\w+)$/.test(
        name,
      ),
    );
    expect(wanted).toContain('AIGC_PRODUCER');
    for (const [name] of huafangServices) {
      const raw = rawServices[name]!.environment as Env;
      const missing = wanted.filter((key) => !String(raw[key] ?? '').includes(`\${${key}`));
      expect(missing, `${name}: variables .env does not reach`).toEqual([]);
    }
    for (const { where, env } of k8sContainers) {
      const missing = wanted.filter(
        (key) => !/^S3_|^SMS_(SDK_APP_ID|REGION)$|^MODERATION_ACCESS/.test(key) && !(key in env),
      );
      expect(missing, `${where}: variables not given`).toEqual([]);
    }
  });

  it('Kubernetes: 2 API and 2 worker replicas, migrations first, disruption budgets, pull secrets, resources, non-root', () => {
    expect(k8sApi?.doc.spec.replicas, 'API replicas').toBe(2);
    expect(k8sWorker?.doc.spec.replicas, 'worker replicas').toBe(2);
    const migrations = [
      ...(k8sApi?.doc.spec.template.spec.initContainers ?? []),
      ...ofKind('Job').flatMap(({ doc }) => doc.spec.template.spec.containers),
    ].filter((c: Json) => runsEntry(commandOf(c), 'migrate'));
    expect(migrations.length, 'a migration Job or init container').toBeGreaterThan(0);
    for (const { doc } of [k8sApi!, k8sWorker!]) {
      const pod = doc.spec.template.spec;
      const name = doc.metadata.name;
      expect(pod.imagePullSecrets?.length, `${name}: imagePullSecrets`).toBeGreaterThan(0);
      expect(pod.securityContext, `${name}: non-root`).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      for (const container of containersOf(doc)) {
        expect(container.resources?.requests, `${name}/${container.name}: resource requests`).toBeDefined();
        expect(container.resources?.limits?.memory, `${name}/${container.name}: memory limit`).toBeDefined();
        expect(container.securityContext?.allowPrivilegeEscalation, `${name}/${container.name}`).toBe(false);
      }
      const labels = doc.spec.template.metadata.labels;
      const budget = ofKind('PodDisruptionBudget').find(({ doc: pdb }) =>
        Object.entries(pdb.spec.selector.matchLabels).every(([k, v]) => labels[k] === v),
      );
      expect(budget, `${name}: a PodDisruptionBudget`).toBeDefined();
    }
  });

  it('the image: multi-stage, Node 24 bookworm-slim with CJK fonts, non-root, node as PID 1 on the compiled server', () => {
    const froms = dockerfile.filter((i) => i.keyword === 'FROM');
    expect(froms.length, 'build and runtime stages').toBeGreaterThanOrEqual(2);
    const nodeImage = dockerfile.find((i) => i.keyword === 'ARG' && i.args.startsWith('NODE_IMAGE='))?.args;
    expect(nodeImage, 'Node 24 LTS').toBe('NODE_IMAGE=node:24-bookworm-slim');
    expect(froms.at(-1)!.args).toMatch(/^\$\{REGISTRY\}\$\{NODE_IMAGE\} AS runtime$/);
    const cmd = dockerfile.filter((i) => i.keyword === 'CMD' && i.stage === finalStage).at(-1)!;
    expect(cmd.args.startsWith('['), 'exec form: no shell as PID 1').toBe(true);
    expect(runsEntry(JSON.parse(cmd.args), 'main'), 'CMD: node on the compiled API').toBe(true);
    expect(
      dockerfile.some((i) => i.keyword === 'ENTRYPOINT' && i.stage === finalStage),
      'no wrapper',
    ).toBe(false);
    for (const [name, service] of huafangServices) {
      expect(commandText(service.command), `${name}: node is PID 1`).toMatch(/^node /);
    }
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
    // What the server reads at run time: its build, the contracts, the Photoshop plugin, the built web app.
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

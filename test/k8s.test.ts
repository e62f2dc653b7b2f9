import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICE_NAMES } from '@haven/contracts/routes';

/**
 * The Kubernetes manifests (deploy/k8s): every object valid against the Kubernetes schemas, every Haven
 * container of docker-compose.yml deployed, and the rules each Deployment keeps (probes, resources,
 * autoscaling, drain on SIGTERM, non-root, secrets only where needed). Each rule is a function returning
 * problems, so the last tests can show it finds a broken manifest.
 */

const root = path.join(import.meta.dirname, '..');
const k8sDir = path.join(root, 'deploy', 'k8s');
const baseDir = path.join(k8sDir, 'base');

/** The schema class for each kind the manifests may hold; any other kind is a failure. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'batch/v1 CronJob': CronJob,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1 Ingress': Ingress,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Namespace': Namespace,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'v1 Service': Service,
};
const PARTS: readonly string[] = ['gateway', ...SERVICE_NAMES];
/** Keys only the Secret may hold; JWT_SECRET goes to the processes that sign or verify sessions only. */
const REQUIRED_SECRETS = ['REDIS_URL', 'INTERNAL_SECRET', 'DATA_ENCRYPTION_KEY'];
const OPTIONAL_SECRETS = ['DATA_ENCRYPTION_OLD_KEYS', 'OPENAI_API_KEY', 'SMTP_URL'].concat(
  ...['GOOGLE', 'SLACK', 'NOTION'].map((p) => [`${p}_CLIENT_ID`, `${p}_CLIENT_SECRET`]),
);
const SECRET_KEYS = [...REQUIRED_SECRETS, 'DATABASE_URL', 'JWT_SECRET', ...OPTIONAL_SECRETS];
const JWT_HOLDERS = ['auth', 'gateway'];
/** Compose services that are infrastructure, not Haven processes. */
const INFRA = ['postgres', 'redis', 'maildev', 'mailcatcher', 'mailhog', 'mailpit', 'prometheus', 'grafana'];

type K8sObject = { apiVersion?: string; kind?: string; metadata?: { name?: string } };
type Labels = Record<string, string> | undefined;

/** Every document of every YAML file in `dir` (kustomization.yaml apart), failing on a YAML error. */
function loadDir(dir: string) {
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
  const objects = files.flatMap((file) =>
    parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).flatMap((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
      const value = doc.toJS() as K8sObject | null;
      return value == null ? [] : [{ file, object: value }];
    }),
  );
  const kustomization = parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as {
    resources?: string[];
    patches?: { path?: string }[];
    secretGenerator?: { envs?: string[]; files?: string[] }[];
  };
  return { files, objects, kustomization };
}

/** Schema problems of one object, or that its kind is not one the manifests may hold. */
function validationProblems(object: K8sObject): string[] {
  const Model = MODELS[`${object.apiVersion} ${object.kind}`];
  if (!Model) return [`unknown kind ${object.apiVersion} ${object.kind}`];
  try {
    new Model(object as never).validate();
    return [];
  } catch (err) {
    return [`${object.kind} ${object.metadata?.name}: ${(err as Error).message}`];
  }
}

const base = loadDir(baseDir);
const ofKind = <T>(is: (v: unknown) => v is T): T[] =>
  base.objects.flatMap((o) => (is(o.object) ? [o.object] : []));
const manifests = {
  deployments: ofKind(Deployment.is),
  services: ofKind(Service.is),
  hpas: ofKind(HorizontalPodAutoscaler.is),
  pdbs: ofKind(PodDisruptionBudget.is),
  configMaps: ofKind(ConfigMap.is),
  ingresses: ofKind(Ingress.is),
};
type Manifests = typeof manifests;

const selects = (selector: Labels, labels: Labels) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);
const podLabels = (d: IDeployment) => d.spec?.template.metadata?.labels;
const envOf = (d: IDeployment) => d.spec?.template.spec?.containers[0]?.env ?? [];
const envValue = (d: IDeployment, name: string) => envOf(d).find((e) => e.name === name)?.value;
const UNITS: Record<string, number> = {
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
};
function quantity(q: unknown): number {
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(String(q ?? ''));
  return m ? Number(m[1]) * (UNITS[m[2] ?? ''] ?? NaN) : NaN;
}

/** Everything wrong with one Deployment, judged with the other manifests (its HPA, Service, budget). */
function deploymentProblems(d: IDeployment, all: Manifests): string[] {
  const name = d.metadata?.name ?? '(unnamed)';
  const problems: string[] = [];
  const fail = (message: string) => problems.push(`${name}: ${message}`);
  const pod = d.spec?.template.spec;
  const c = pod?.containers[0];
  if (!pod || !c || pod.containers.length !== 1) return [`${name}: expected exactly one container`];

  if (c.image?.replace(/[:@].*$/, '') !== 'haven') fail(`image ${c.image} is not the haven image`);
  const part = envValue(d, 'SERVICE') ?? '';
  if (!PARTS.includes(part)) fail(`SERVICE=${part} is not one of ${PARTS.join(', ')}`);
  const worker = name === `${part}-worker`;
  if (name !== part && !worker) fail(`name does not match SERVICE=${part}`);
  if ((envValue(d, 'RUN_API') === 'false') !== worker) fail('RUN_API=false exactly on <service>-worker');
  const port = part === 'gateway' ? '8080' : '3000';
  if (envValue(d, 'PORT') !== port) fail(`PORT must be ${port}`);
  if (!c.ports?.some((p) => p.name === 'http' && String(p.containerPort) === port)) fail('no port http');
  if (!selects(d.spec?.selector.matchLabels, podLabels(d))) fail('selector does not match the pod labels');

  for (const [probe, route] of [
    ['readinessProbe', '/readyz'],
    ['livenessProbe', '/healthz'],
  ] as const) {
    const p = c[probe];
    if (p?.httpGet?.path !== route || p.httpGet.port !== 'http') fail(`${probe} must GET ${route} on http`);
    if (!p?.periodSeconds || !p.failureThreshold) fail(`${probe} needs periodSeconds and failureThreshold`);
  }
  for (const r of ['cpu', 'memory']) {
    const request = quantity(c.resources?.requests?.[r]);
    const limit = quantity(c.resources?.limits?.[r]);
    if (!(request > 0 && limit >= request)) fail(`${r} needs a request and a limit at least as large`);
  }

  const grace = pod.terminationGracePeriodSeconds ?? 0;
  const [cmd, seconds] = c.lifecycle?.preStop?.exec?.command ?? [];
  if (cmd !== 'sleep' || !(Number(seconds) >= 1 && Number(seconds) * 2 <= grace))
    fail('needs a preStop sleep shorter than half of terminationGracePeriodSeconds');
  if (!(pod.securityContext?.runAsNonRoot ?? c.securityContext?.runAsNonRoot)) fail('runAsNonRoot');
  if ((c.securityContext?.runAsUser ?? pod.securityContext?.runAsUser) !== 1000)
    fail('runAsUser must be 1000');
  if (c.securityContext?.readOnlyRootFilesystem !== true) fail('readOnlyRootFilesystem');
  if (c.securityContext?.allowPrivilegeEscalation !== false) fail('allowPrivilegeEscalation must be false');
  const scratch = (dir: string | undefined) =>
    c.volumeMounts?.some((m) => m.mountPath === dir && pod.volumes?.find((v) => v.name === m.name)?.emptyDir);
  if (!scratch('/tmp')) fail('/tmp must be an emptyDir');
  if (!scratch(envValue(d, 'DATA_DIR'))) fail('DATA_DIR must be an emptyDir mount');

  if (c.envFrom?.some((e) => e.secretRef)) fail('envFrom a Secret hands out every key; use secretKeyRef');
  const required = [...REQUIRED_SECRETS, ...(part === 'gateway' ? [] : ['DATABASE_URL'])];
  const wanted = [...required, ...(JWT_HOLDERS.includes(part) ? ['JWT_SECRET'] : [])];
  for (const key of SECRET_KEYS) {
    const e = envOf(d).find((v) => v.name === key);
    const ref = e?.valueFrom?.secretKeyRef;
    if (!e) {
      if (wanted.includes(key)) fail(`${key} missing`);
    } else if (key === 'JWT_SECRET' && !JWT_HOLDERS.includes(part))
      fail('JWT_SECRET is for auth and gateway only');
    else if (e.value !== undefined || ref?.name !== 'haven-secrets' || ref.key !== key)
      fail(`${key} must come from secret haven-secrets key ${key}`);
    else if (!!ref.optional !== OPTIONAL_SECRETS.includes(key))
      fail(`${key} must be ${ref.optional ? 'required' : 'optional'}`);
  }

  const hpas = all.hpas.filter((h) => h.spec?.scaleTargetRef.name === name);
  const hpa = hpas[0]?.spec;
  const min = worker ? 1 : 2;
  if (hpas.length !== 1 || !hpa) fail('needs exactly one HorizontalPodAutoscaler');
  else {
    const target = hpa.scaleTargetRef;
    if (target.kind !== 'Deployment' || target.apiVersion !== 'apps/v1') fail('HPA targets the wrong kind');
    if ((hpa.minReplicas ?? 1) < min || hpa.maxReplicas < (hpa.minReplicas ?? 1))
      fail(`HPA needs minReplicas >= ${min} and maxReplicas >= minReplicas`);
    const metrics = hpa.metrics?.map((m) => m.resource?.name) ?? [];
    for (const r of part === 'portability' ? ['cpu', 'memory'] : ['cpu'])
      if (!metrics.includes(r)) fail(`HPA must scale on ${r}`);
    if (d.spec?.replicas !== undefined && d.spec.replicas < min) fail('replicas below the HPA minimum');
  }

  const services = all.services.filter((s) => selects(s.spec?.selector, podLabels(d)));
  if (worker && services.length > 0) fail('a worker has no Service');
  if (!worker) {
    const svc = services.find((s) => s.metadata?.name === name);
    const http = svc?.spec?.ports?.find((p) => p.name === 'http');
    if (!svc || svc.spec?.type !== 'ClusterIP' || http?.targetPort !== 'http')
      fail(`needs a ClusterIP Service ${name} with port http`);
    if (!all.pdbs.some((p) => selects(p.spec?.selector?.matchLabels, podLabels(d))))
      fail('needs a PodDisruptionBudget');
  }
  return problems;
}

/** Problems of the set as a whole: each service's API and workers, the addresses, the way in. */
function stackProblems(all: Manifests): string[] {
  const problems: string[] = [];
  const byName = new Map(all.deployments.map((d) => [d.metadata?.name, d]));
  for (const name of PARTS) if (!byName.has(name)) problems.push(`no Deployment ${name}`);
  for (const name of SERVICE_NAMES) {
    const api = byName.get(name);
    const worker = byName.get(`${name}-worker`);
    if (api && envValue(api, 'RUN_WORKERS') === 'false' && !worker)
      problems.push(`${name} runs RUN_WORKERS=false but has no ${name}-worker: its jobs would never run`);
  }
  for (const h of all.hpas)
    if (!byName.has(h.spec?.scaleTargetRef.name)) problems.push(`HPA ${h.metadata?.name} targets nothing`);
  for (const s of all.services)
    if (!all.deployments.some((d) => selects(s.spec?.selector, podLabels(d))))
      problems.push(`Service ${s.metadata?.name} selects no Deployment`);

  const config = all.configMaps.find((c) => c.metadata?.name === 'haven-config')?.data ?? {};
  for (const key of SECRET_KEYS) if (key in config) problems.push(`ConfigMap holds the secret ${key}`);
  for (const name of SERVICE_NAMES) {
    const url = config[`${name.toUpperCase()}_URL`];
    const svc = all.services.find((s) => s.metadata?.name === name);
    const port = svc?.spec?.ports?.find((p) => p.name === 'http')?.port;
    if (url !== `http://${name}:${port ?? 3000}` || port !== 3000)
      problems.push(`${name.toUpperCase()}_URL must be http://${name}:3000, served by Service ${name}`);
  }

  const gateway = byName.get('gateway');
  if (!gateway || !envValue(gateway, 'TRUST_PROXY')) problems.push('the gateway needs TRUST_PROXY');
  if (all.ingresses.length !== 1) problems.push('expected one Ingress');
  for (const ing of all.ingresses) {
    if (!ing.spec?.ingressClassName) problems.push('the Ingress needs an ingressClassName');
    const backends = (ing.spec?.rules ?? []).flatMap((r) => (r.host ? (r.http?.paths ?? []) : [undefined]));
    if (backends.length === 0) problems.push('the Ingress has no rule');
    for (const b of backends)
      if (b?.backend.service?.name !== 'gateway' || b.backend.service.port?.name !== 'http')
        problems.push('every Ingress rule needs a host and leads to the gateway Service port http');
  }
  return problems;
}

type ComposeService = {
  image?: string;
  environment?: Record<string, unknown> | string[];
  init?: boolean;
  healthcheck?: unknown;
} | null;

/** Each Haven container of the compose file (not infrastructure) must have its Deployment. */
function composeProblems(compose: { services?: Record<string, ComposeService> }, all: Manifests): string[] {
  const problems: string[] = [];
  let parts = 0;
  for (const [name, svc] of Object.entries(compose.services ?? {})) {
    const raw = svc?.environment ?? {};
    const env: Record<string, string> = Array.isArray(raw)
      ? Object.fromEntries(raw.map((e) => [e.split('=')[0], e.split('=').slice(1).join('=')]))
      : Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, String(v ?? '')]));
    if (INFRA.includes(name) || (env.SERVICE === undefined && !/^haven(:|$)/.test(svc?.image ?? '')))
      continue;
    parts++;
    const d = all.deployments.find((x) => x.metadata?.name === name);
    if (!d) problems.push(`compose service ${name} has no Deployment`);
    else if (envValue(d, 'SERVICE') !== (env.SERVICE ?? 'gateway'))
      problems.push(`${name}: SERVICE differs from docker-compose.yml`);
    else if (env.RUN_API === 'false' && envValue(d, 'RUN_API') !== 'false')
      problems.push(`${name}: a worker in docker-compose.yml, not in Kubernetes`);
  }
  if (parts < PARTS.length) problems.push(`only ${parts} Haven services found in docker-compose.yml`);
  return problems;
}

const readCompose = () =>
  parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services?: Record<string, ComposeService>;
  };

describe('Kubernetes manifests (deploy/k8s/base)', () => {
  it('lists exactly the resource files present, and holds no Secret', () => {
    expect([...(base.kustomization.resources ?? [])].sort()).toEqual([...base.files].sort());
    expect(base.objects.filter((o) => o.object.kind === 'Secret')).toEqual([]);
  });

  it('validates every object against the Kubernetes schemas', () => {
    expect(base.objects.length).toBeGreaterThan(20);
    expect(base.objects.flatMap((o) => validationProblems(o.object).map((p) => `${o.file}: ${p}`))).toEqual(
      [],
    );
    const names = base.objects.map((o) => `${o.object.kind}/${o.object.metadata?.name}`);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('gives every Deployment probes, resources, an HPA, a drain, a non-root sandbox and only its secrets', () => {
    expect(manifests.deployments.flatMap((d) => deploymentProblems(d, manifests))).toEqual([]);
    const images = new Set(manifests.deployments.map((d) => d.spec?.template.spec?.containers[0]?.image));
    expect(images.size).toBe(1);
  });

  it('runs every service with its workers, addresses each one in the ConfigMap, and routes in through the gateway', () => {
    expect(stackProblems(manifests)).toEqual([]);
  });

  it('has a Deployment for every Haven service in docker-compose.yml', () => {
    expect(composeProblems(readCompose(), manifests)).toEqual([]);
  });

  it('runs every probed compose container under an init, so no orphaned probe is reaped by PostgreSQL', () => {
    // A probe that times out leaves its child orphaned to PID 1; PostgreSQL as PID 1 takes one dying of
    // SIGPIPE for a crashed backend and restarts the whole server (seen while the stack started).
    const services = Object.entries(readCompose().services ?? {});
    expect(services.length).toBeGreaterThan(PARTS.length);
    expect(services.filter(([, s]) => s?.healthcheck && s.init !== true).map(([name]) => name)).toEqual([]);
  });

  it('keeps each overlay consistent: its files exist and secrets.env.example names every key used', () => {
    const used = new Set(
      manifests.deployments.flatMap((d) => envOf(d).flatMap((e) => e.valueFrom?.secretKeyRef?.key ?? [])),
    );
    const overlays = path.join(k8sDir, 'overlays');
    for (const name of existsSync(overlays) ? readdirSync(overlays) : []) {
      const dir = path.join(overlays, name);
      const overlay = loadDir(dir);
      const k = overlay.kustomization;
      const paths = [...(k.resources ?? []), ...(k.patches ?? []).flatMap((p) => p.path ?? [])];
      for (const p of paths) expect(existsSync(path.join(dir, p)), `${name}: ${p}`).toBe(true);
      const own = overlay.objects.filter((o) => k.resources?.includes(o.file));
      expect(own.flatMap((o) => validationProblems(o.object))).toEqual([]);
      for (const gen of k.secretGenerator ?? []) {
        const example = readFileSync(path.join(dir, `${gen.envs?.[0] ?? ''}.example`), 'utf8');
        for (const key of used) expect(example, `${name}: ${key}`).toMatch(new RegExp(`^#? ?${key}=`, 'm'));
      }
    }
  });
});

describe('the manifest checks themselves', () => {
  const clone = <T>(v: T): T => structuredClone(v);

  it('reject an object that breaks the schema, and an unknown kind', () => {
    const bad = { metadata: { name: 'x' }, spec: { replicas: 'two', template: {} } };
    expect(() => new Deployment(bad as never).validate()).toThrow();
    expect(validationProblems({ apiVersion: 'example.com/v1', kind: 'Widget' })).toEqual([
      'unknown kind example.com/v1 Widget',
    ]);
  });

  it('find a Deployment without probes, limits, drain or HPA, or given secrets it must not hold', () => {
    const d = clone(manifests.deployments.find((x) => x.metadata?.name === 'insights-worker'));
    const c = d?.spec?.template.spec?.containers[0];
    if (!d || !c) throw new Error('insights-worker is gone');
    delete c.readinessProbe;
    delete c.resources?.limits;
    delete c.lifecycle;
    const secret = c.env?.find((e) => e.name === 'INTERNAL_SECRET');
    if (secret) Object.assign(secret, { value: 'x'.repeat(32), valueFrom: undefined });
    c.env?.push({
      name: 'JWT_SECRET',
      valueFrom: { secretKeyRef: { name: 'haven-secrets', key: 'JWT_SECRET' } },
    });
    const hpas = manifests.hpas.filter((h) => h.metadata?.name !== 'insights-worker');
    expect(deploymentProblems(d, { ...manifests, hpas })).toEqual(
      expect.arrayContaining([
        'insights-worker: readinessProbe must GET /readyz on http',
        'insights-worker: cpu needs a request and a limit at least as large',
        'insights-worker: memory needs a request and a limit at least as large',
        'insights-worker: needs a preStop sleep shorter than half of terminationGracePeriodSeconds',
        'insights-worker: INTERNAL_SECRET must come from secret haven-secrets key INTERNAL_SECRET',
        'insights-worker: JWT_SECRET is for auth and gateway only',
        'insights-worker: needs exactly one HorizontalPodAutoscaler',
      ]),
    );
  });

  it('find a service whose jobs run nowhere, and a compose service without its Deployment', () => {
    const all = {
      ...manifests,
      deployments: manifests.deployments.filter((d) => d.metadata?.name !== 'assistant-worker'),
    };
    expect(stackProblems(all)).toEqual(
      expect.arrayContaining([
        'assistant runs RUN_WORKERS=false but has no assistant-worker: its jobs would never run',
        'HPA assistant-worker targets nothing',
      ]),
    );
    const compose = readCompose();
    compose.services = {
      ...compose.services,
      'search-worker': { environment: { SERVICE: 'search', RUN_API: 'false' } },
    };
    expect(composeProblems(compose, manifests)).toContain('compose service search-worker has no Deployment');
  });
});

// Runs the container of a CronJob in deploy/k8s with Docker, as the kubelet would run it: the
// manifest's args (or the ones a README step puts in their place), its env with secretKeyRef values
// filled in, its user and group, a read-only root, no capabilities, its memory and CPU limits, its
// persistent volume claims as Docker volumes and its emptyDirs as tmpfs. No cluster runs in CI; this
// is how scripts/ci-compose.sh exercises the README's Kubernetes backup and restore steps.
//
//   node scripts/k8s-job.mjs --manifest deploy/k8s/base/backup.yaml --cronjob haven-backup \
//     --image haven:local --network haven_default --secret DATABASE_URL=postgres://… \
//     --volume haven-backups=haven_k8s-backups [--args restore,/backups/FILE,--clean]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

function options(argv) {
  const found = { secret: {}, volume: {} };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (!flag?.startsWith('--') || value === undefined) throw new Error(`Unexpected argument: ${flag}`);
    const name = flag.slice(2);
    if (name === 'secret' || name === 'volume') {
      const at = value.indexOf('=');
      found[name][value.slice(0, at)] = value.slice(at + 1);
    } else found[name] = value;
  }
  for (const required of ['manifest', 'cronjob', 'image'])
    if (!found[required]) throw new Error(`--${required} is required`);
  return found;
}

/** Kubernetes quantities as Docker takes them: 768Mi → 768m, 1Gi → 1g, '1' / 250m CPUs → 1 / 0.25. */
const memory = (q) => q.replace(/Mi$/, 'm').replace(/Gi$/, 'g');
const cpus = (q) => (q.endsWith('m') ? String(Number(q.slice(0, -1)) / 1000) : q);

function cronJob(file, name) {
  const docs = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS());
  const job = docs.find((d) => d?.kind === 'CronJob' && d.metadata?.name === name);
  if (!job) throw new Error(`No CronJob ${name} in ${file}`);
  return job.spec.jobTemplate.spec.template.spec;
}

function dockerArgs(pod, o) {
  const [container] = pod.containers;
  const security = { ...pod.securityContext, ...container.securityContext };
  const args = ['run', '--rm'];
  if (o.network) args.push('--network', o.network);
  if (security.runAsUser !== undefined)
    args.push('--user', `${security.runAsUser}:${security.runAsGroup ?? 0}`);
  if (security.fsGroup !== undefined) args.push('--group-add', String(security.fsGroup));
  if (security.readOnlyRootFilesystem) args.push('--read-only');
  if (security.capabilities?.drop?.includes('ALL')) args.push('--cap-drop', 'ALL');
  if (security.allowPrivilegeEscalation === false) args.push('--security-opt', 'no-new-privileges');
  const limits = container.resources?.limits ?? {};
  if (limits.memory) args.push('--memory', memory(limits.memory));
  if (limits.cpu) args.push('--cpus', cpus(String(limits.cpu)));
  for (const { name, value, valueFrom } of container.env ?? []) {
    if (valueFrom?.secretKeyRef) {
      const given = o.secret[valueFrom.secretKeyRef.key];
      if (given === undefined)
        throw new Error(`The container needs the secret ${valueFrom.secretKeyRef.key}: --secret`);
      args.push('-e', `${name}=${given}`);
    } else if (valueFrom) throw new Error(`${name}: only value and secretKeyRef are supported here`);
    else args.push('-e', `${name}=${value}`);
  }
  if (container.envFrom) throw new Error('envFrom is not supported here');
  const volumes = Object.fromEntries((pod.volumes ?? []).map((v) => [v.name, v]));
  for (const mount of container.volumeMounts ?? []) {
    const volume = volumes[mount.name];
    if (volume?.persistentVolumeClaim) {
      const claim = volume.persistentVolumeClaim.claimName;
      args.push('-v', `${o.volume[claim] ?? `k8s-${claim}`}:${mount.mountPath}`);
    } else if (volume?.emptyDir) {
      const size = volume.emptyDir.sizeLimit ? `,size=${memory(volume.emptyDir.sizeLimit)}` : '';
      args.push('--tmpfs', `${mount.mountPath}:rw,mode=1777${size}`);
    } else
      throw new Error(`Volume ${mount.name}: only persistentVolumeClaim and emptyDir are supported here`);
  }
  args.push(o.image);
  if (container.command) throw new Error('A command (entrypoint override) is not supported here');
  args.push(...(o.args ? o.args.split(',') : (container.args ?? [])));
  return args;
}

const o = options(process.argv.slice(2));
const args = dockerArgs(cronJob(o.manifest, o.cronjob), o);
const shown = args.map((a) => (a.includes('DATABASE_URL=') ? 'DATABASE_URL=…' : a)).join(' ');
console.error(`docker ${shown}`);
const run = spawnSync('docker', args, { stdio: ['ignore', 'inherit', 'inherit'] });
process.exit(run.status ?? 1);

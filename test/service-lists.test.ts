import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '@haven/contracts/routes';

/*
 * The files outside TypeScript that list the services by hand (the image, its entrypoint, the
 * compose stack, Prometheus's targets, the CI script, the Kubernetes manifests), checked against
 * SERVICE_NAMES: a service added there and forgotten in one of them fails here, naming the file.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
/** What of `needles` (per service) the file lacks. */
const missing = (file: string, needles: (service: string) => string[]) => {
  const text = read(file);
  return SERVICE_NAMES.flatMap((s) => needles(s).filter((n) => !text.includes(n)));
};

describe('the service lists kept by hand', () => {
  it('the image builds, installs and copies every service', () => {
    expect(
      missing('Dockerfile', (s) => [
        `COPY services/${s}/package.json services/${s}/`,
        `-w services/${s}`,
        `COPY --from=build /app/services/${s}/dist services/${s}/dist`,
        `COPY --from=build /app/services/${s}/drizzle services/${s}/drizzle`,
      ]),
    ).toEqual([]);
  });

  it('the entrypoint starts every service, and says so when asked for another', () => {
    const entrypoint = read('docker/entrypoint.sh');
    expect(entrypoint).toContain(
      `  ${SERVICE_NAMES.join('|')}) exec node "services/$SERVICE/dist/main.js" ;;`,
    );
    expect(missing('docker/entrypoint.sh', (s) => [s])).toEqual([]);
  });

  it('compose runs every service, and Prometheus scrapes each', () => {
    expect(missing('docker-compose.yml', (s) => [`\n  ${s}:\n`])).toEqual([]);
    expect(missing('docker/prometheus/prometheus.yml', (s) => [`          - ${s}\n`])).toEqual([]);
    // Every worker compose runs is scraped too.
    const compose = read('docker-compose.yml');
    const workers = [...compose.matchAll(/\n {2}([a-z]+-worker):\n/g)].map((m) => m[1]!);
    expect(workers.length).toBeGreaterThan(0);
    expect(workers.filter((w) => !read('docker/prometheus/prometheus.yml').includes(`- ${w}\n`))).toEqual([]);
  });

  it('the CI script scales every service, and Kubernetes has a manifest for each', () => {
    expect(read('scripts/ci-compose.sh')).toContain(`scaled=(${SERVICE_NAMES.join(' ')})`);
    const kustomization = read('deploy/k8s/base/kustomization.yaml');
    expect(SERVICE_NAMES.filter((s) => !kustomization.includes(`- ${s}.yaml`))).toEqual([]);
  });
});

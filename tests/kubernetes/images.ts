/**
 * The images the chart runs, built with podman from the Dockerfile (scripts/deploy/images.ts) and loaded into
 * the node's containerd: no registry here, so the chart's values name them as podman does (localhost/...)
 * with pullPolicy Never.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@logovote/devstack';
import { changeImages, podmanPath, readComposeConfig, run } from '../../scripts/deploy/engine';
import { buildImages } from '../../scripts/deploy/images';
import type { KubeCluster } from '../../scripts/lib/kube-cluster';

/** The name podman gives a short image name: the chart's image.registry (localhost/) plus it. */
const local = (ref: string): string => (ref.startsWith('localhost/') ? ref : `localhost/${ref}`);

export interface LoadedImages {
  /** Every image a pod of the install runs. */
  refs: string[];
  /** The gateway's image: compose's with the stand-ins (the stand-in for nginxinc/nginx-unprivileged). */
  gateway: { repository: string; tag: string };
}

function splitRef(ref: string): { repository: string; tag: string } {
  const colon = ref.lastIndexOf(':');
  return { repository: ref.slice(0, colon), tag: ref.slice(colon + 1) };
}

/** Saves images from podman's storage into one archive (shared layers once) and imports it into the node. */
async function transfer(cluster: KubeCluster, refs: string[]): Promise<void> {
  const dir = mkdtempSync(join(cluster.logDir, '..', 'images-'));
  try {
    const archive = join(dir, 'images.tar');
    await run(podmanPath(), ['save', '--multi-image-archive', '--format', 'docker-archive', '--output', archive, ...refs]);
    cluster.importImage(archive);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds the application's images (podman's layer cache makes a second build quick) and loads them with the gateway's. */
export async function loadAppImages(cluster: KubeCluster, log: (line: string) => void): Promise<LoadedImages> {
  const built = (await buildImages({ log })).map(local);
  const gatewayImage = readComposeConfig(join(repoRoot, '.env.example'), { standIns: true }).services.gateway?.image;
  if (!gatewayImage) throw new Error('compose names no gateway image');
  const gateway = local(gatewayImage);
  const refs = [...built, gateway];
  await transfer(cluster, refs);
  return { refs, gateway: splitRef(gateway) };
}

export interface VoteRemoteRelease {
  repository: string;
  tag: string;
  /** Text the new release's mf-manifest.json has and the old one's has not. */
  marker: string;
}

/**
 * A new release of the vote remote: its current image with the manifest's build version set to the new one
 * (and without the manifest's precompressed copies, which would still say the old one),
 * as a rebuild at that version makes it, tagged with that version and loaded into the node.
 */
export async function newVoteRemoteImage(cluster: KubeCluster, current: string, version: string): Promise<VoteRemoteRelease> {
  const { repository } = splitRef(current);
  const dir = mkdtempSync(join(cluster.logDir, '..', 'vote-remote-'));
  try {
    const marker = `"buildVersion":"${version}"`;
    writeFileSync(
      join(dir, 'Containerfile'),
      `FROM ${current}\nUSER root\nRUN sed -i -E 's/"buildVersion": *"[^"]*"/${marker}/' site/mf-manifest.json && rm -f site/mf-manifest.json.br site/mf-manifest.json.gz && grep -qF '${marker}' site/mf-manifest.json\nUSER node\n`,
    );
    const next = `${repository}:${version}`;
    await changeImages(['build', '--network', 'none', '--tag', next, dir]);
    await transfer(cluster, [next]);
    return { repository: repository.replace(/^localhost\//, ''), tag: version, marker };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

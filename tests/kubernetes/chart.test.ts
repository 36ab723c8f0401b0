/**
 * The Helm chart on a real single-node Kubernetes (scripts/lib/kube-cluster.ts) with the images built from
 * the Dockerfile: `helm install --wait`, the smoke flow through the gateway Service, an upgrade of the vote
 * remote alone while voters vote, and a votes pod deleted in the middle of a vote storm. The chart's external
 * MongoDB, S3 and SMTP are FerretDB (on PostgreSQL), MinIO and MailDev, host processes listening on the node's
 * bridge address, which the pods reach without leaving the machine.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  findFreePort,
  postgresUrl,
  repoRoot,
  startFerretDB,
  startMailCatcher,
  startMinio,
  startPostgres,
  toolPath,
  type ManagedProcess,
} from '@logovote/devstack';
import { KUBE_NETWORK, startCluster, type KubeCluster } from '../../scripts/lib/kube-cluster';
import { expectSmokeFlowPasses, voteStorm, type DeployedApp } from '../support/deployed-app';
import { createPoll, getPoll } from '../support/polls';
import { loadAppImages, newVoteRemoteImage, type LoadedImages } from './images';

jest.setTimeout(20 * 60_000);

const execFileAsync = promisify(execFile);
const RELEASE = 'lv';
const chartDir = join(repoRoot, 'charts', 'logovote');
const runDir = join(repoRoot, '.run', 'kubernetes', String(process.pid));
const log = (line: string): void => void process.stdout.write(`[kubernetes] ${line}\n`);

let cluster: KubeCluster | undefined;
const servers: ManagedProcess[] = [];
let app: DeployedApp;
let images: LoadedImages;
let passed = false;

const kube = (): KubeCluster => {
  if (!cluster) throw new Error('the cluster did not start');
  return cluster;
};
/** helm against the cluster; asynchronous, so voters keep voting while it waits for a rollout. */
const helm = async (args: string[]): Promise<string> =>
  (await execFileAsync(toolPath('helm'), ['--kubeconfig', kube().kubeconfig, ...args], { encoding: 'utf8' })).stdout;

interface PodList {
  items: {
    metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string };
    spec: { containers: { image: string }[] };
    status: { phase: string; conditions?: { type: string; status: string }[] };
  }[];
}
const pods = (selector?: string): PodList =>
  JSON.parse(kube().kubectl(['get', 'pods', '-o', 'json', ...(selector ? ['-l', selector] : [])])) as PodList;
/** The pods not being deleted (one replaced by a rollout may still be stopping). */
const livePods = (selector: string): PodList['items'] => pods(selector).items.filter((pod) => !pod.metadata.deletionTimestamp);
const isReady = (pod: PodList['items'][number]): boolean =>
  pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
/** The pods and the latest events: why a pod would not start or would not go. */
function clusterState(on: KubeCluster): string {
  const shown = (args: string[]): string => {
    try {
      return on.kubectl(args);
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };
  const events = shown(['get', 'events', '--sort-by=.lastTimestamp']).trimEnd().split('\n').slice(-40).join('\n');
  return `${shown(['get', 'pods', '-o', 'wide'])}\n${events}`;
}
const component = (name: string): string => `app.kubernetes.io/instance=${RELEASE},app.kubernetes.io/component=${name}`;

beforeAll(async () => {
  cluster = await startCluster({ dir: join(runDir, 'cluster'), log });
  const host = KUBE_NETWORK.hostAddress;
  const logDir = join(runDir, 'servers');
  const postgresPort = await findFreePort();
  servers.push(await startPostgres({ port: postgresPort, dataDir: join(runDir, 'postgres'), logDir }));
  const ferretdb = await startFerretDB({
    host,
    port: await findFreePort(),
    postgresUrl: postgresUrl(postgresPort),
    stateDir: join(runDir, 'ferretdb'),
    logDir,
  });
  servers.push(ferretdb.proc);
  const s3 = { accessKey: 'logovote-k8s', secretKey: randomBytes(16).toString('hex') };
  const minio = await startMinio({
    host,
    port: await findFreePort(),
    consolePort: await findFreePort(),
    dataDir: join(runDir, 'minio'),
    logDir,
    ...s3,
  });
  servers.push(minio.proc);
  const mail = await startMailCatcher({ smtpHost: host, smtpPort: await findFreePort(), httpPort: await findFreePort(), logDir });
  servers.push(mail.proc);

  log('loading the images into the node');
  images = await loadAppImages(kube(), log);
  const admin = { user: 'admin', password: randomBytes(16).toString('hex') };
  const set = [
    `mongodb.uri=${ferretdb.uri}logovote`,
    `s3.endpoint=${minio.endpoint}`,
    `s3.accessKey=${s3.accessKey}`,
    `s3.secretKey=${s3.secretKey}`,
    `smtp.url=smtp://${host}:${String(mail.smtpPort)}`,
    'smtp.from=LogoVote <no-reply@logovote.test>',
    `admin.user=${admin.user}`,
    `admin.password=${admin.password}`,
    `secrets.csrfSecret=${randomBytes(24).toString('hex')}`,
    `secrets.ipHashSalt=${randomBytes(24).toString('hex')}`,
    `gateway.image.repository=${images.gateway.repository}`,
    `gateway.image.tag=${images.gateway.tag}`,
  ];
  log('helm install --wait');
  await helm([
    'install',
    RELEASE,
    chartDir,
    '-f',
    join(__dirname, 'values.yaml'),
    ...set.flatMap((s) => ['--set', s]),
    '--wait',
    '--timeout=10m',
  ]);
  log(`pods after helm install --wait:\n${kube().kubectl(['get', 'pods', '-o', 'wide'])}`);
  const gatewayIp = kube()
    .kubectl(['get', 'service', `${RELEASE}-logovote-gateway`, '-o', 'jsonpath={.spec.clusterIP}'])
    .trim();
  app = { gatewayUrl: `http://${gatewayIp}`, admin };
});

afterAll(async () => {
  try {
    // The run directory stays on the machine that failed; CI's console keeps only what is logged.
    if (!passed && cluster) log(`after a failure:\n${clusterState(cluster)}`);
    await cluster?.stop();
  } finally {
    for (const server of servers.reverse()) await server.stop();
    if (passed) rmSync(runDir, { recursive: true, force: true });
    else log(`logs kept in ${runDir}`);
  }
});

test('helm install --wait leaves every pod Ready, each running its image from the node', () => {
  const list = pods(`app.kubernetes.io/instance=${RELEASE}`).items;
  expect(list.length).toBeGreaterThan(0);
  expect(list.filter((pod) => !isReady(pod)).map((pod) => pod.metadata.name)).toEqual([]);
  const running = new Set(list.flatMap((pod) => pod.spec.containers.map((c) => c.image)));
  expect([...running].sort()).toEqual([...images.refs].sort());
});

test('through the gateway Service: a poll is created, voted on and counted; the admin API wants credentials', async () => {
  await expectSmokeFlowPasses(app, log);
});

test('helm upgrade of the vote remote alone while voters vote: no vote fails, the shell is served the new remote', async () => {
  const before = await (await fetch(`${app.gatewayUrl}/remotes/vote/mf-manifest.json`)).text();
  const current = images.refs.find((ref) => ref.includes('/mfe-vote:'));
  if (!current) throw new Error('no vote remote image');
  const next = await newVoteRemoteImage(kube(), current, '0.2.0');
  const deploymentsBefore = kube().kubectl([
    'get',
    'deployments',
    '-o',
    'jsonpath={range .items[*]}{.metadata.name}={.metadata.generation} {end}',
  ]);
  const oldVoteRemotePods = livePods(component('remote-vote')).map((pod) => `pod/${pod.metadata.name}`);
  const poll = await createPoll({ gatewayUrl: app.gatewayUrl });
  const logo = poll.logos[0];
  if (!logo) throw new Error('no logo');

  let upgraded!: () => void;
  const upgradeDone = new Promise<void>((resolve) => (upgraded = resolve));
  const storm = voteStorm(app, poll.sessionId, logo.id, { voters: 900, concurrency: 4, until: upgradeDone });
  try {
    await helm(['upgrade', RELEASE, chartDir, '--reuse-values', '--set', `remotes.vote.image.tag=${next.tag}`, '--wait', '--timeout=5m']);
  } finally {
    upgraded();
  }
  const votes = await storm;
  log(`votes during the upgrade: ${votes.acknowledged} acknowledged, ${votes.failed} failed ${JSON.stringify(votes.failures)}`);
  expect(votes.failed).toBe(0);
  expect(votes.acknowledged).toBeGreaterThan(0);

  const changed = kube()
    .kubectl(['get', 'deployments', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.metadata.generation} {end}'])
    .split(' ')
    .filter((entry) => entry && !deploymentsBefore.split(' ').includes(entry))
    .map((entry) => entry.split('=')[0]);
  expect(changed).toEqual([`${RELEASE}-logovote-remote-vote`]);
  const voteRemoteImages = livePods(component('remote-vote')).map((pod) => pod.spec.containers[0]?.image);
  expect(new Set(voteRemoteImages)).toEqual(new Set([`localhost/${next.repository}:${next.tag}`]));
  // An old pod keeps answering the gateway's kept-alive connections while it drains (the chart's preStop), so
  // the rollout is over for the gateway once the old pods are gone.
  kube().kubectl(['wait', '--for=delete', ...oldVoteRemotePods, '--timeout=120s']);
  const runtimeConfig = (await (await fetch(`${app.gatewayUrl}/runtime-config.json`)).json()) as unknown;
  expect(JSON.stringify(runtimeConfig)).toContain('/remotes/vote/mf-manifest.json');
  const after = await (await fetch(`${app.gatewayUrl}/remotes/vote/mf-manifest.json`)).text();
  expect(after).not.toEqual(before);
  expect(after).toContain(next.marker);
});

test('a votes pod deleted in the middle of a vote storm: every acknowledged vote is counted', async () => {
  const poll = await createPoll({ gatewayUrl: app.gatewayUrl });
  const logo = poll.logos[0];
  if (!logo) throw new Error('no logo');
  const [victim] = pods(component('votes')).items.map((pod) => pod.metadata.name);
  if (!victim) throw new Error('no votes pod');

  const voters = 600;
  const storm = voteStorm(app, poll.sessionId, logo.id, {
    voters,
    concurrency: 6,
    onAcknowledged: (count) => {
      if (count !== 100) return;
      log(`deleting pod ${victim} after ${count} acknowledged votes`);
      kube().kubectl(['delete', 'pod', victim, '--wait=false']);
    },
  });
  const votes = await storm;
  const counted = (await getPoll(poll.sessionId, app.gatewayUrl)).logos.find((l) => l.id === logo.id)?.voteCount ?? 0;
  log(
    `votes pod ${victim} deleted during ${voters} votes: ${votes.acknowledged} acknowledged, ${votes.failed} failed ${JSON.stringify(votes.failures)}, ${counted} counted`,
  );
  expect(counted).toBeGreaterThanOrEqual(votes.acknowledged);
  expect(counted).toBeLessThanOrEqual(votes.acknowledged + votes.failed);
  kube().kubectl(['wait', '--for=delete', `pod/${victim}`, '--timeout=120s']);
  expect(pods(component('votes')).items.map((pod) => pod.metadata.name)).not.toContain(victim);
  passed = true;
});

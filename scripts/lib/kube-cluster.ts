/**
 * A single-node Kubernetes for the kubernetes test tier: etcd, kube-apiserver, kube-controller-manager,
 * kube-scheduler, containerd (runc), kubelet, kube-proxy (iptables) and CoreDNS, all as host processes with
 * their state in one run directory. stop() removes every process, mount, interface, route, iptables chain,
 * cgroup and sysctl change it made, also after a failed start.
 *
 * Network: pods live on the bridge KUBE_NETWORK.bridge (KUBE_NETWORK.podRange), Services on
 * KUBE_NETWORK.serviceRange. Before anything starts, KUBE_NETWORK.reservedRange (both ranges) gets a
 * blackhole route: only the bridge's own, more specific routes deliver, so no packet for these addresses can
 * leave the machine. Pods get routes to the reserved range only (no default route), and a FORWARD rule drops
 * whatever comes from the bridge for another interface.
 *
 * Certificates: one throwaway CA made with openssl (on every machine, one command per file), an apiserver
 * serving certificate and one client certificate in system:masters that every component and the tests use.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  findFreePort,
  installInfraAside,
  spawnManaged,
  stopOnFailure,
  toolPath,
  toolsBinDir,
  waitFor,
  waitForTcp,
  type ManagedProcess,
  type ToolName,
} from '@logovote/devstack';
import { readSysctl, writeSysctl } from './sysctl';

/** The install-infra.sh tools the cluster runs: the node's (etcd, containerd, runc, CNI), Kubernetes' servers, CoreDNS. */
export const CLUSTER_TOOLS = ['kube-node', 'kubernetes', 'coredns'];

export const KUBE_NETWORK = {
  /** Blackholed as a whole: the pod and service ranges below are inside it. */
  reservedRange: '10.214.0.0/16',
  podRange: '10.214.0.0/24',
  bridge: 'lvk8s0',
  /** The bridge's address: the node's IP, the pods' gateway, where CoreDNS and the host's servers listen. */
  hostAddress: '10.214.0.1',
  serviceRange: '10.214.128.0/24',
  /** The `kubernetes` Service (the first address of the service range). */
  apiServiceAddress: '10.214.128.1',
} as const;

const NODE_NAME = 'logovote-node';
const FORWARD_CHAIN = 'LOGOVOTE-K8S-FORWARD';
/** The CRI image every pod's sandbox runs. */
export const PAUSE_IMAGE = 'localhost/logovote/pause:1';
/** Kernel settings the kubelet, kube-proxy and the CNI bridge plugin change; restored by stop(). */
const TOUCHED_SYSCTLS = [
  'net.ipv4.ip_forward',
  'net.ipv4.conf.all.route_localnet',
  'vm.overcommit_memory',
  'vm.panic_on_oom',
  'kernel.panic',
  'kernel.panic_on_oops',
  'kernel.keys.root_maxkeys',
  'kernel.keys.root_maxbytes',
];
const CGROUP_ROOT = '/sys/fs/cgroup';
const CONTAINER_LOG_LINKS = '/var/log/containers';
/** Where containerd 1.6 puts its shims' sockets, whatever its configuration says. */
const SHIM_SOCKETS = '/run/containerd';

export interface KubeCluster {
  kubeconfig: string;
  /** Runs kubectl against the cluster and returns its stdout (throws with its stderr on failure). */
  kubectl(args: string[], input?: string): string;
  /** Loads an image archive (docker-archive or OCI) into the node's containerd. */
  importImage(archive: string): void;
  /** The log directory of every component. */
  logDir: string;
  stop(): Promise<void>;
}

export interface StartClusterOptions {
  /** Run directory (state, certificates, logs); emptied first. */
  dir: string;
  log: (line: string) => void;
}

function run(command: string, args: string[], input?: string): string {
  const result = spawnSync(command, args, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${String(result.status)}: ${result.stderr.trim()}`);
  return result.stdout;
}

/** Runs a cleanup command; returns its error message instead of throwing, so every later cleanup still runs. */
function attempt(what: string, action: () => void): string | undefined {
  try {
    action();
    return undefined;
  } catch (e) {
    return `${what}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function makeCertificates(pki: string): void {
  fs.mkdirSync(pki, { recursive: true });
  const file = (name: string): string => path.join(pki, name);
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=logovote-test-ca',
  ]);
  const issue = (name: string, subject: string, extensions: string): void => {
    run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', subject]);
    fs.writeFileSync(file(`${name}.ext`), extensions);
    run('openssl', [
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      file(`${name}.crt`),
      '-extfile',
      file(`${name}.ext`),
    ]);
  };
  const apiNames = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];
  issue(
    'apiserver',
    '/CN=kube-apiserver',
    `subjectAltName=${[...apiNames.map((n) => `DNS:${n}`), `IP:${KUBE_NETWORK.hostAddress}`, `IP:${KUBE_NETWORK.apiServiceAddress}`, 'IP:127.0.0.1'].join(',')}\nextendedKeyUsage=serverAuth\n`,
  );
  issue('admin', '/O=system:masters/CN=logovote-admin', 'extendedKeyUsage=clientAuth\n');
  run('openssl', ['genrsa', '-out', file('service-account.key'), '2048']);
  run('openssl', ['rsa', '-in', file('service-account.key'), '-pubout', '-out', file('service-account.pub')]);
}

function kubeconfigYaml(pki: string, server: string): string {
  return `apiVersion: v1
kind: Config
clusters:
  - name: logovote
    cluster:
      server: ${server}
      certificate-authority: ${path.join(pki, 'ca.crt')}
users:
  - name: admin
    user:
      client-certificate: ${path.join(pki, 'admin.crt')}
      client-key: ${path.join(pki, 'admin.key')}
contexts:
  - name: logovote
    context: { cluster: logovote, user: admin }
current-context: logovote
`;
}

/** A one-layer docker-archive of the static pause binary, for `ctr images import`. */
function pauseImageArchive(dir: string): string {
  const work = path.join(dir, 'pause-image');
  fs.mkdirSync(path.join(work, 'rootfs'), { recursive: true });
  fs.copyFileSync(toolPath('kube-pause'), path.join(work, 'rootfs', 'pause'));
  fs.chmodSync(path.join(work, 'rootfs', 'pause'), 0o755);
  run('tar', ['-C', path.join(work, 'rootfs'), '--owner=0', '--group=0', '-cf', path.join(work, 'layer.tar'), 'pause']);
  const diffId = createHash('sha256')
    .update(fs.readFileSync(path.join(work, 'layer.tar')))
    .digest('hex');
  const config = {
    architecture: 'amd64',
    os: 'linux',
    config: { Entrypoint: ['/pause'] },
    rootfs: { type: 'layers', diff_ids: [`sha256:${diffId}`] },
  };
  fs.writeFileSync(path.join(work, 'config.json'), JSON.stringify(config));
  fs.writeFileSync(
    path.join(work, 'manifest.json'),
    JSON.stringify([{ Config: 'config.json', RepoTags: [PAUSE_IMAGE], Layers: ['layer.tar'] }]),
  );
  const archive = path.join(dir, 'pause-image.tar');
  run('tar', ['-C', work, '-cf', archive, 'manifest.json', 'config.json', 'layer.tar']);
  return archive;
}

function containerdConfig(dir: string, socket: string): string {
  return `version = 2
root = "${path.join(dir, 'containerd', 'root')}"
state = "${path.join(dir, 'containerd', 'state')}"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs"]
[grpc]
  address = "${socket}"
[ttrpc]
  address = "${socket}.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "${path.join(dir, 'containerd', 'opt')}"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${PAUSE_IMAGE}"
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  enable_selinux = false
  # This machine refuses to lower a process's OOM score below containerd's own (the kubelet asks -998 for sandboxes).
  restrict_oom_score_adj = true
  # Pod network namespaces in the state directory, not /run/netns: podman (the compose tier, maybe running
  # alongside) makes /run/netns a shared mount by bind-mounting it onto itself recursively, which doubles
  # every namespace mounted there, and containerd then cannot remove one (EBUSY): its pod never terminates.
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "${toolPath('runc')}"
        Root = "${path.join(dir, 'runc')}"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${path.join(dir, 'cni', 'net.d')}"
`;
}

function cniConfig(dir: string): string {
  return JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: 'logovote-pods',
      plugins: [
        {
          type: 'bridge',
          bridge: KUBE_NETWORK.bridge,
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: {
            type: 'host-local',
            dataDir: path.join(dir, 'cni', 'ipam'),
            ranges: [[{ subnet: KUBE_NETWORK.podRange, gateway: KUBE_NETWORK.hostAddress }]],
            // No default route: a pod reaches the pod and service ranges and the host's bridge address only.
            routes: [{ dst: KUBE_NETWORK.reservedRange }],
          },
        },
      ],
    },
    null,
    2,
  );
}

function kubeletConfig(dir: string, pki: string, socket: string, port: number, healthzPort: number): string {
  return `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: ${KUBE_NETWORK.hostAddress}
port: ${port}
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: ${healthzPort}
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
containerRuntimeEndpoint: unix://${socket}
podLogsDir: ${path.join(dir, 'pod-logs')}
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: false }
  x509: { clientCAFile: ${path.join(pki, 'ca.crt')} }
authorization: { mode: AlwaysAllow }
clusterDomain: cluster.local
clusterDNS: [${KUBE_NETWORK.hostAddress}]
resolvConf: ${path.join(dir, 'pod-resolv.conf')}
podCIDR: ${KUBE_NETWORK.podRange}
evictionHard: { memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%, nodefs.inodesFree: 1% }
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
`;
}

/** CoreDNS answers cluster.local from the API and NXDOMAIN for everything else: nothing is forwarded. */
function corefile(kubeconfig: string): string {
  return `cluster.local:53 {
  bind ${KUBE_NETWORK.hostAddress}
  kubernetes cluster.local {
    kubeconfig ${kubeconfig}
  }
  errors
}
.:53 {
  bind ${KUBE_NETWORK.hostAddress}
  template ANY ANY {
    rcode NXDOMAIN
  }
}
`;
}

/** Mount points under `dir` (deepest first), from this namespace's mount table. */
function mountsUnder(dir: string): string[] {
  const mounts = fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((point): point is string => point !== undefined && (point === dir || point.startsWith(`${dir}/`)));
  return [...new Set(mounts)].sort((a, b) => b.length - a.length);
}

/** A process's command line ('' once it is gone). */
function commandLine(pid: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Cgroup directories named `name` directly under each controller's root, e.g. the kubelet's kubepods. */
function cgroupDirs(name: string): string[] {
  const dirs: string[] = [];
  for (const controller of fs.readdirSync(CGROUP_ROOT)) {
    const candidate = path.join(CGROUP_ROOT, controller, name);
    if (fs.existsSync(candidate) && fs.statSync(candidate).isDirectory()) dirs.push(fs.realpathSync(candidate));
  }
  return [...new Set(dirs)];
}

/** Kills every process left in a cgroup tree (a container whose shim is gone), then removes the tree, children first. */
function removeCgroupTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) removeCgroupTree(path.join(dir, entry.name));
  }
  const procs = path.join(dir, 'cgroup.procs');
  for (const pid of fs.existsSync(procs) ? fs.readFileSync(procs, 'utf8').split('\n').filter(Boolean) : []) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (let tries = 0; ; tries++) {
    try {
      fs.rmdirSync(dir);
      return;
    } catch (e) {
      // EBUSY while the killed processes exit.
      if ((e as NodeJS.ErrnoException).code !== 'EBUSY' || tries >= 50) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/** Every chain of `table` whose name starts with one of `prefixes`, with the rules that jump to it. */
function removeChains(binary: string, table: string, prefixes: string[]): void {
  const dump = run(binary, ['-t', table, '-S']);
  const ours = (chain: string): boolean => prefixes.some((prefix) => chain.startsWith(prefix));
  const chains = dump
    .split('\n')
    .filter((line) => line.startsWith('-N '))
    .map((line) => line.slice(3).trim())
    .filter(ours);
  if (chains.length === 0) return;
  for (const line of dump.split('\n')) {
    const rule = /^-A (\S+) (.*-j (\S+).*)$/.exec(line);
    if (rule && !ours(rule[1] as string) && ours(rule[3] as string)) {
      run('sh', ['-c', `${binary} -t ${table} -D ${rule[1] as string} ${rule[2] as string}`]);
    }
  }
  for (const chain of chains) run(binary, ['-t', table, '-F', chain]);
  for (const chain of chains) run(binary, ['-t', table, '-X', chain]);
}

export async function startCluster(options: StartClusterOptions): Promise<KubeCluster> {
  const { log } = options;
  const dir = path.resolve(options.dir);
  if (process.getuid?.() !== 0) throw new Error('the kubernetes tier runs as root (it makes a bridge, routes and iptables rules)');
  if (fs.existsSync(`/sys/class/net/${KUBE_NETWORK.bridge}`)) {
    throw new Error(
      `${KUBE_NETWORK.bridge} exists: another cluster of this tier is running, or one was killed before it could clean up (ip link del ${KUBE_NETWORK.bridge})`,
    );
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const logDir = path.join(dir, 'logs');
  const pki = path.join(dir, 'pki');
  const socket = path.join(dir, 'containerd.sock');
  fs.mkdirSync(logDir, { recursive: true });
  // Built here when missing, or awaited when npm test builds them beside its other projects.
  const toolsLog = path.join(logDir, 'install-infra.log');
  log(`checking the cluster's tools (${CLUSTER_TOOLS.join(', ')}; log: ${toolsLog})`);
  await installInfraAside(CLUSTER_TOOLS, toolsLog);

  const sysctlsBefore = new Map(TOUCHED_SYSCTLS.map((name) => [name, readSysctl(name)]));
  const kubepodsBefore = new Set(cgroupDirs('kubepods'));
  const containerLogLinksBefore = fs.existsSync(CONTAINER_LOG_LINKS);
  const shimSocketsBefore = fs.existsSync(SHIM_SOCKETS);
  const processes: ManagedProcess[] = [];
  const kubeconfig = path.join(dir, 'kubeconfig');
  const kubectl = (args: string[], input?: string): string => run(toolPath('kubectl'), ['--kubeconfig', kubeconfig, ...args], input);
  const ctr = (args: string[]): string => run(toolPath('ctr'), ['--address', socket, '--namespace', 'k8s.io', ...args]);

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      const errors: (string | undefined)[] = [];
      const byName = (name: string): ManagedProcess | undefined => processes.find((p) => p.name === name);
      const apiUp = byName('kube-apiserver') !== undefined && byName('kubelet') !== undefined;
      if (apiUp) {
        // Deleting the pods through the API lets the kubelet stop each sandbox, which removes its network
        // namespace and veth; workloads first, so nothing recreates them.
        errors.push(
          attempt('delete workloads', () =>
            kubectl(['delete', 'deployments,statefulsets,daemonsets,replicasets,jobs', '--all', '--all-namespaces', '--timeout=60s']),
          ),
        );
        errors.push(
          attempt('delete pods', () => kubectl(['delete', 'pods', '--all', '--all-namespaces', '--grace-period=1', '--timeout=90s'])),
        );
      }
      for (const name of ['kube-proxy', 'kubelet', 'coredns', 'kube-scheduler', 'kube-controller-manager', 'kube-apiserver', 'etcd']) {
        await byName(name)?.stop();
      }
      errors.push(attempt('kube-proxy --cleanup', () => run(toolPath('kube-proxy'), ['--cleanup'])));
      if (byName('containerd')) {
        // Whatever the kubelet left (it may have died): every container of the CRI namespace.
        errors.push(
          attempt('remove containers', () => {
            for (const id of ctr(['tasks', 'ls', '-q']).split('\n').filter(Boolean))
              spawnSync(toolPath('ctr'), ['--address', socket, '-n', 'k8s.io', 'tasks', 'kill', '-s', 'SIGKILL', id]);
            for (const id of ctr(['containers', 'ls', '-q']).split('\n').filter(Boolean)) {
              spawnSync(toolPath('ctr'), ['--address', socket, '-n', 'k8s.io', 'tasks', 'rm', '-f', id]);
              spawnSync(toolPath('ctr'), ['--address', socket, '-n', 'k8s.io', 'containers', 'rm', id]);
            }
          }),
        );
        await byName('containerd')?.stop();
      }
      // Shims outlive containerd by design; ours are the ones started with our socket.
      errors.push(
        attempt('stop leftover shims', () => {
          for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
            const cmdline = commandLine(pid);
            if (cmdline.includes('containerd-shim') && cmdline.includes(socket)) process.kill(Number(pid), 'SIGKILL');
          }
        }),
      );
      if (!shimSocketsBefore)
        errors.push(attempt(`remove ${SHIM_SOCKETS}`, () => fs.rmSync(SHIM_SOCKETS, { recursive: true, force: true })));
      // The kubelet links each container's log into /var/log/containers (a fixed place); ours point into dir.
      errors.push(
        attempt('remove container log links', () => {
          for (const link of fs.existsSync(CONTAINER_LOG_LINKS) ? fs.readdirSync(CONTAINER_LOG_LINKS) : []) {
            const target = path.join(CONTAINER_LOG_LINKS, link);
            if (fs.lstatSync(target).isSymbolicLink() && fs.readlinkSync(target).startsWith(`${dir}/`)) fs.unlinkSync(target);
          }
          if (!containerLogLinksBefore && fs.existsSync(CONTAINER_LOG_LINKS) && fs.readdirSync(CONTAINER_LOG_LINKS).length === 0)
            fs.rmdirSync(CONTAINER_LOG_LINKS);
        }),
      );
      for (const point of mountsUnder(dir)) {
        errors.push(attempt(`unmount ${point}`, () => run('umount', ['--lazy', point])));
      }
      for (const binary of ['iptables', 'ip6tables']) {
        for (const table of ['filter', 'nat', 'mangle']) {
          errors.push(attempt(`${binary} -t ${table}: remove KUBE-* chains`, () => removeChains(binary, table, ['KUBE-', FORWARD_CHAIN])));
        }
      }
      for (const cgroup of cgroupDirs('kubepods').filter((c) => !kubepodsBefore.has(c))) {
        errors.push(attempt(`remove cgroup ${cgroup}`, () => removeCgroupTree(cgroup)));
      }
      if (fs.existsSync(`/sys/class/net/${KUBE_NETWORK.bridge}`)) {
        errors.push(
          attempt('remove the service route', () => run('ip', ['route', 'del', KUBE_NETWORK.serviceRange, 'dev', KUBE_NETWORK.bridge])),
        );
        errors.push(attempt('remove the bridge', () => run('ip', ['link', 'del', KUBE_NETWORK.bridge])));
      }
      errors.push(attempt('remove the blackhole route', () => run('ip', ['route', 'del', 'blackhole', KUBE_NETWORK.reservedRange])));
      for (const [name, value] of sysctlsBefore) {
        if (value !== undefined && readSysctl(name) !== value) errors.push(attempt(`restore ${name}`, () => writeSysctl(name, value)));
      }
      const failed = errors.filter((e): e is string => e !== undefined);
      if (failed.length > 0) throw new Error(`the cluster's teardown left something behind:\n${failed.join('\n')}`);
      log('cluster stopped and removed');
    })();
    return stopped;
  };

  const start = async (name: ToolName, args: string[], ready: (proc: ManagedProcess) => Promise<void>): Promise<void> => {
    const proc = spawnManaged(name, toolPath(name), args, {
      logDir,
      env: { ...process.env, PATH: `${toolsBinDir}:${process.env.PATH ?? ''}` },
    });
    processes.push(proc);
    await stopOnFailure(proc, ready(proc));
    log(`${name} ready`);
  };
  const waitUntil = (what: string, proc: ManagedProcess, check: () => void, timeoutMs = 120_000): Promise<void> =>
    waitFor(what, () => Promise.resolve().then(check), { proc, timeoutMs });

  try {
    // The network first: nothing may route the reserved range anywhere but to our bridge.
    run('ip', ['route', 'add', 'blackhole', KUBE_NETWORK.reservedRange]);
    run('ip', ['link', 'add', KUBE_NETWORK.bridge, 'type', 'bridge']);
    run('ip', ['addr', 'add', `${KUBE_NETWORK.hostAddress}/${KUBE_NETWORK.podRange.split('/')[1] as string}`, 'dev', KUBE_NETWORK.bridge]);
    run('ip', ['link', 'set', KUBE_NETWORK.bridge, 'up']);
    // Host-to-Service packets need a route before kube-proxy's DNAT rewrites them to a pod address.
    run('ip', ['route', 'add', KUBE_NETWORK.serviceRange, 'dev', KUBE_NETWORK.bridge]);
    run('iptables', ['-N', FORWARD_CHAIN]);
    run('iptables', ['-A', FORWARD_CHAIN, '-i', KUBE_NETWORK.bridge, '!', '-o', KUBE_NETWORK.bridge, '-j', 'DROP']);
    run('iptables', ['-I', 'FORWARD', '1', '-j', FORWARD_CHAIN]);

    makeCertificates(pki);
    const etcdClient = await findFreePort();
    const etcdPeer = await findFreePort();
    const apiPort = await findFreePort();
    const cmPort = await findFreePort();
    const schedulerPort = await findFreePort();
    const kubeletPort = await findFreePort();
    const kubeletHealthz = await findFreePort();
    const proxyHealthz = await findFreePort();
    const proxyMetrics = await findFreePort();
    const apiServer = `https://${KUBE_NETWORK.hostAddress}:${String(apiPort)}`;
    fs.writeFileSync(kubeconfig, kubeconfigYaml(pki, apiServer));
    const pkiFile = (name: string): string => path.join(pki, name);

    const etcdUrl = `http://127.0.0.1:${String(etcdClient)}`;
    await start(
      'etcd',
      [
        '--name=logovote',
        `--data-dir=${path.join(dir, 'etcd')}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=http://127.0.0.1:${String(etcdPeer)}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${String(etcdPeer)}`,
        `--initial-cluster=logovote=http://127.0.0.1:${String(etcdPeer)}`,
      ],
      (proc) =>
        waitFor(
          'etcd health',
          async () => {
            const res = await fetch(`${etcdUrl}/health`);
            if (!res.ok) throw new Error(`HTTP ${res.status}`);
          },
          { proc },
        ),
    );
    await start(
      'kube-apiserver',
      [
        `--etcd-servers=${etcdUrl}`,
        `--bind-address=${KUBE_NETWORK.hostAddress}`,
        `--advertise-address=${KUBE_NETWORK.hostAddress}`,
        `--secure-port=${String(apiPort)}`,
        `--service-cluster-ip-range=${KUBE_NETWORK.serviceRange}`,
        `--client-ca-file=${pkiFile('ca.crt')}`,
        `--tls-cert-file=${pkiFile('apiserver.crt')}`,
        `--tls-private-key-file=${pkiFile('apiserver.key')}`,
        `--kubelet-client-certificate=${pkiFile('admin.crt')}`,
        `--kubelet-client-key=${pkiFile('admin.key')}`,
        `--service-account-key-file=${pkiFile('service-account.pub')}`,
        `--service-account-signing-key-file=${pkiFile('service-account.key')}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        '--authorization-mode=RBAC',
        '--allow-privileged=true',
        `--cert-dir=${path.join(dir, 'apiserver')}`,
        '--profiling=false',
      ],
      (proc) => waitUntil('kube-apiserver /readyz', proc, () => kubectl(['get', '--raw', '/readyz'])),
    );
    const leaderless = ['--leader-elect=false', '--bind-address=127.0.0.1', '--profiling=false', `--kubeconfig=${kubeconfig}`];
    await start(
      'kube-controller-manager',
      [
        ...leaderless,
        `--secure-port=${String(cmPort)}`,
        `--service-account-private-key-file=${pkiFile('service-account.key')}`,
        `--root-ca-file=${pkiFile('ca.crt')}`,
        `--service-cluster-ip-range=${KUBE_NETWORK.serviceRange}`,
        '--use-service-account-credentials=false',
      ],
      (proc) => waitUntil('the default service account', proc, () => kubectl(['get', 'serviceaccount', 'default'])),
    );
    await start('kube-scheduler', [...leaderless, `--secure-port=${String(schedulerPort)}`], (proc) =>
      waitForTcp('127.0.0.1', schedulerPort, { proc }),
    );

    fs.mkdirSync(path.join(dir, 'cni', 'net.d'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'cni', 'net.d', '10-logovote-pods.conflist'), cniConfig(dir));
    fs.writeFileSync(path.join(dir, 'containerd.toml'), containerdConfig(dir, socket));
    await start('containerd', ['--config', path.join(dir, 'containerd.toml')], (proc) =>
      waitUntil('containerd', proc, () => ctr(['version'])),
    );
    ctr(['images', 'import', pauseImageArchive(dir)]);

    fs.writeFileSync(path.join(dir, 'pod-resolv.conf'), '');
    fs.writeFileSync(path.join(dir, 'kubelet.yaml'), kubeletConfig(dir, pki, socket, kubeletPort, kubeletHealthz));
    await start(
      'kubelet',
      [
        `--config=${path.join(dir, 'kubelet.yaml')}`,
        `--kubeconfig=${kubeconfig}`,
        `--root-dir=${path.join(dir, 'kubelet')}`,
        `--cert-dir=${path.join(dir, 'kubelet', 'pki')}`,
        `--hostname-override=${NODE_NAME}`,
        `--node-ip=${KUBE_NETWORK.hostAddress}`,
      ],
      (proc) =>
        waitUntil(`node ${NODE_NAME} Ready`, proc, () => kubectl(['wait', '--for=condition=Ready', `node/${NODE_NAME}`, '--timeout=2s'])),
    );
    await start(
      'kube-proxy',
      [
        `--kubeconfig=${kubeconfig}`,
        '--proxy-mode=iptables',
        '--masquerade-all',
        `--cluster-cidr=${KUBE_NETWORK.podRange}`,
        `--hostname-override=${NODE_NAME}`,
        `--healthz-bind-address=127.0.0.1:${String(proxyHealthz)}`,
        `--metrics-bind-address=127.0.0.1:${String(proxyMetrics)}`,
        `--nodeport-addresses=${KUBE_NETWORK.hostAddress}/32`,
        // Zero leaves the machine's conntrack settings as they are.
        '--conntrack-max-per-core=0',
        '--conntrack-tcp-timeout-established=0s',
        '--conntrack-tcp-timeout-close-wait=0s',
      ],
      (proc) =>
        waitFor(
          'kube-proxy health',
          async () => {
            const res = await fetch(`http://127.0.0.1:${String(proxyHealthz)}/healthz`);
            if (!res.ok) throw new Error(`HTTP ${res.status}`);
          },
          { proc },
        ),
    );
    fs.writeFileSync(path.join(dir, 'Corefile'), corefile(kubeconfig));
    const clusterDns = new Resolver({ timeout: 1000, tries: 1 });
    clusterDns.setServers([KUBE_NETWORK.hostAddress]);
    await start('coredns', ['-conf', path.join(dir, 'Corefile')], (proc) =>
      waitFor(
        'CoreDNS answering kubernetes.default',
        async () => {
          const answer = await clusterDns.resolve4('kubernetes.default.svc.cluster.local');
          if (!answer.includes(KUBE_NETWORK.apiServiceAddress)) throw new Error(`answered ${answer.join(', ')}`);
        },
        { proc },
      ),
    );
  } catch (e) {
    await stop().catch((teardown: unknown) => log(String(teardown)));
    throw e;
  }

  return {
    kubeconfig,
    kubectl,
    importImage: (archive: string) => {
      ctr(['images', 'import', archive]);
    },
    logDir,
    stop,
  };
}

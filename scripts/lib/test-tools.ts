import { ENGINE_TOOLS } from '../deploy/engine';
import { CLUSTER_TOOLS } from './kube-cluster';

/**
 * The install-infra.sh tools jest projects run, in the order `npm test` needs them: the stack's servers and
 * Chromium before anything else; the chart's checks and the compose tier's engine built beside the build and
 * checks, and ready before the first project starts (the deploy and compose suites read compose's config as
 * they load); the kubernetes tier's (kube-cluster.ts's) built beside the other projects, awaited by the
 * cluster itself. k6 and Lighthouse are the benchmarks', not the tests'.
 */
export const TEST_TOOLS = {
  stack: ['postgresql', 'ferretdb', 'minio', 'maildev', 'nginx', 'chromium'],
  beforeProjects: ['helm', 'kubeconform', ...ENGINE_TOOLS],
  cluster: CLUSTER_TOOLS,
};

import { ENGINE_TOOLS } from '../deploy/engine';

/**
 * Every install-infra.sh tool that some jest project runs (`npm test` installs them all before the first
 * project starts): the stack's servers, Chromium, the chart's checks, the compose tier's engine and the
 * kubernetes tier's node. k6 and Lighthouse are the benchmarks', not the tests'.
 */
export const TEST_TOOLS = [
  'postgresql',
  'ferretdb',
  'minio',
  'maildev',
  'nginx',
  'chromium',
  'helm',
  'kubeconform',
  ...ENGINE_TOOLS,
  'kube-node',
  'kubernetes',
  'coredns',
];

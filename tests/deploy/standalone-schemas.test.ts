/**
 * The Kubernetes schemas made standalone (scripts/ci/standalone-k8s-schemas.ts) as kubeconform looks them up.
 */
import { schemaFileName, standalone } from '../../scripts/ci/standalone-k8s-schemas';

describe('Kubernetes schemas made standalone', () => {
  it('names files as kubeconform looks them up', () => {
    expect(schemaFileName('apps/v1', 'Deployment')).toBe('deployment-apps-v1.json');
    expect(schemaFileName('v1', 'Service')).toBe('service-v1.json');
    expect(schemaFileName('networking.k8s.io/v1', 'NetworkPolicy')).toBe('networkpolicy-networking-v1.json');
  });

  it('inlines the definitions a kind reaches, and only those', () => {
    const definitions = {
      'a.Spec': { type: 'object', description: 'dropped', properties: { item: { $ref: '#/$defs/a.Item' } } },
      'a.Item': { type: 'string' },
      'a.Unused': { type: 'number' },
    };
    const kind = { $id: 'https://kubernetes.io/x', properties: { spec: { $ref: '/api/_definitions.json#/$defs/a.Spec' } } };
    expect(standalone(kind, definitions)).toEqual({
      properties: { spec: { $ref: '#/$defs/a.Spec' } },
      $defs: { 'a.Item': { type: 'string' }, 'a.Spec': { type: 'object', properties: { item: { $ref: '#/$defs/a.Item' } } } },
    });
  });
});

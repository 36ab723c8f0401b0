import { testStack } from './stack-env';

/** Stops or starts one process of the running test stack (see scripts/lib/control-server.ts). */
export async function controlComponent(name: string, action: 'stop' | 'start'): Promise<void> {
  const res = await fetch(`${testStack().controlUrl}/components/${name}/${action}`, { method: 'POST' });
  if (!res.ok) throw new Error(`could not ${action} ${name}: ${res.status} ${await res.text()}`);
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ComponentName, Stack } from './stack';

/**
 * Loopback-only endpoint through which tests stop and start one process of the running stack
 * (`POST /components/vote/stop`), to prove the rest keeps working while it is down.
 */
export async function startControlServer(stack: Stack, components: readonly ComponentName[]): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const match = /^\/components\/([a-z]+)\/(start|stop)$/.exec(req.url ?? '');
    const name = match?.[1] as ComponentName | undefined;
    if (req.method !== 'POST' || !match || !name || !components.includes(name)) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"Not found"}');
      return;
    }
    const action = match[2] === 'stop' ? stack.stopComponent(name) : stack.startComponent(name);
    action.then(
      () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ component: name, action: match[2] })),
      (error: unknown) => res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: String(error) })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

#!/usr/bin/env node
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createStaticServer } from './index';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    spa: { type: 'boolean', default: false },
  },
});
const port = Number(values.port);
if (!values.dir || !Number.isInteger(port) || port <= 0) {
  process.stderr.write('usage: logovote-static --dir DIR --port PORT [--host HOST] [--spa]\n');
  process.exit(2);
}
const dir = resolve(values.dir);
const server = createStaticServer({ dir, spa: values.spa });
server.listen(port, values.host, () => process.stdout.write(`serving ${dir} on http://${values.host}:${port}\n`));
const stop = () => {
  server.close(() => process.exit(0));
  // The gateway keeps upstream connections alive; idle ones must not hold the shutdown.
  server.closeIdleConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

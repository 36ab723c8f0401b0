import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Router from '@koa/router';
import pino from 'pino';
import { createServiceApp } from '@logovote/service-kit';
import { multipartUpload } from '../src';

jest.setTimeout(15_000);

const BOUNDARY = 'rate-test';
let server: Server;
let port: number;
let handled = 0;

beforeAll(async () => {
  const router = new Router();
  router.post(
    '/upload',
    multipartUpload({
      fileField: 'logos',
      maxFiles: 1,
      maxFileBytes: 1024 * 1024,
      textFields: [],
      maxFieldBytes: 0,
      tooManyFilesMessage: 'One file',
      uploadRate: { minBytesPerSecond: 1024, graceSeconds: 1, maxSeconds: 30 },
    }),
    (ctx) => {
      handled++;
      ctx.body = {};
    },
  );
  server = createServiceApp({ service: 'test', logger: pino({ level: 'silent' }), routers: [router], readiness: [] }).listen(
    0,
    '127.0.0.1',
  );
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('answers an upload that trickles with a JSON 408, closes its connection, and never hands it to the route', async () => {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="logos"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
  const answer = await new Promise<string>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.write(
        `POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 500000\r\n\r\n${head}`,
      );
    });
    // A byte every 200 ms, as long as the server listens: it must end the exchange itself.
    const timer = setInterval(() => socket.writable && socket.write('x'), 200);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    });
  });
  const [headers = '', body] = answer.split('\r\n\r\n');
  expect(headers).toMatch(/^HTTP\/1\.1 408/);
  expect(headers).toMatch(/\r\nConnection: close\r\n/i);
  expect(headers).toMatch(/\r\nContent-Type: application\/json/i);
  expect(JSON.parse(body ?? '')).toEqual({
    message: 'The upload was too slow: less than 1 kB per second. Please try again on a faster connection.',
  });
  expect(handled).toBe(0);
});

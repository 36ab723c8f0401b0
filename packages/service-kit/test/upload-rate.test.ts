import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { watchUploadRate, type UploadRateLimits } from '../src';

jest.setTimeout(15_000);

const limits: UploadRateLimits = { minBytesPerSecond: 200, graceSeconds: 1, maxSeconds: 3 };
const BODY_BYTES = 100_000;

let server: Server;
let port: number;
/** What each watched request ended with: the too-slow message, or 'complete'. */
const outcomes: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const stop = watchUploadRate(req, limits, (message) => {
      outcomes.push(message);
      res.writeHead(408, { Connection: 'close' }).end(message);
    });
    req.resume();
    req.on('end', () => {
      stop();
      outcomes.push('complete');
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => (outcomes.length = 0));

/** Sends the headers of a POST, then `chunkBytes` every `everyMs`; resolves with the answer once the server closes. */
function upload(chunkBytes: number, everyMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.write(`POST /upload HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`);
    });
    let sent = 0;
    const timer = setInterval(() => {
      const bytes = Math.min(chunkBytes, BODY_BYTES - sent);
      if (bytes > 0 && socket.writable) socket.write(Buffer.alloc(bytes, 'x'));
      sent += bytes;
    }, everyMs);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(answer);
    });
  });
}

describe('watchUploadRate', () => {
  it('calls a body that trickles too slow once the grace period is over', async () => {
    const answer = await upload(1, 200);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(outcomes).toEqual(['The upload was too slow: less than 200 bytes per second. Please try again on a faster connection.']);
  });

  it('calls a body still arriving after the longest upload time, however fast it comes', async () => {
    // 1 000 bytes every 50 ms (20 kB/s, a hundred times the minimum): the 100 kB body would take 5 s, the limit is 3 s.
    const answer = await upload(1000, 50);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(outcomes).toEqual(['The upload took longer than 3 seconds. Please try again on a faster connection.']);
  });

  it('leaves a body that arrives in time alone, and stops watching it once complete', async () => {
    expect(await upload(BODY_BYTES, 10)).toMatch(/^HTTP\/1\.1 200/);
    // Longer than the longest upload time: no late call once the body is complete.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(outcomes).toEqual(['complete']);
  });
});

import * as net from 'node:net';

// Just enough of the MongoDB wire protocol (OP_MSG + BSON) to send
// { ping: 1, $db: "admin" } and read `ok` back, so readiness means "answers
// MongoDB commands" without pulling in a driver.

const OP_MSG = 2013;

function cstring(s: string): Buffer {
  return Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
}

function pingCommand(): Buffer {
  const ping = Buffer.concat([Buffer.from([0x10]), cstring('ping'), int32(1)]);
  const dbName = cstring('admin');
  const db = Buffer.concat([Buffer.from([0x02]), cstring('$db'), int32(dbName.length), dbName]);
  const body = Buffer.concat([ping, db, Buffer.from([0])]);
  return Buffer.concat([int32(body.length + 4), body]);
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
}

/** Reads the top-level numeric `ok` field of a BSON document (undefined if absent). */
function readOk(doc: Buffer): number | undefined {
  let i = 4;
  while (i < doc.length - 1) {
    const type = doc[i] ?? 0;
    const nameEnd = doc.indexOf(0, i + 1);
    if (type === 0 || nameEnd < 0) return undefined;
    const name = doc.toString('utf8', i + 1, nameEnd);
    i = nameEnd + 1;
    let size: number;
    switch (type) {
      case 0x01: // double
        if (name === 'ok') return doc.readDoubleLE(i);
        size = 8;
        break;
      case 0x10: // int32
        if (name === 'ok') return doc.readInt32LE(i);
        size = 4;
        break;
      case 0x12: // int64
        if (name === 'ok') return Number(doc.readBigInt64LE(i));
        size = 8;
        break;
      case 0x02: // string
      case 0x0d: // javascript
      case 0x0e: // symbol
        size = 4 + doc.readInt32LE(i);
        break;
      case 0x03: // document
      case 0x04: // array
        size = doc.readInt32LE(i);
        break;
      case 0x05: // binary
        size = 5 + doc.readInt32LE(i);
        break;
      case 0x07: // ObjectId
        size = 12;
        break;
      case 0x08: // bool
        size = 1;
        break;
      case 0x09: // datetime
      case 0x11: // timestamp
        size = 8;
        break;
      case 0x0a: // null
      case 0x06: // undefined
      case 0x7f: // maxkey
      case 0xff: // minkey
        size = 0;
        break;
      case 0x13: // decimal128
        size = 16;
        break;
      default:
        return undefined; // types a ping reply never contains
    }
    i += size;
  }
  return undefined;
}

/** Sends one `ping` to a MongoDB-compatible server; resolves if it answers ok: 1. */
export function mongoPing(host: string, port: number, timeoutMs = 3000): Promise<void> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port });
    let buf = Buffer.alloc(0);
    const fail = (e: Error): void => {
      sock.destroy();
      reject(e);
    };
    sock.setTimeout(timeoutMs, () => fail(new Error('ping timed out')));
    sock.once('error', fail);
    sock.once('connect', () => {
      const section = Buffer.concat([int32(0) /* flagBits */, Buffer.from([0]) /* kind 0 */, pingCommand()]);
      const header = Buffer.concat([int32(16 + section.length), int32(1), int32(0), int32(OP_MSG)]);
      sock.write(Buffer.concat([header, section]));
    });
    sock.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 4 || buf.length < buf.readInt32LE(0)) return;
      sock.destroy();
      if (buf.readInt32LE(12) !== OP_MSG) return reject(new Error(`unexpected reply opcode ${buf.readInt32LE(12)}`));
      // header (16) + flagBits (4) + section kind (1) = document start
      const ok = readOk(buf.subarray(21, 21 + buf.readInt32LE(21)));
      if (ok === 1) resolve();
      else reject(new Error(`ping answered without ok: 1 (ok=${String(ok)})`));
    });
  });
}

/**
 * A server-sent events client for tests and the bench (live results, docs/live-results.md): Node's own
 * HTTP client, one connection per stream, each event's data parsed as JSON as it arrives.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface EventStream<Event> {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body of an answer that is not a stream (an error's JSON). */
  body: string;
  /** Every event's data so far, and when each arrived (performance.now()). */
  events: Event[];
  arrivals: number[];
  /** Resolves when the server ends the stream (or it breaks). */
  ended: Promise<void>;
  /** The first event, seen or to come, that `match` accepts; rejects after `timeoutMs` or when the stream ends. */
  waitFor(match: (event: Event) => boolean, timeoutMs?: number): Promise<Event>;
  close(): void;
}

export interface EventStreamOptions {
  /** The source address (any of 127/8 on Linux), so many streams can come from many "clients". */
  localAddress?: string;
  headers?: Record<string, string>;
}

/** GET `url` as an EventSource would; resolves once the answer's headers (and, for an error, its body) are in. */
export function openEventStream<Event = unknown>(url: string, options: EventStreamOptions = {}): Promise<EventStream<Event>> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      agent: false,
      headers: { Accept: 'text/event-stream', ...options.headers },
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const waiters = new Set<{ match: (event: Event) => boolean; done: (event?: Event) => void }>();
      let endedResolve: () => void = () => undefined;
      const stream: EventStream<Event> = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: '',
        events: [],
        arrivals: [],
        ended: new Promise<void>((done) => (endedResolve = done)),
        waitFor(match, timeoutMs = 15_000) {
          const seen = stream.events.find(match);
          if (seen !== undefined) return Promise.resolve(seen);
          return new Promise((found, fail) => {
            const timer = setTimeout(() => waiter.done(), timeoutMs);
            const waiter = {
              match,
              done: (event?: Event) => {
                clearTimeout(timer);
                waiters.delete(waiter);
                if (event === undefined) fail(new Error(`no matching event on ${url} (${stream.events.length} events)`));
                else found(event);
              },
            };
            waiters.add(waiter);
          });
        },
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      let pending = '';
      res.on('data', (chunk: string) => {
        if (stream.status !== 200) {
          stream.body += chunk;
          return;
        }
        pending += chunk;
        let boundary = pending.indexOf('\n\n');
        while (boundary >= 0) {
          const block = pending.slice(0, boundary);
          pending = pending.slice(boundary + 2);
          boundary = pending.indexOf('\n\n');
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart());
          if (data.length === 0) continue; // a comment (heartbeat) or the retry field
          const event = JSON.parse(data.join('\n')) as Event;
          stream.events.push(event);
          stream.arrivals.push(performance.now());
          for (const waiter of [...waiters]) if (waiter.match(event)) waiter.done(event);
        }
      });
      const finish = () => {
        for (const waiter of [...waiters]) waiter.done();
        endedResolve();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      if (stream.status === 200) resolve(stream);
      else res.on('end', () => resolve(stream));
    });
    req.end();
  });
}

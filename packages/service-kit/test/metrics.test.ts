import pino from 'pino';
import request from 'supertest';
import { countDbCommand, createServiceApp, dbCommandCounts, dbCommandMetrics } from '../src';

describe('database command metrics', () => {
  it('writes one Prometheus counter line per command, sorted by name', () => {
    expect(dbCommandMetrics({ update: 2, find: 123, aggregate: 1 })).toBe(
      [
        '# HELP logovote_db_commands_total Database commands this process started, by command name.',
        '# TYPE logovote_db_commands_total counter',
        'logovote_db_commands_total{command="aggregate"} 1',
        'logovote_db_commands_total{command="find"} 123',
        'logovote_db_commands_total{command="update"} 2',
        '',
      ].join('\n'),
    );
  });

  it('keeps a label value that could break the line out of the format', () => {
    expect(dbCommandMetrics({ 'a"b\\c\nd': 1 })).toContain('logovote_db_commands_total{command="a_b_c_d"} 1\n');
  });

  it("counts the commands work asks for, not the driver's own hello, ping and session ends", () => {
    const before = dbCommandCounts();
    for (const name of ['find', 'find', 'insert', 'hello', 'isMaster', 'ping', 'endSessions']) countDbCommand(name);
    const after = dbCommandCounts();
    expect((after.find ?? 0) - (before.find ?? 0)).toBe(2);
    expect((after.insert ?? 0) - (before.insert ?? 0)).toBe(1);
    expect(Object.keys(after).filter((name) => ['hello', 'isMaster', 'ping', 'endSessions'].includes(name))).toEqual([]);
  });

  it("answers GET /metrics on the service's port with the counts so far", async () => {
    countDbCommand('delete');
    const app = createServiceApp({ service: 'test', logger: pino({ level: 'silent' }), routers: [], readiness: [] });
    const res = await request(app.callback()).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.text).toBe(dbCommandMetrics(dbCommandCounts()));
    expect(res.text).toMatch(/^logovote_db_commands_total\{command="delete"\} [1-9]\d*$/m);
  });
});

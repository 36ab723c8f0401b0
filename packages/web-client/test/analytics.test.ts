// The client under test is browser code: type-check it against the DOM library wherever this test is compiled.
/// <reference lib="dom" />

import type { AnalyticsBatch } from '@logovote/contracts';

import { createAnalytics, type AnalyticsTransport } from '../src/analytics';

function recordingTransport(beaconAccepts = true) {
  const sent: { via: 'beacon' | 'post'; batch: AnalyticsBatch }[] = [];
  const transport: AnalyticsTransport = {
    beacon: (_url, body) => {
      if (beaconAccepts) sent.push({ via: 'beacon', batch: JSON.parse(body) as AnalyticsBatch });
      return beaconAccepts;
    },
    post: (_url, body) => {
      sent.push({ via: 'post', batch: JSON.parse(body) as AnalyticsBatch });
    },
  };
  return { sent, transport };
}

const fixed = { currentPath: () => '/vote/AAAAAAAAAAAAAAAA', now: () => new Date('2025-05-24T10:00:00.000Z') };

describe('analytics queue', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('batches events and sends them shortly after the first one', () => {
    const { sent, transport } = recordingTransport();
    const analytics = createAnalytics({ transport, flushDelayMs: 1000, ...fixed });
    analytics.pageView();
    analytics.track('vote_submitted', { session_id: 'AAAAAAAAAAAAAAAA', logo_id: 'logo-1' });
    expect(sent).toHaveLength(0);
    jest.advanceTimersByTime(1000);
    expect(sent).toEqual([
      {
        via: 'post',
        batch: {
          events: [
            { name: 'page_view', path: '/vote/AAAAAAAAAAAAAAAA', occurredAt: '2025-05-24T10:00:00.000Z' },
            {
              name: 'vote_submitted',
              path: '/vote/AAAAAAAAAAAAAAAA',
              occurredAt: '2025-05-24T10:00:00.000Z',
              session_id: 'AAAAAAAAAAAAAAAA',
              logo_id: 'logo-1',
            },
          ],
        },
      },
    ]);
    expect(analytics.pending()).toHaveLength(0);
  });

  it("sends vote_confirmed's saw_all_logos whether true or false", () => {
    const { sent, transport } = recordingTransport();
    const analytics = createAnalytics({ transport, flushDelayMs: 1000, ...fixed });
    analytics.track('vote_confirmed', { session_id: 'AAAAAAAAAAAAAAAA', logo_id: 'logo-1', saw_all_logos: false });
    analytics.track('vote_confirmed', { session_id: 'AAAAAAAAAAAAAAAA', logo_id: 'logo-2', saw_all_logos: true });
    jest.advanceTimersByTime(1000);
    expect(sent[0]?.batch.events.map((event) => event.saw_all_logos)).toEqual([false, true]);
  });

  it('flushes at once when the queue is full', () => {
    const { sent, transport } = recordingTransport();
    const analytics = createAnalytics({ transport, maxQueued: 3, ...fixed });
    for (let i = 0; i < 3; i += 1) analytics.pageView();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.batch.events).toHaveLength(3);
  });

  it('uses sendBeacon when flushing for a hidden page, and falls back to fetch when the beacon is refused', () => {
    const beacon = recordingTransport(true);
    const withBeacon = createAnalytics({ transport: beacon.transport, ...fixed });
    withBeacon.track('results_viewed', { session_id: 'AAAAAAAAAAAAAAAA' });
    withBeacon.flush(true);
    expect(beacon.sent.map((s) => s.via)).toEqual(['beacon']);

    const refused = recordingTransport(false);
    const withoutBeacon = createAnalytics({ transport: refused.transport, ...fixed });
    withoutBeacon.track('survey_created', { session_id: 'AAAAAAAAAAAAAAAA' });
    withoutBeacon.flush(true);
    expect(refused.sent.map((s) => s.via)).toEqual(['post']);
  });

  it('never throws, even when the transport does', () => {
    const transport: AnalyticsTransport = {
      beacon: () => {
        throw new Error('boom');
      },
      post: () => {
        throw new Error('boom');
      },
    };
    const analytics = createAnalytics({ transport, maxQueued: 1, ...fixed });
    expect(() => analytics.pageView()).not.toThrow();
    expect(() => analytics.flush(true)).not.toThrow();
  });
});

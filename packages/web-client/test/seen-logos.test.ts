import { rememberSeenLogos, seenLogos, unseenLogoCount, unseenLogosText, type SeenLogosStorage } from '../src/seen-logos';

const memoryStorage = (): SeenLogosStorage & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
};

describe('the logos a voter has seen, per poll', () => {
  it('remembers what was seen in each poll, adding to what is known', () => {
    const storage = memoryStorage();
    expect(seenLogos('poll-a', storage)).toEqual(new Set());
    rememberSeenLogos('poll-a', ['logo-1'], storage);
    rememberSeenLogos('poll-a', ['logo-3', 'logo-1'], storage);
    rememberSeenLogos('poll-b', ['logo-9'], storage);
    expect(seenLogos('poll-a', storage)).toEqual(new Set(['logo-1', 'logo-3']));
    expect(seenLogos('poll-b', storage)).toEqual(new Set(['logo-9']));
  });

  it('writes nothing when nothing new was seen', () => {
    const storage = memoryStorage();
    rememberSeenLogos('poll-a', ['logo-1'], storage);
    const setItem = jest.spyOn(storage, 'setItem');
    rememberSeenLogos('poll-a', ['logo-1'], storage);
    expect(setItem).not.toHaveBeenCalled();
  });

  it('knows nothing from storage that holds nonsense or refuses, and does not throw', () => {
    const storage = memoryStorage();
    storage.items.set('logovote.seenLogos.poll-a', '{not json');
    expect(seenLogos('poll-a', storage)).toEqual(new Set());
    storage.items.set('logovote.seenLogos.poll-a', '{"logo-1":true}');
    expect(seenLogos('poll-a', storage)).toEqual(new Set());
    storage.items.set('logovote.seenLogos.poll-a', '["logo-1",7,null]');
    expect(seenLogos('poll-a', storage)).toEqual(new Set(['logo-1']));
    const refusing: SeenLogosStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    expect(seenLogos('poll-a', refusing)).toEqual(new Set());
    expect(() => rememberSeenLogos('poll-a', ['logo-1'], refusing)).not.toThrow();
    expect(seenLogos('poll-a', undefined)).toEqual(new Set());
  });

  it('counts the logos neither seen nor on screen, and says so as the voting screen does', () => {
    const logos = ['logo-1', 'logo-2', 'logo-3', 'logo-4'];
    expect(unseenLogoCount(logos, new Set(), 'logo-1')).toBe(3);
    expect(unseenLogoCount(logos, new Set(['logo-2', 'logo-4']), 'logo-1')).toBe(1);
    expect(unseenLogoCount(logos, new Set(['logo-2', 'logo-3', 'logo-4']), 'logo-1')).toBe(0);
    // Ids of another poll count for nothing.
    expect(unseenLogoCount(logos, new Set(['logo-9']))).toBe(4);
    expect(unseenLogosText(3)).toBe('3 logos not seen yet');
    expect(unseenLogosText(1)).toBe('1 logo not seen yet');
  });
});

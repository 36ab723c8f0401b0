import { arrivalChannel, type ArrivalStorage } from '../src/arrival-channel';

const channels = [
  { id: 'news0001', name: 'Newsletter' },
  { id: 'insta001', name: 'Instagram' },
];

function memoryStorage(): ArrivalStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('the channel of the first arrival (docs/channels.md)', () => {
  it('keeps the first link a browser came through, whatever link it comes through later', () => {
    const storage = memoryStorage();
    expect(arrivalChannel('poll1', channels, 'news0001', storage)).toBe('news0001');
    expect(arrivalChannel('poll1', channels, 'insta001', storage)).toBe('news0001');
    expect(arrivalChannel('poll1', channels, null, storage)).toBe('news0001');
  });

  it('remembers a first arrival through the plain link as none, per poll', () => {
    const storage = memoryStorage();
    expect(arrivalChannel('poll1', channels, null, storage)).toBeUndefined();
    expect(arrivalChannel('poll1', channels, 'insta001', storage)).toBeUndefined();
    expect(arrivalChannel('poll2', channels, 'insta001', storage)).toBe('insta001');
  });

  it('takes an id of no channel of the poll for the plain link', () => {
    const storage = memoryStorage();
    expect(arrivalChannel('poll1', channels, 'unknown1', storage)).toBeUndefined();
    expect(arrivalChannel('poll1', channels, 'news0001', storage)).toBeUndefined();
  });

  it('keeps nothing for a poll without channels', () => {
    const storage = memoryStorage();
    expect(arrivalChannel('poll1', undefined, 'news0001', storage)).toBeUndefined();
    expect(arrivalChannel('poll1', [], 'news0001', storage)).toBeUndefined();
    expect(storage.items.size).toBe(0);
  });
});

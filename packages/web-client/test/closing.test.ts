import type { SessionView } from '@logovote/contracts';
import { manageLink } from '@logovote/contracts';

import {
  manageUrl,
  rememberCreatorToken,
  storedCreatorToken,
  takeCreatorToken,
  votingStateOf,
  type CreatorTokenStorage,
} from '../src/closing';

const TOKEN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456';
const memoryStorage = (): CreatorTokenStorage & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
};
const session = (extra: object = {}) => ({ sessionId: 'AAAAAAAAAAAAAAAA', logos: [], totalVotes: 0, ...extra }) as SessionView;

describe('creator tokens in the browser', () => {
  it('keeps a token per poll and gives it back', () => {
    const storage = memoryStorage();
    rememberCreatorToken('poll-a', TOKEN, storage);
    expect(storedCreatorToken('poll-a', storage)).toBe(TOKEN);
    expect(storedCreatorToken('poll-b', storage)).toBeUndefined();
    expect(takeCreatorToken('poll-a', storage)).toBe(TOKEN);
  });

  it('keeps nothing that is not a token, and survives a storage that refuses', () => {
    const storage = memoryStorage();
    rememberCreatorToken('poll-a', 'not a token', storage);
    expect(storage.items.size).toBe(0);
    storage.items.set('logovote.creatorToken.poll-a', '<script>');
    expect(storedCreatorToken('poll-a', storage)).toBeUndefined();
    const refusing: CreatorTokenStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    expect(() => rememberCreatorToken('poll-a', TOKEN, refusing)).not.toThrow();
    expect(storedCreatorToken('poll-a', refusing)).toBeUndefined();
  });

  it('builds the manage link as the notify service does', () => {
    expect(manageUrl('https://logovote.example/results/AAAAAAAAAAAAAAAA', TOKEN)).toBe(
      manageLink('https://logovote.example', 'AAAAAAAAAAAAAAAA', TOKEN),
    );
  });
});

describe('votingStateOf', () => {
  it('is open unless the session view says closed: true', () => {
    expect(votingStateOf(session())).toEqual({ closed: false });
    expect(votingStateOf(session({ closed: false }))).toEqual({ closed: false });
    expect(votingStateOf(session({ closed: true, closedAt: '2026-01-02T03:04:05.000Z' }))).toEqual({
      closed: true,
      closedAt: '2026-01-02T03:04:05.000Z',
    });
  });
});

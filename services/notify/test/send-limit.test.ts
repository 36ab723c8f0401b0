import { mailboxOf } from '../src/send-limit';

describe('mailboxOf', () => {
  it.each([
    ['someone@example.org', 'someone@example.org'],
    ['Some.One@Example.ORG', 'some.one@example.org'],
    ['someone+polls@example.org', 'someone@example.org'],
    ['some.one+x+y@gmail.com', 'someone@gmail.com'],
    ['So.Me.One@googlemail.com', 'someone@gmail.com'],
  ])('counts %p as the mailbox %p', (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });
});

import { pollLinks } from '@logovote/contracts';
import { linksEmail } from '../src/links-email';
import { loadConfig } from '../src/config';

describe('the links e-mail', () => {
  const links = pollLinks('https://logovote.example', 'AbCdEfGhIjKlMnOp');

  it('builds the voting and results links from the public origin', () => {
    expect(links).toEqual({
      votingUrl: 'https://logovote.example/vote/AbCdEfGhIjKlMnOp',
      resultsUrl: 'https://logovote.example/results/AbCdEfGhIjKlMnOp',
    });
  });

  it('has both links in the text and the HTML part, and fixed wording', () => {
    const mail = linksEmail('creator@example.com', links);
    expect(mail.to).toBe('creator@example.com');
    expect(mail.subject).toBe('Your LogoVote poll is ready');
    for (const url of [links.votingUrl, links.resultsUrl]) {
      expect(mail.text).toContain(url);
      expect(mail.html).toContain(`<a href="${url}">${url}</a>`);
    }
  });

  it('escapes what it inserts into the HTML', () => {
    const mail = linksEmail('creator@example.com', pollLinks('https://example.com/a?x=1&y="<b>', 'AbCdEfGhIjKlMnOp'));
    expect(mail.html).toContain('https://example.com/a?x=1&amp;y=&quot;&lt;b&gt;/vote/AbCdEfGhIjKlMnOp');
    expect(mail.html).not.toContain('<b>');
  });
});

describe('notify configuration', () => {
  const required = { CSRF_SECRET: 'c'.repeat(32) };

  it('has working local defaults', () => {
    expect(loadConfig(required)).toMatchObject({
      PORT: 4004,
      SMTP_URL: 'smtp://127.0.0.1:1025',
      MAIL_FROM: 'LogoVote <no-reply@logovote.local>',
      PUBLIC_ORIGIN: 'http://localhost:8080',
      NOTIFY_EMAILS_PER_POLL_PER_HOUR: 5,
    });
  });

  it('drops a trailing slash from the public origin', () => {
    expect(loadConfig({ ...required, PUBLIC_ORIGIN: 'https://logovote.example/' }).PUBLIC_ORIGIN).toBe('https://logovote.example');
  });

  it.each([
    ['an SMTP URL of another scheme', { SMTP_URL: 'http://mail.example' }, 'SMTP_URL'],
    ['a public origin that is not a URL', { PUBLIC_ORIGIN: 'logovote' }, 'PUBLIC_ORIGIN'],
    ['no e-mails per hour', { NOTIFY_EMAILS_PER_POLL_PER_HOUR: '0' }, 'NOTIFY_EMAILS_PER_POLL_PER_HOUR'],
    ['no anti-forgery secret', { CSRF_SECRET: undefined }, 'CSRF_SECRET'],
  ])('refuses %s', (_, env, problem) => {
    expect(() => loadConfig({ ...required, ...env })).toThrow(problem);
  });
});

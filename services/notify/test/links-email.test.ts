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

  const logos = [
    { name: 'Ring', backdrop: 'dark' as const, thumbnail: Buffer.from('png bytes') },
    { name: 'Wave', backdrop: 'light' as const },
  ];

  it('has both links in the text and the HTML part', () => {
    const mail = linksEmail('creator@example.com', links, { logos });
    expect(mail.to).toBe('creator@example.com');
    for (const url of [links.votingUrl, links.resultsUrl]) {
      expect(mail.text).toContain(url);
      expect(mail.html).toContain(`<a href="${url}">${url}</a>`);
    }
  });

  it("lists each channel's voting link by its number, never by the name the creator typed", () => {
    const channelVotingUrls = [`${links.votingUrl}?via=abcdEFGH`, `${links.votingUrl}?via=ij-_KL12`];
    const mail = linksEmail('c@example.com', { ...links, channelVotingUrls }, { logos });
    expect(mail.text).toContain(
      [
        `Share this link so people can vote:\n${links.votingUrl}\n`,
        "Or share each channel's own voting link, to see how each audience votes (numbered in the order you named them):",
        `Channel 1: ${channelVotingUrls[0]}`,
        `Channel 2: ${channelVotingUrls[1]}\n`,
        `See the results at any time:\n${links.resultsUrl}`,
      ].join('\n'),
    );
    expect(mail.html).toContain(
      `<br>Channel 1: <a href="${channelVotingUrls[0]}">${channelVotingUrls[0]}</a><br>Channel 2: <a href="${channelVotingUrls[1]}">${channelVotingUrls[1]}</a></p>`,
    );
    // Without channels, nothing about them.
    const plain = linksEmail('c@example.com', links, { logos });
    expect(`${plain.text}${plain.html}`).not.toContain('Channel');
  });

  it('names the poll in the subject: by its question, cut in an inbox-sized line, or by its logos', () => {
    expect(linksEmail('c@example.com', links, { logos, question: '  Which one\nfor the vans?  ' }).subject).toBe(
      'Your LogoVote poll is ready: "Which one for the vans?"',
    );
    expect(linksEmail('c@example.com', links, { logos }).subject).toBe('Your LogoVote poll is ready: Ring, Wave');
    const long = linksEmail('c@example.com', links, { logos, question: 'a'.repeat(200) }).subject;
    expect([...long.slice('Your LogoVote poll is ready: '.length)]).toHaveLength(70);
    expect(long.endsWith('…')).toBe(true);
  });

  it('shows each logo by name, with its thumbnail as an inline image when there is one', () => {
    const mail = linksEmail('c@example.com', links, { logos, question: 'Which?' });
    expect(mail.text).toContain('Your question:\n"Which?"\n\nYour logos:\n- Ring\n- Wave');
    expect(mail.attachments).toEqual([
      { filename: 'logo-1.png', content: logos[0]!.thumbnail, contentType: 'image/png', cid: 'logo-1@logovote' },
    ]);
    expect(mail.html).toContain('<img src="cid:logo-1@logovote" width="64" height="64" alt="Ring"');
    // A light logo's thumbnail is on its dark backdrop, as on the pages (docs/logo-backdrops.md).
    expect(mail.html).toMatch(/<img src="cid:logo-1@logovote"[^>]*background: #18181b/);
    expect(mail.html).toContain('>Wave</div>');
  });

  it('escapes what it inserts into the HTML', () => {
    const mail = linksEmail('creator@example.com', pollLinks('https://example.com/a?x=1&y="<b>', 'AbCdEfGhIjKlMnOp'), {
      logos: [{ name: '<b>Bold</b> "mark"', backdrop: 'light' }],
      question: 'Is <i>this</i> & that "fine"?',
    });
    expect(mail.html).toContain('https://example.com/a?x=1&amp;y=&quot;&lt;b&gt;/vote/AbCdEfGhIjKlMnOp');
    expect(mail.html).toContain('&lt;b&gt;Bold&lt;/b&gt; &quot;mark&quot;');
    expect(mail.html).toContain('Is &lt;i&gt;this&lt;/i&gt; &amp; that &quot;fine&quot;?');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('<i>');
  });
});

describe('notify configuration', () => {
  const required = { CSRF_SECRET: 'c'.repeat(32), S3_ACCESS_KEY: 'key', S3_SECRET_KEY: 'secret-key' };

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

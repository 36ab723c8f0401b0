import { copyLink } from '../lib/copy-link';
import { Button } from './button';
import { CopyIcon } from './icons';

/** One link of a row of copy buttons: `name` is the button's text, `url` what it copies. */
export interface NamedLink {
  id: string;
  name: string;
  url: string;
}

/**
 * A row of small buttons, each copying one link (with the 'Link copied!' toast): a poll's channels' voting
 * links, where there is no room for each link as text. Each button is named 'Copy {what} for {name}'.
 */
export function CopyLinkButtons({
  title,
  what,
  links,
  testId,
}: {
  title: string;
  what: string;
  links: readonly NamedLink[];
  testId?: string;
}) {
  if (links.length === 0) return null;
  return (
    <div data-testid={testId} className="flex flex-wrap items-center gap-2">
      <span className="text-sm text-muted-foreground">{title}</span>
      {links.map((link) => (
        <Button
          key={link.id}
          variant="outline"
          size="sm"
          className="max-w-full"
          aria-label={`Copy ${what.toLowerCase()} for ${link.name}`}
          onClick={() => void copyLink(`${what} for ${link.name}`, link.url)}
        >
          <CopyIcon />
          <span className="truncate">{link.name}</span>
        </Button>
      ))}
    </div>
  );
}

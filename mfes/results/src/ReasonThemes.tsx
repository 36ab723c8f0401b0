import type { LogoThemes, ShownTheme } from '@logovote/contracts';
import { MIN_REASONS_FOR_THEMES } from '@logovote/contracts/limits';
import type { RankedLogo } from '@logovote/contracts/ranking';
import { api } from '@logovote/web-client';

import { useAfterLoadQuery, VoterWordsSection } from './VoterWordsSection';

function ThemeList({ themes, label }: { themes: readonly ShownTheme[]; label: string }) {
  return (
    <ul aria-label={`What voters say about ${label}`} className="flex flex-col gap-2">
      {themes.map((theme) => (
        <li key={theme.label} data-testid="theme" className="text-sm">
          <span data-testid="theme-label" className="font-medium">
            {theme.label}
          </span>{' '}
          <span data-testid="theme-count" className="text-muted-foreground">
            · {theme.count === 1 ? '1 reason' : `${theme.count} reasons`}
          </span>
          {theme.quotes.map((quote) => (
            <q key={quote} data-testid="theme-quote" className="block break-words text-muted-foreground">
              {quote}
            </q>
          ))}
        </li>
      ))}
    </ul>
  );
}

/** One logo's themes, or why it has none yet. */
function LogoThemesItem({ ranked, reasons, themes }: { ranked: RankedLogo; reasons: number; themes: readonly ShownTheme[] }) {
  return (
    <li
      data-testid="logo-themes"
      data-logo-id={ranked.logo.id}
      className="flex flex-col gap-2 border-t border-border pt-3 first:border-t-0 first:pt-0"
    >
      <h3 className="font-semibold break-words">
        {ranked.label} <span className="font-normal text-muted-foreground">· {ranked.logo.name}</span>
      </h3>
      {themes.length > 0 ? (
        <ThemeList themes={themes} label={ranked.label} />
      ) : (
        <p className="text-sm text-muted-foreground">
          {reasons < MIN_REASONS_FOR_THEMES
            ? `Themes show once ${MIN_REASONS_FOR_THEMES} voters have said why (${reasons} so far).`
            : 'No theme is shared by two or more of its reasons yet.'}
        </p>
      )}
    </li>
  );
}

type ReasonThemesProps = { sessionId: string; ranked: readonly RankedLogo[]; creatorToken: string | undefined };

/**
 * What the reasons say (docs/reasons.md, "Themes"): each logo's themes, found on this server from its voters'
 * reasons, with how many reasons say each and one or two of them verbatim; for the creator of a poll with
 * channels, each channel's own. Read after the page has loaded, and again when the live results say reasons
 * changed (the reasons' query key), so the section below the cards never delays the first paint.
 */
export default function ReasonThemes({ sessionId, ranked, creatorToken }: ReasonThemesProps) {
  const themes = useAfterLoadQuery(sessionId, 'themes', () => api.getThemes(sessionId, creatorToken));
  const byLogo = new Map<string, LogoThemes>(themes.data?.logos.map((logo) => [logo.logoId, logo]));
  const channels = [...new Set(themes.data?.logos.flatMap((logo) => logo.channels?.map((group) => group.channel) ?? []))];
  const list = (channel?: string) => (
    <ol className="flex flex-col gap-3">
      {ranked.map((item) => {
        const found = byLogo.get(item.logo.id);
        const group = channel === undefined ? found : found?.channels?.find((entry) => entry.channel === channel);
        return <LogoThemesItem key={item.logo.id} ranked={item} reasons={group?.reasons ?? 0} themes={group?.themes ?? []} />;
      })}
    </ol>
  );
  return (
    <VoterWordsSection
      testId="reason-themes"
      title="What the reasons say"
      description="Themes in voters' reasons, found on this server: the words never leave it."
      status={themes.status}
      loading="Loading themes..."
      failed="Themes could not be loaded."
      tabsLabel="Whose reasons"
      tabTestId="themes-channel"
      all={list()}
      audiences={channels.map((name) => ({ label: name, content: list(name) }))}
    />
  );
}

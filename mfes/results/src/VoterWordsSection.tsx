import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  SpinnerIcon,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
} from '@logovote/ui';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { reasonsQueryKey } from './ReasonList';
import { useAfterPageLoad } from './use-after-page-load';

/**
 * A section below the cards read from what voters said after their vote (themes, attribute answers): read once
 * the page has loaded, so it never delays the first paint, and again when the live results say reasons or
 * answers changed (the reasons' query key, with `part`).
 */
export function useAfterLoadQuery<T>(sessionId: string, part: string, read: () => Promise<T>) {
  const loaded = useAfterPageLoad();
  return useQuery({
    queryKey: [...reasonsQueryKey(sessionId), part],
    queryFn: read,
    enabled: loaded,
    retry: false,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
}

/** One audience's view: all voters, a channel, the plain link. */
export type AudienceView = { label: string; content: ReactNode };

type VoterWordsSectionProps = {
  testId: string;
  title: string;
  description: ReactNode;
  status: 'pending' | 'error' | 'success';
  loading: string;
  failed: string;
  /** Names the tabs for a screen reader ("Whose answers"). */
  tabsLabel: string;
  /** The test id of each tab, where tests pick them. */
  tabTestId?: string;
  /** All voters' view; with channels (the creator's), each audience's after it. */
  all: ReactNode;
  audiences: readonly AudienceView[];
};

/** The card of such a section: its loading and failed lines, then all voters' view, or tabs per audience. */
export function VoterWordsSection(props: VoterWordsSectionProps) {
  const { testId, title, description, status, loading, failed, tabsLabel, tabTestId, all, audiences } = props;
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle className="text-xl">
          <h2>{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {status === 'pending' && (
          <p className="flex items-center gap-1 text-sm text-muted-foreground">
            <SpinnerIcon className="size-3" />
            {loading}
          </p>
        )}
        {status === 'error' && <p className="text-sm text-muted-foreground">{failed}</p>}
        {status === 'success' && audiences.length === 0 && all}
        {status === 'success' && audiences.length > 0 && (
          // Tab values go into element ids: positions, not the audiences' names.
          <Tabs defaultValue="all">
            <TabsList aria-label={tabsLabel} className="h-auto flex-wrap justify-start">
              <TabsTrigger value="all" data-testid={tabTestId}>
                All voters
              </TabsTrigger>
              {audiences.map((audience, index) => (
                <TabsTrigger key={index} value={`audience-${index}`} data-testid={tabTestId}>
                  {audience.label}
                </TabsTrigger>
              ))}
            </TabsList>
            <TabsContent value="all">{all}</TabsContent>
            {audiences.map((audience, index) => (
              <TabsContent key={index} value={`audience-${index}`}>
                {audience.content}
              </TabsContent>
            ))}
          </Tabs>
        )}
      </CardContent>
    </Card>
  );
}

import type { ResultsVisibility } from '@logovote/contracts';
import { Label } from '@logovote/ui';
import { useId } from 'react';

const CHOICES: { value: ResultsVisibility; label: string }[] = [
  { value: 'everyone', label: 'Everyone, at any time' },
  { value: 'after-vote', label: 'Voters, once they have voted' },
  { value: 'after-close', label: 'Everyone, once voting closes' },
];

type Props = { value: ResultsVisibility; onChange: (value: ResultsVisibility) => void; disabled?: boolean };

/**
 * Who sees the results when (docs/results-visibility.md), chosen once at creation. The creator sees them at
 * all times; hiding them until a vote or the close keeps voters from following the crowd.
 */
export function ResultsVisibilityChoice({ value, onChange, disabled }: Props) {
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={`${id}-hint`} disabled={disabled}>
      <legend className="mb-1.5 text-sm leading-none font-medium">Who sees the results</legend>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        You always see them. Hiding them until people have voted keeps anyone from just following the crowd.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-x-6">
        {CHOICES.map((choice) => (
          <div key={choice.value} className="flex items-center gap-2">
            <input
              type="radio"
              id={`${id}-${choice.value}`}
              name={`${id}-results-visibility`}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              className="size-4.5 shrink-0 cursor-pointer accent-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none"
            />
            <Label htmlFor={`${id}-${choice.value}`} className="cursor-pointer font-normal">
              {choice.label}
            </Label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

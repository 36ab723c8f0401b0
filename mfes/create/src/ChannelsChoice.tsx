import { MAX_CHANNEL_NAME_LENGTH, MAX_CHANNELS_PER_POLL } from '@logovote/contracts/limits';
import { Button, Input, Label } from '@logovote/ui';
import { useId, useState, type FormEvent } from 'react';

import { RemovableChip } from './RemovableChip';

type Props = { value: readonly string[]; onChange: (channels: string[]) => void; disabled?: boolean };

/** Why a name cannot be added, in the words of the server's refusal (docs/channels.md), or null. */
function refusal(name: string, channels: readonly string[]): string | null {
  if (!name) return 'Type a name for the channel first.';
  if (channels.some((channel) => channel.toLocaleLowerCase('en-US') === name.toLocaleLowerCase('en-US')))
    return 'Each channel needs a different name.';
  return null;
}

/**
 * Channels (docs/channels.md), optional: named audiences, each with its own voting link, so the results
 * show how each one votes. At most MAX_CHANNELS_PER_POLL names, each at most MAX_CHANNEL_NAME_LENGTH
 * characters and different from the others in any letter case.
 */
export function ChannelsChoice({ value, onChange, disabled }: Props) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const full = value.length >= MAX_CHANNELS_PER_POLL;

  const add = (event: FormEvent) => {
    event.preventDefault();
    const name = draft.trim();
    const refused = refusal(name, value);
    setProblem(refused);
    if (refused) return;
    onChange([...value, name]);
    setDraft('');
  };

  return (
    <fieldset data-testid="channels-choice" className="flex flex-col gap-2" aria-describedby={`${id}-hint`} disabled={disabled}>
      <legend className="mb-1.5 text-sm leading-none font-medium">Channels (optional)</legend>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        Sharing in several places? Give each one its own voting link (e.g. Newsletter, Instagram, Team) and see how each audience votes.
      </p>
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Channels">
          {value.map((name) => (
            <RemovableChip
              key={name}
              name={name}
              removeLabel={`Remove channel ${name}`}
              onRemove={() => onChange(value.filter((channel) => channel !== name))}
            />
          ))}
        </ul>
      )}
      {!full && (
        // Not a <form>: the page's fields are not one; Enter in the name adds it.
        <div className="flex gap-2">
          <Label htmlFor={`${id}-name`} className="sr-only">
            Channel name
          </Label>
          <Input
            id={`${id}-name`}
            value={draft}
            maxLength={MAX_CHANNEL_NAME_LENGTH}
            placeholder="Channel name, e.g. Newsletter"
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              setProblem(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') add(event);
            }}
          />
          <Button type="button" variant="outline" onClick={add}>
            Add
          </Button>
        </div>
      )}
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
    </fieldset>
  );
}

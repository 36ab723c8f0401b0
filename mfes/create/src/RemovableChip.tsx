import { Button, XIcon } from '@logovote/ui';

type RemovableChipProps = { name: string; removeLabel: string; onRemove: () => void; testId?: string };

/** A chosen name (a channel, an attribute) as a chip, with the button that removes it. */
export function RemovableChip({ name, removeLabel, onRemove, testId }: RemovableChipProps) {
  return (
    <li
      data-testid={testId}
      className="flex max-w-full items-center gap-1 rounded-full border border-border bg-muted/40 py-0.5 pr-0.5 pl-3 text-sm"
    >
      <span className="min-w-0 break-words">{name}</span>
      <Button variant="ghost" size="icon" className="size-7 shrink-0 rounded-full" aria-label={removeLabel} onClick={onRemove}>
        <XIcon />
      </Button>
    </li>
  );
}

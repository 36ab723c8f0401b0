import { MAX_ATTRIBUTES_PER_POLL } from '@logovote/contracts/limits';
import { Button, CheckIcon, cn, Icon, Input, Label } from '@logovote/ui';
import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';

import { RemovableChip } from './RemovableChip';
import { addAttribute, ATTRIBUTE_PRESET_NAMES, isChosen, isFull, removeAttribute, togglePreset } from './attribute-choice';

type Props = { value: readonly string[]; onChange: (attributes: string[]) => void; disabled?: boolean };

const ChevronDownIcon = ({ className }: { className?: string }) => (
  <Icon className={className}>
    <path d="m6 9 6 6 6-6" />
  </Icon>
);

/**
 * Brief-fit ratings (docs/attributes.md), optional and folded away: what voters rate the logos on after their
 * vote, presets or the creator's own words, as attribute-choice.ts allows.
 */
export function AttributesChoice({ value, onChange, disabled }: Props) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <fieldset
      data-testid="attributes-choice"
      className="flex min-w-0 flex-col gap-2"
      aria-labelledby={`${id}-toggle`}
      aria-describedby={`${id}-hint`}
      disabled={disabled}
    >
      <legend className="mb-1.5 flex w-full items-center justify-between gap-2">
        <Button
          id={`${id}-toggle`}
          variant="ghost"
          className="-ml-2 h-auto min-h-10 min-w-0 shrink px-2 text-left whitespace-normal"
          aria-expanded={open}
          aria-controls={open ? `${id}-panel` : undefined}
          onClick={() => setOpen(!open)}
        >
          <ChevronDownIcon className={cn('transition-transform', open && 'rotate-180')} />
          Ask what each logo says (optional)
        </Button>
        {(open || value.length > 0) && (
          <span className="shrink-0 text-sm text-muted-foreground tabular-nums" aria-live="polite">
            {value.length} of {MAX_ATTRIBUTES_PER_POLL}
          </span>
        )}
      </legend>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        After voting, voters pick which logo looks most trustworthy, modern… one tap each.
      </p>
      {open && <AttributesPanel id={`${id}-panel`} value={value} onChange={onChange} />}
    </fieldset>
  );
}

function AttributesPanel({ id, value, onChange }: Omit<Props, 'disabled'> & { id: string }) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // A removed chip takes its focused button with it: the focus goes on to the field, enabled again by then.
  const focusInputAfterChange = useRef(false);
  const full = isFull(value);

  useEffect(() => {
    if (!focusInputAfterChange.current) return;
    focusInputAfterChange.current = false;
    input.current?.focus();
  }, [value]);

  const change = (attributes: string[]) => {
    setProblem(null);
    onChange(attributes);
  };

  const add = (event: SyntheticEvent) => {
    event.preventDefault();
    const addition = addAttribute(value, draft);
    if (addition.refusal !== undefined) {
      setProblem(addition.refusal);
      return;
    }
    change(addition.attributes);
    setDraft('');
  };

  const remove = (name: string) => {
    focusInputAfterChange.current = true;
    change(removeAttribute(value, name));
  };

  return (
    <div id={id} className="flex flex-col gap-3">
      <div role="group" aria-label="Suggestions" className="flex flex-wrap gap-2">
        {ATTRIBUTE_PRESET_NAMES.map((preset) => {
          const pressed = isChosen(value, preset);
          return (
            <Button
              key={preset}
              data-testid="attribute-preset"
              variant={pressed ? 'default' : 'outline'}
              size="sm"
              className="rounded-full"
              aria-pressed={pressed}
              disabled={full && !pressed}
              onClick={() => change(togglePreset(value, preset))}
            >
              {pressed && <CheckIcon />}
              {preset}
            </Button>
          );
        })}
      </div>
      <ChosenAttributes value={value} onRemove={remove} />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-input`} className="font-normal text-muted-foreground">
          Or in your own words
        </Label>
        {/* Not a <form>: the page's fields are not one; Enter in the field adds the words. */}
        <div className="flex gap-2">
          <Input
            ref={input}
            id={`${id}-input`}
            data-testid="attribute-input"
            value={draft}
            disabled={full}
            placeholder="e.g. Fits a neighbourhood bakery"
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-error` : full ? `${id}-full` : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              setProblem(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.nativeEvent.isComposing) add(event);
            }}
            className="min-w-0 flex-1"
          />
          <Button data-testid="attribute-add" variant="outline" disabled={full} onClick={add}>
            Add
          </Button>
        </div>
      </div>
      {full && (
        <p id={`${id}-full`} className="text-sm text-muted-foreground">
          That&apos;s the most a poll can ask. Remove one to choose another.
        </p>
      )}
      {problem && (
        <p id={`${id}-error`} data-testid="attribute-error" role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
    </div>
  );
}

/** The chosen attributes in the order voters are asked them, each with its remove button. */
function ChosenAttributes({ value, onRemove }: { value: readonly string[]; onRemove: (name: string) => void }) {
  if (value.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Chosen attributes">
      {value.map((name) => (
        <RemovableChip key={name} testId="attribute-chosen" name={name} removeLabel={`Remove ${name}`} onRemove={() => onRemove(name)} />
      ))}
    </ul>
  );
}

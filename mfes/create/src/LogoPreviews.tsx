import { Button, Input, LogoOnBackdrop, Tooltip, TooltipContent, TooltipTrigger, XIcon } from '@logovote/ui';
import { MAX_LOGO_NAME_LENGTH } from '@logovote/web-client';
import { useId } from 'react';

import { useLogoBackdrop } from './use-logo-backdrop';

/** A chosen logo and the name the creator gives it (prefilled with the file name without its extension). */
export type ChosenLogo = { id: string; file: File; previewUrl: string; name: string };

type Props = {
  logos: readonly ChosenLogo[];
  onRemove: (id: string) => void;
  onRename: (id: string, name: string) => void;
  disabled: boolean;
};

type NameFieldProps = { logo: ChosenLogo; position: number; onRename: (id: string, name: string) => void; disabled: boolean };

/**
 * The logo's name, shown beside its label on the results, in the export, the admin area and the link preview
 * (docs/api/sessions-and-media.md). Left empty, the server names it after the file.
 */
function NameField({ logo, position, onRename, disabled }: NameFieldProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium">
        Name<span className="sr-only"> of logo {position}</span>
      </label>
      <Input
        id={id}
        data-testid="logo-name"
        value={logo.name}
        maxLength={MAX_LOGO_NAME_LENGTH}
        disabled={disabled}
        autoComplete="off"
        onChange={(event) => onRename(logo.id, event.target.value)}
        className="h-9 px-2"
      />
    </div>
  );
}

/** The chosen logo on the backdrop it will be shown on once the poll exists. */
function PreviewImage({ logo, position }: { logo: ChosenLogo; position: number }) {
  const backdrop = useLogoBackdrop(logo.previewUrl);
  return (
    <LogoOnBackdrop
      backdrop={backdrop}
      className="flex aspect-square items-center justify-center overflow-hidden rounded-lg border border-border p-2"
    >
      <img src={logo.previewUrl} alt={`Logo ${position}: ${logo.file.name}`} className="max-h-full max-w-full object-contain" />
    </LogoOnBackdrop>
  );
}

/** The chosen logos, each with its own remove button and name. */
export function LogoPreviews({ logos, onRemove, onRename, disabled }: Props) {
  if (logos.length === 0) return null;
  return (
    <ul aria-label="Chosen logos" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {logos.map((logo, index) => (
        <li key={logo.id} data-testid="logo-preview" className="relative flex min-w-0 flex-col gap-1">
          <PreviewImage logo={logo} position={index + 1} />
          <p className="truncate text-xs text-muted-foreground" title={logo.file.name}>
            {logo.file.name}
          </p>
          <NameField logo={logo} position={index + 1} onRename={onRename} disabled={disabled} />
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                variant="secondary"
                size="icon"
                disabled={disabled}
                onClick={() => onRemove(logo.id)}
                aria-label={`Remove ${logo.file.name}`}
                className="absolute top-1.5 right-1.5 size-8 rounded-full border border-border shadow-sm"
              >
                <XIcon />
              </Button>
            </TooltipTrigger>
            <TooltipContent>Remove logo</TooltipContent>
          </Tooltip>
        </li>
      ))}
    </ul>
  );
}

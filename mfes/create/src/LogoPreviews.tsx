import { Button, Tooltip, TooltipContent, TooltipTrigger, XIcon } from '@logovote/ui';

export type ChosenLogo = { id: string; file: File; previewUrl: string };

type Props = { logos: readonly ChosenLogo[]; onRemove: (id: string) => void; disabled: boolean };

/** The chosen logos, each with its own remove button. */
export function LogoPreviews({ logos, onRemove, disabled }: Props) {
  if (logos.length === 0) return null;
  return (
    <ul aria-label="Chosen logos" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {logos.map((logo, index) => (
        <li key={logo.id} data-testid="logo-preview" className="relative flex flex-col gap-1">
          <div className="flex aspect-square items-center justify-center overflow-hidden rounded-lg border border-border bg-muted/40 p-2">
            <img src={logo.previewUrl} alt={`Logo ${index + 1}: ${logo.file.name}`} className="max-h-full max-w-full object-contain" />
          </div>
          <p className="truncate text-xs text-muted-foreground" title={logo.file.name}>
            {logo.file.name}
          </p>
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

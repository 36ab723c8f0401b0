import { cn, UploadIcon } from '@logovote/ui';
import { ACCEPTED_LOGO_CONTENT_TYPES, ACCEPTED_LOGO_EXTENSIONS, MAX_LOGOS_PER_POLL } from '@logovote/web-client';
import { useId, useRef, useState, type DragEvent } from 'react';

const ACCEPT = [...ACCEPTED_LOGO_CONTENT_TYPES, ...ACCEPTED_LOGO_EXTENSIONS.map((extension) => `.${extension}`)].join(',');

type Props = { chosen: number; onFiles: (files: File[]) => void };

/** Drop zone and file picker: the picker is a real (visually hidden) file input, so it works by keyboard and screen reader. */
export function UploadArea({ chosen, onFiles }: Props) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    onFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <div
      data-testid="upload-area"
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      className={cn(
        'relative flex flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed border-border px-4 py-8 text-center transition-colors focus-within:border-primary focus-within:ring-2 focus-within:ring-ring sm:py-10',
        dragging && 'border-primary bg-primary/5',
      )}
    >
      <UploadIcon className="size-10 text-primary" />
      <div className="flex flex-col gap-1">
        <label htmlFor={inputId} className="cursor-pointer text-base font-medium">
          Drag and drop your logos here, or <span className="text-primary underline underline-offset-4">choose files</span>
        </label>
        <p id={hintId} className="text-sm text-muted-foreground">
          PNG, JPG, SVG or WebP, up to 2MB each. {chosen} of {MAX_LOGOS_PER_POLL} logos chosen.
        </p>
      </div>
      <input
        ref={input}
        id={inputId}
        type="file"
        multiple
        accept={ACCEPT}
        aria-describedby={hintId}
        className="absolute inset-0 size-full cursor-pointer opacity-0"
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          // Picking the same file again after removing it must fire `change` again.
          event.target.value = '';
        }}
      />
    </div>
  );
}

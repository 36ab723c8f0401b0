import { AlertCircleIcon } from '@logovote/ui';

/** Under the picker: the files that were not added because the browser cannot draw them, each by name. */
export function UnreadableFiles({ names }: { names: readonly string[] }) {
  if (names.length === 0) return null;
  return (
    <div
      role="alert"
      data-testid="unreadable-files"
      className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm"
    >
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive" />
      <ul className="flex flex-col gap-1">
        {names.map((name, index) => (
          <li key={`${name}-${index}`} className="break-words">
            <span className="font-medium">&quot;{name}&quot;</span> is not a readable image, so it was not added. Choose a PNG, JPG, SVG or
            WebP file.
          </li>
        ))}
      </ul>
    </div>
  );
}

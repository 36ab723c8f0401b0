import { AlertTriangleIcon, cn, ImageOffIcon } from '@logovote/ui';
import { api } from '@logovote/web-client';
import { useState } from 'react';

/**
 * `admin`: read through /api/admin/logos/ (a poll hidden pending review: its public images are refused,
 * docs/moderation.md).
 */
type Props = { filename: string; alt: string; broken: boolean; admin?: boolean; className?: string };

/** A logo's image, or a crossed-out picture when it cannot be shown (the warning itself comes from the HEAD check). */
export function LogoImage({ filename, alt, broken, admin = false, className }: Props) {
  const [failed, setFailed] = useState(false);
  if (broken || failed) return <ImageOffIcon data-testid="image-missing" className="size-1/2 max-h-8 max-w-8 text-muted-foreground" />;
  return (
    <img
      src={api.logoUrl(filename, admin)}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className={cn('max-h-full max-w-full object-contain', className)}
    />
  );
}

/** The red warning on a logo whose image cannot be fetched. */
export function BrokenImageWarning({ name, className }: { name: string; className?: string }) {
  return (
    <AlertTriangleIcon
      role="img"
      aria-hidden={false}
      aria-label={`The image of ${name} cannot be loaded`}
      data-testid="broken-image-warning"
      className={cn('text-red-600', className)}
    />
  );
}

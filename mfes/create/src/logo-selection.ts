import { ACCEPTED_LOGO_CONTENT_TYPES, ACCEPTED_LOGO_EXTENSIONS, MAX_LOGO_BYTES, MAX_LOGOS_PER_POLL } from '@logovote/web-client';

export type LogoSelection = {
  /** Files to add, in the order given. */
  accepted: File[];
  /** Not png, jpg, jpeg, svg or webp. */
  unsupported: number;
  /** Over 2 MB. */
  oversize: number;
  /** Beyond the 4-logo limit. */
  excess: number;
};

function isSupported(file: File): boolean {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return (
    (ACCEPTED_LOGO_CONTENT_TYPES as readonly string[]).includes(file.type) ||
    (ACCEPTED_LOGO_EXTENSIONS as readonly string[]).includes(extension)
  );
}

/** Spec section 5: which of the dropped or picked files join the `alreadyChosen` logos, and why the others do not. */
export function selectLogos(alreadyChosen: number, files: readonly File[]): LogoSelection {
  const supported = files.filter(isSupported);
  const small = supported.filter((file) => file.size <= MAX_LOGO_BYTES);
  const accepted = small.slice(0, Math.max(0, MAX_LOGOS_PER_POLL - alreadyChosen));
  return {
    accepted,
    unsupported: files.length - supported.length,
    oversize: supported.length - small.length,
    excess: small.length - accepted.length,
  };
}

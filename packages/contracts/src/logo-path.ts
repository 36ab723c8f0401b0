/**
 * Where a logo's image is served: GET and HEAD /api/logos/{filename} (spec section 7; the gateway caches it
 * for a year, immutable, with an ETag). `admin` reads it whatever its poll's state, at
 * /api/admin/logos/{filename}, behind the admin's credentials: the public path refuses a hidden poll's images.
 */
export const logoPath = (filename: string, admin = false): string =>
  `${admin ? '/api/admin/logos/' : '/api/logos/'}${encodeURIComponent(filename)}`;

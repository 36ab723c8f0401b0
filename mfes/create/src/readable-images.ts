/**
 * Whether the browser can draw `file` as an image: a text file renamed to .png passes the type and size
 * checks (spec section 5) but not this one, so it is named in the picker instead of being sent.
 */
async function isReadableImage(file: File): Promise<boolean> {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return true;
  } catch {
    return false;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Those of `logos` whose file the browser cannot draw, in the order given. */
export async function unreadableLogos<T extends { file: File }>(logos: readonly T[]): Promise<T[]> {
  const readable = await Promise.all(logos.map((logo) => isReadableImage(logo.file)));
  return logos.filter((_, index) => !readable[index]);
}

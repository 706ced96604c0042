// A pixel buffer for scenes with too many boxes to draw as canvas paths: boxes are filled
// straight into an ImageData (one 32-bit write per pixel), then put on the canvas at once.

/** A canvas-sized pixel buffer. */
export class Raster {
  private readonly image: ImageData;
  private readonly pixels: Uint32Array;

  /**
   * @param width - width in canvas pixels.
   * @param height - height in canvas pixels.
   */
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.image = new ImageData(width, height);
    this.pixels = new Uint32Array(this.image.data.buffer);
  }

  /**
   * Fills the whole buffer.
   * @param color - a colour from `pixel()`.
   */
  clear(color: number): void {
    this.pixels.fill(color);
  }

  /**
   * Fills the pixels a rectangle covers (at least one), clipped to the buffer.
   * @param x - left, in canvas pixels.
   * @param y - top.
   * @param w - width (may be negative, as after a flipping view).
   * @param h - height.
   * @param color - a colour from `pixel()`.
   */
  fill(x: number, y: number, w: number, h: number, color: number): void {
    const x0 = Math.max(0, Math.floor(Math.min(x, x + w)));
    const y0 = Math.max(0, Math.floor(Math.min(y, y + h)));
    const x1 = Math.min(this.width, Math.max(x0 + 1, Math.round(Math.max(x, x + w))));
    const y1 = Math.min(this.height, Math.max(y0 + 1, Math.round(Math.max(y, y + h))));
    const { pixels, width } = this;
    for (let row = y0; row < y1; row++) pixels.fill(color, row * width + x0, row * width + x1);
  }

  /**
   * Draws the buffer on a canvas, at its top left corner.
   * @param ctx - the canvas context.
   */
  put(ctx: CanvasRenderingContext2D): void {
    ctx.putImageData(this.image, 0, 0);
  }
}

/**
 * A colour `#rrggbb` as the 32-bit value of an opaque pixel of an ImageData (little-endian).
 * @param hex - the colour.
 */
export function pixel(hex: string): number {
  const v = Number.parseInt(hex.slice(1), 16);
  return (0xff000000 | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}

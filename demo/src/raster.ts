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

/**
 * A heat map for scenes with too many boxes to see one by one: the canvas cut into square
 * cells, each coloured by how many boxes have their centre in it (its brightness) and by how
 * its share of marked boxes (in a pair) compares with the whole canvas's (its hue: `cool`
 * below the mean, `warm` above, `mid` at it), drawn small and scaled up smoothly. Boxes spread
 * at random collide about as often everywhere: what shows is where, this frame, more or fewer
 * of them do.
 */
export class Heat {
  private readonly columns: number;
  private readonly rows: number;
  private readonly all: Float32Array;
  private readonly marked: Float32Array;
  private readonly image: ImageData;
  private readonly pixels: Uint32Array;
  private readonly small: HTMLCanvasElement;

  /**
   * @param width - the canvas's width in pixels.
   * @param height - its height.
   * @param cell - a cell's side in canvas pixels.
   */
  constructor(
    readonly width: number,
    readonly height: number,
    readonly cell: number,
  ) {
    this.columns = Math.ceil(width / cell);
    this.rows = Math.ceil(height / cell);
    this.all = new Float32Array(this.columns * this.rows);
    this.marked = new Float32Array(this.columns * this.rows);
    this.image = new ImageData(this.columns, this.rows);
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.small = document.createElement('canvas');
    this.small.width = this.columns;
    this.small.height = this.rows;
  }

  /** Empties every cell. */
  clear(): void {
    this.all.fill(0);
    this.marked.fill(0);
  }

  /**
   * Counts a box whose centre is at canvas pixel (x, y).
   * @param marked - whether it is marked (in a pair).
   */
  add(x: number, y: number, marked: boolean): void {
    const c = Math.floor(x / this.cell);
    const r = Math.floor(y / this.cell);
    if (c < 0 || r < 0 || c >= this.columns || r >= this.rows) return;
    const i = r * this.columns + c;
    this.all[i]!++;
    if (marked) this.marked[i]!++;
  }

  /**
   * Draws the cells over the whole canvas.
   * @param ctx - the canvas context.
   * @param colors - `background` (no box), `cool`, `mid`, `warm`, as `#rrggbb`.
   * @param full - boxes per cell at full brightness.
   */
  draw(
    ctx: CanvasRenderingContext2D,
    colors: { background: string; cool: string; mid: string; warm: string },
    full: number,
  ): void {
    const [bg, cool, mid, warm] = [colors.background, colors.cool, colors.mid, colors.warm].map(
      rgb,
    ) as [number[], number[], number[], number[]];
    const { all, marked, pixels } = this;
    // The mean share over the boxes, and how far a cell's share strays from it by chance
    // (binomial: sqrt(p (1 - p) / n)), so that two standard errors reach the full hue.
    let total = 0;
    let hits = 0;
    for (let i = 0; i < all.length; i++) {
      total += all[i]!;
      hits += marked[i]!;
    }
    const p = total > 0 ? hits / total : 0;
    const spread = Math.max(1e-6, Math.sqrt(p * (1 - p)));
    for (let i = 0; i < all.length; i++) {
      const n = all[i]!;
      const density = Math.min(1, n / full);
      const z = n > 0 ? (marked[i]! / n - p) / (2 * (spread / Math.sqrt(n))) : 0;
      const t = Math.max(-1, Math.min(1, z));
      const end = t < 0 ? cool : warm;
      let v = 0xff000000;
      for (let k = 0; k < 3; k++) {
        const hue = mid[k]! + Math.abs(t) * (end[k]! - mid[k]!);
        v |= Math.round(bg[k]! + density * (hue - bg[k]!)) << (8 * k);
      }
      pixels[i] = v >>> 0;
    }
    this.small.getContext('2d')!.putImageData(this.image, 0, 0);
    ctx.save();
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(this.small, 0, 0, this.columns * this.cell, this.rows * this.cell);
    ctx.restore();
  }
}

// A colour `#rrggbb` as [r, g, b].
function rgb(hex: string): number[] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff];
}

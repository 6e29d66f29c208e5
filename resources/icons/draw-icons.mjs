// Draws the Dockhand app icon with Node built-ins only and writes every file electron-builder uses:
// NxN.png (the Linux icon set, 16-1024), icon.icns (macOS) and icon.ico (Windows), all beside this script.
// Run: node resources/icons/draw-icons.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const OUT_DIR = path.dirname(fileURLToPath(import.meta.url));
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const SUPERSAMPLING = 4;

// The design on a 1024 grid: a crane lowering a container onto a stack on a quay, on a blue tile.
const TILE = { x0: 100, y0: 100, x1: 924, y1: 924, r: 185 };
const TOP_COLOR = [37, 99, 235];
const BOTTOM_COLOR = [30, 58, 138];
const WHITE = [255, 255, 255];
const SHAPES = [
  { box: { x0: 420, y0: 236, x1: 604, y1: 266, r: 15 }, color: WHITE },
  { box: { x0: 505, y0: 250, x1: 519, y1: 412, r: 0 }, color: WHITE },
  { box: { x0: 380, y0: 410, x1: 644, y1: 548, r: 14 }, color: [250, 204, 21], ridges: true },
  { box: { x0: 236, y0: 562, x1: 500, y1: 700, r: 14 }, color: [249, 115, 22], ridges: true },
  { box: { x0: 524, y0: 562, x1: 788, y1: 700, r: 14 }, color: [20, 184, 166], ridges: true },
  { box: { x0: 204, y0: 716, x1: 820, y1: 748, r: 16 }, color: WHITE },
];
const RIDGE_PITCH = 33;
const RIDGE_WIDTH = 8;
const RIDGE_SHADE = 0.8;

function insideRoundedBox(x, y, { x0, y0, x1, y1, r }) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
  const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
  return dx * dx + dy * dy <= r * r;
}

/** The colour at a point of the 1024 grid, or null outside the tile. */
function sample(x, y) {
  if (!insideRoundedBox(x, y, TILE)) return null;
  for (const shape of SHAPES) {
    if (!insideRoundedBox(x, y, shape.box)) continue;
    const inset = shape.box.x0 + 24;
    const onRidge =
      shape.ridges && x > inset && x < shape.box.x1 - 24 && (x - inset) % RIDGE_PITCH < RIDGE_WIDTH;
    return onRidge ? shape.color.map((c) => c * RIDGE_SHADE) : shape.color;
  }
  const t = (y - TILE.y0) / (TILE.y1 - TILE.y0);
  return TOP_COLOR.map((top, i) => top + (BOTTOM_COLOR[i] - top) * t);
}

/** RGBA pixels of the icon at `size`, anti-aliased by averaging a grid of samples per pixel. */
function render(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const scale = 1024 / size;
  const step = 1 / SUPERSAMPLING;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0];
      let covered = 0;
      for (let sy = 0; sy < SUPERSAMPLING; sy++) {
        for (let sx = 0; sx < SUPERSAMPLING; sx++) {
          const color = sample((px + (sx + 0.5) * step) * scale, (py + (sy + 0.5) * step) * scale);
          if (!color) continue;
          covered++;
          for (let i = 0; i < 3; i++) sum[i] += color[i];
        }
      }
      const offset = (py * size + px) * 4;
      if (covered === 0) continue;
      for (let i = 0; i < 3; i++) pixels[offset + i] = Math.round(sum[i] / covered);
      pixels[offset + 3] = Math.round((255 * covered) / (SUPERSAMPLING * SUPERSAMPLING));
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4); // filter byte 0: none
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** ICO with PNG-compressed entries (Windows Vista and later); a width byte of 0 means 256. */
function encodeIco(pngs) {
  const sizes = SIZES.filter((s) => s <= 256);
  const header = Buffer.alloc(6 + sizes.length * 16);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(sizes.length, 4);
  let offset = header.length;
  sizes.forEach((size, i) => {
    const entry = 6 + i * 16;
    const png = pngs.get(size);
    header[entry] = size % 256;
    header[entry + 1] = size % 256;
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...sizes.map((s) => pngs.get(s))]);
}

/** ICNS with PNG entries: each OSType names a point size and scale. */
function encodeIcns(pngs) {
  const types = [
    ['icp4', 16],
    ['icp5', 32],
    ['ic11', 32],
    ['icp6', 64],
    ['ic12', 64],
    ['ic07', 128],
    ['ic08', 256],
    ['ic13', 256],
    ['ic09', 512],
    ['ic14', 512],
    ['ic10', 1024],
  ];
  const entries = types.map(([type, size]) => {
    const png = pngs.get(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + entries.reduce((n, e) => n + e.length, 0), 4);
  return Buffer.concat([head, ...entries]);
}

const pngs = new Map(SIZES.map((size) => [size, encodePng(size, render(size))]));
for (const size of SIZES) writeFileSync(path.join(OUT_DIR, `${size}x${size}.png`), pngs.get(size));
writeFileSync(path.join(OUT_DIR, 'icon.ico'), encodeIco(pngs));
writeFileSync(path.join(OUT_DIR, 'icon.icns'), encodeIcns(pngs));

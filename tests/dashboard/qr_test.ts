// The dashboard's QR encoder: its codes decode (with npm jsqr, test-only) back to the text,
// across versions (short texts to several hundred bytes, with version information).
import assert from "node:assert/strict";
import jsQRModule from "npm:jsqr@^1.4.0";
import { qrModules, qrSvg } from "../../dashboard/client/qr.ts";

// jsqr is CommonJS: its default export is the function at run time, typed as the module.
const jsQR = jsQRModule as unknown as (
  data: Uint8ClampedArray,
  width: number,
  height: number,
) => { data: string } | null;

function decode(modules: boolean[][]): string | undefined {
  const scale = 4;
  const quiet = 4;
  const size = (modules.length + quiet * 2) * scale;
  const pixels = new Uint8ClampedArray(size * size * 4).fill(255);
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const px = (x + quiet) * scale + dx;
          const py = (y + quiet) * scale + dy;
          const at = (py * size + px) * 4;
          pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
        }
      }
    })
  );
  return jsQR(pixels, size, size)?.data;
}

Deno.test("QR codes decode back to their text", () => {
  const texts = [
    "a",
    "HELLO WORLD",
    "otpauth://totp/example.com:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=example.com&algorithm=SHA1&digits=6&period=30",
    "x".repeat(300),
    "Grüße 🙂 ".repeat(20),
  ];
  for (const text of texts) {
    const modules = qrModules(text);
    assert.equal((modules.length - 17) % 4, 0);
    assert.equal(
      decode(modules),
      text,
      `${text.slice(0, 30)} (size ${modules.length})`,
    );
  }
  assert.match(qrSvg("a"), /^<svg [^>]*viewBox="0 0 29 29"/);
  assert.throws(() => qrModules("x".repeat(3000)), RangeError);
});

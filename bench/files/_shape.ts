// The bytes both servers of the files benchmark serve and take.

/** Size of the served and uploaded file: 10 MiB. */
export const FILE_SIZE = 10 * 1024 * 1024;

/** The same pseudo-random 10 MiB in every process. */
export function fileBytes(): Uint8Array {
  const bytes = new Uint8Array(FILE_SIZE);
  let x = 12345;
  for (let i = 0; i < bytes.length; i += 4) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
    bytes[i + 1] = x >>> 16;
    bytes[i + 2] = x >>> 8;
    bytes[i + 3] = x;
  }
  return bytes;
}

/** The multipart body of one upload (the same bytes for both servers). */
export function uploadBody(boundary: string): Uint8Array {
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n{"title":"up"}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="body"; filename="up.bin"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const file = fileBytes();
  const out = new Uint8Array(head.length + file.length + tail.length);
  out.set(head);
  out.set(file, head.length);
  out.set(tail, head.length + file.length);
  return out;
}

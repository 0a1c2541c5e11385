// Standard input (or a child's output) as lines, for the CLI and the proxy.

/** Split a stream into lines (without their `\n`), as buffers, handing each to `line`;
 * `chunkEnd` runs after each chunk's lines (the CLI writes its output once per chunk), and `end`
 * after the last line (a last line without a newline included). The start of a line that has
 * not ended yet is kept as the chunks it came in, joined once when its newline arrives, so a
 * long line costs no more. */
export function lines(
  stream: NodeJS.ReadableStream,
  line: (bytes: Buffer) => void,
  end: () => void,
  chunkEnd: () => void = () => {},
): void {
  let pending: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      line(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
    chunkEnd();
  });
  stream.on('end', () => {
    if (pending.length > 0) line(Buffer.concat(pending));
    end();
  });
}

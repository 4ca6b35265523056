// Reads all of stdin as UTF-8. Not readFileSync(0): when stdin is a pipe in non-blocking mode, a
// synchronous read fails with EAGAIN as soon as the pipe is momentarily empty, even though the
// writer has more to send (a note of a megabyte never arrives in one pipe buffer).
export async function readStdinText(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

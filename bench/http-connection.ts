// A load client's kept-alive HTTP/1.1 connection, one request at a time, over a plain socket. The
// load clients share the benchmark machine's two cores with the service and PostgreSQL; node:http's
// client took 0.11 to 0.18 ms of CPU a request there (its agent, header objects, a parser, a stream
// per answer), which the service's figure paid for and the plain-SQL baseline did not. This one
// writes the request as one string and reads the answer's status, Content-Length or chunks only.
import net from 'node:net';

export interface HttpAnswer { status: number; body: Buffer }

const HEADER_END = Buffer.from('\r\n\r\n');

interface Pending { resolve: (answer: HttpAnswer) => void; reject: (error: Error) => void }

/** The answer in `data` when it is complete: its status, body and length in bytes; null while it is not. */
function parseAnswer(data: Buffer): { answer: HttpAnswer; length: number } | null {
  const headerEnd = data.indexOf(HEADER_END);
  if (headerEnd < 0) return null;
  const head = data.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headerEnd + 4;
  const lengthMatch = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (lengthMatch) {
    const end = bodyStart + Number(lengthMatch[1]);
    return data.length < end ? null : { answer: { status, body: data.subarray(bodyStart, end) }, length: end };
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    // 204, 304 and the like carry no body.
    if (status === 204 || status === 304 || status < 200) return { answer: { status, body: Buffer.alloc(0) }, length: bodyStart };
    throw new Error(`an answer without Content-Length or chunks: ${head.split('\r\n')[0]}`);
  }
  const chunks: Buffer[] = [];
  let at = bodyStart;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('a malformed chunk size');
    const chunkStart = lineEnd + 2;
    if (size === 0) {
      // No trailers are sent to these clients: the last chunk ends with one more CRLF.
      const end = chunkStart + 2;
      return data.length < end ? null : { answer: { status, body: Buffer.concat(chunks) }, length: end };
    }
    if (data.length < chunkStart + size + 2) return null;
    chunks.push(data.subarray(chunkStart, chunkStart + size));
    at = chunkStart + size + 2;
  }
}

export class HttpConnection {
  readonly #host: string;
  readonly #port: number;
  #socket: net.Socket | null = null;
  #received: Buffer = Buffer.alloc(0);
  #pending: Pending | null = null;

  constructor(url: URL) {
    this.#host = url.hostname;
    this.#port = Number(url.port || 80);
  }

  #connect(): net.Socket {
    const socket = net.connect({ host: this.#host, port: this.#port, noDelay: true });
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    const fail = (error: Error) => {
      if (this.#socket === socket) this.#socket = null;
      const pending = this.#pending;
      this.#pending = null;
      pending?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the connection closed before the answer')));
    return socket;
  }

  #onData(chunk: Buffer): void {
    this.#received = this.#received.length ? Buffer.concat([this.#received, chunk]) : chunk;
    let parsed: ReturnType<typeof parseAnswer>;
    try {
      parsed = parseAnswer(this.#received);
    } catch (error) {
      this.#socket?.destroy(error as Error);
      return;
    }
    if (!parsed) return;
    // The body is copied: the rest of the buffer is reused for the next answer.
    const answer = { status: parsed.answer.status, body: Buffer.from(parsed.answer.body) };
    this.#received = this.#received.subarray(parsed.length);
    const pending = this.#pending;
    this.#pending = null;
    pending?.resolve(answer);
  }

  /** One request; `headers` are lines of `Name: value`, without Host and Content-Length. */
  request(method: string, path: string, headers: string[], body?: string): Promise<HttpAnswer> {
    if (this.#pending) return Promise.reject(new Error('one request at a time on a connection'));
    this.#socket ??= this.#connect();
    this.#received = Buffer.alloc(0);
    const length = body === undefined ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
    const head = `${method} ${path} HTTP/1.1\r\nHost: ${this.#host}:${this.#port}\r\n${headers.map((line) => `${line}\r\n`).join('')}${length}\r\n`;
    return new Promise<HttpAnswer>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#socket!.write(body === undefined ? head : head + body);
    });
  }

  close(): void {
    this.#socket?.destroy();
    this.#socket = null;
  }
}

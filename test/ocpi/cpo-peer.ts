// A small real CPO for the tests (node:http on port 0) that speaks the peer side of OCPI 2.2.1:
// versions, credentials (either side starts the handshake), a commands receiver whose answers the
// test chooses, and calls into the service as that CPO. Every message it sends or receives is
// checked against src/ocpi/schemas (a failure fails the test).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizationHeader, tokenOf } from '../../src/ocpi/token-header.ts';
import { MAX_BODY_BYTES } from '../../src/platform/http/body.ts';
import type { OcpiSchemaName } from '../../src/ocpi/schemas/index.ts';
import { ocpiFailure } from '../../src/ocpi/validate.ts';

export function check(name: OcpiSchemaName, value: unknown): void {
  const failure = ocpiFailure(name, value);
  if (failure) throw new Error(`test CPO: ${failure}: ${JSON.stringify(value)}`);
}

/**
 * accept: ACCEPTED, then the result at response_url (50 ms later); reject: REJECTED; silent: ACCEPTED, no result;
 * result-first: the result is POSTed to response_url and answered before the CPO's REJECTED answer is sent
 * (a CPO whose charge point answered at once, deterministically before its own synchronous answer).
 */
export type CommandBehaviour = 'accept' | 'reject' | 'silent' | 'result-first';

/**
 * A broken answer at one path: its JSON cut short (malformed), or a valid answer padded with
 * whitespace past MAX_BODY_BYTES, its size declared in content-length or streamed without it.
 */
export interface BrokenAnswer { path: string; kind: 'malformed' | 'oversized_declared' | 'oversized_streamed' }

export interface Received { method: string; path: string; body: unknown; token: string | null; headers: IncomingMessage['headers'] }

/** A party of the CPO's credentials roles. */
export interface CpoParty { country_code: string; party_id: string }

export interface CpoPeer {
  url: string;
  versionsUrl: string;
  /** The parties of its credentials roles (NL*CPO unless started with others: a hub relays several). */
  parties: CpoParty[];
  /** The token the service must present (A we gave, then C). */
  tokenForService: string;
  /** The token the CPO presents to the service (A from the service, or B/C). */
  tokenToService: string | null;
  received: Received[];
  commandBehaviour: CommandBehaviour;
  /** Answers the last command's response_url with this result (accept mode, after the reply). */
  commandResult: string;
  /** When set, the answer at its path is broken that way (null: every answer is well-formed). */
  broken: BrokenAnswer | null;
  /** Registers with the service (the service issued token A). */
  registerWith(serviceVersionsUrl: string, tokenA: string): Promise<void>;
  /** An OCPI call into the service as this CPO; the envelope and data are checked. */
  call(method: string, url: string, options?: { body?: unknown; bodySchema?: OcpiSchemaName; dataSchema?: OcpiSchemaName; token?: string }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

const now = () => new Date().toISOString();
const ok = (data?: unknown) => ({ ...(data === undefined ? {} : { data }), status_code: 1000, status_message: 'Success', timestamp: now() });

function read(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => { const text = Buffer.concat(chunks).toString('utf8'); resolve(text ? JSON.parse(text) : undefined); });
    req.on('error', reject);
  });
}

export async function startCpoPeer(options: { parties?: CpoParty[] } = {}): Promise<CpoPeer> {
  const peer = {} as CpoPeer;
  peer.parties = options.parties ?? [{ country_code: 'NL', party_id: 'CPO' }];
  const roles = () => peer.parties.map((p, i) => ({ role: 'CPO', business_details: { name: i ? `Test CPO ${i + 1}` : 'Test CPO' }, ...p }));
  peer.received = [];
  peer.commandBehaviour = 'accept';
  peer.commandResult = 'ACCEPTED';
  peer.broken = null;
  peer.tokenForService = `cpo-token-a-${Date.now()}`;
  peer.tokenToService = null;
  const pending: Promise<unknown>[] = [];

  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url!, 'http://x').pathname;
      const body = await read(req);
      const token = tokenOf(req.headers.authorization);
      peer.received.push({ method: req.method!, path, body, token, headers: req.headers });
      const send = (status: number, value: unknown) => {
        check('envelope', value);
        const text = JSON.stringify(value);
        const broken = peer.broken?.path === path ? peer.broken.kind : null;
        res.on('error', () => {}); // the service may cut an oversized answer short
        if (broken === 'malformed') {
          res.writeHead(status, { 'content-type': 'application/json' });
          return res.end(text.slice(0, -1));
        }
        if (broken === 'oversized_declared') {
          const padded = text + ' '.repeat(MAX_BODY_BYTES);
          res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(padded)) });
          return res.end(padded);
        }
        res.writeHead(status, { 'content-type': 'application/json' });
        if (broken === 'oversized_streamed') {
          res.write(text);
          const chunk = ' '.repeat(64 * 1024);
          for (let written = 0; written <= MAX_BODY_BYTES; written += chunk.length) res.write(chunk);
        }
        res.end(broken === 'oversized_streamed' ? undefined : text);
      };
      const answer = (schema: OcpiSchemaName, data: unknown) => { check(schema, data); send(200, ok(data)); };
      if (token !== peer.tokenForService) return send(401, { status_code: 2000, status_message: 'unknown token', timestamp: now() });
      if (req.method === 'GET' && path === '/ocpi/versions') return answer('versions', [{ version: '2.2.1', url: `${peer.url}/ocpi/2.2.1` }]);
      if (req.method === 'GET' && path === '/ocpi/2.2.1') {
        return answer('versionDetails', {
          version: '2.2.1',
          endpoints: [
            { identifier: 'credentials', role: 'RECEIVER', url: `${peer.url}/ocpi/2.2.1/credentials` },
            { identifier: 'commands', role: 'RECEIVER', url: `${peer.url}/ocpi/cpo/2.2.1/commands` },
            { identifier: 'tokens', role: 'RECEIVER', url: `${peer.url}/ocpi/cpo/2.2.1/tokens` },
          ],
        });
      }
      if (req.method === 'POST' && path === '/ocpi/2.2.1/credentials') {
        check('credentials', body);
        const theirs = body as { token: string; url: string };
        // Like a real CPO: read the eMSP's versions with its token B before answering.
        peer.tokenToService = theirs.token;
        const versions = await peer.call('GET', theirs.url, { dataSchema: 'versions' });
        if (versions.status !== 200) return send(400, { status_code: 2000, status_message: 'cannot read versions', timestamp: now() });
        peer.tokenForService = `cpo-token-c-${Date.now()}`;
        return answer('credentials', {
          token: peer.tokenForService, url: peer.versionsUrl,
          roles: roles(),
        });
      }
      const command = /^\/ocpi\/cpo\/2\.2\.1\/commands\/(START_SESSION|STOP_SESSION)$/.exec(path);
      if (req.method === 'POST' && command) {
        check(command[1] === 'START_SESSION' ? 'startSession' : 'stopSession', body);
        if (peer.commandBehaviour === 'result-first') {
          const posted = await peer.call('POST', (body as { response_url: string }).response_url, { body: { result: peer.commandResult }, bodySchema: 'commandResult' });
          if (posted.body.status_code !== 1000) throw new Error(`test CPO: the result was refused: ${JSON.stringify(posted.body)}`);
        }
        if (peer.commandBehaviour === 'reject' || peer.commandBehaviour === 'result-first') return answer('commandResponse', { result: 'REJECTED', timeout: 30, message: [{ language: 'en', text: 'EVSE blocked' }] });
        answer('commandResponse', { result: 'ACCEPTED', timeout: 30 });
        if (peer.commandBehaviour === 'accept') {
          const result = { result: peer.commandResult };
          pending.push(new Promise((r) => setTimeout(r, 50)).then(() =>
            peer.call('POST', (body as { response_url: string }).response_url, { body: result, bodySchema: 'commandResult' })));
        }
        return;
      }
      send(404, { status_code: 2000, status_message: `no such path ${path}`, timestamp: now() });
    })().catch((error) => { res.writeHead(500); res.end(String(error)); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.versionsUrl = `${peer.url}/ocpi/versions`;

  peer.call = async (method, url, options = {}) => {
    if (options.bodySchema) check(options.bodySchema, options.body);
    const token = options.token ?? peer.tokenToService;
    const headers: Record<string, string> = { 'x-request-id': 'r1', 'x-correlation-id': 'c1' };
    if (token) headers.authorization = authorizationHeader(token);
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const body = await response.json();
    check('envelope', body);
    if (options.dataSchema && body.status_code === 1000) check(options.dataSchema, body.data);
    return { status: response.status, body, headers: response.headers };
  };

  peer.registerWith = async (serviceVersionsUrl, tokenA) => {
    peer.tokenToService = tokenA;
    const versions = await peer.call('GET', serviceVersionsUrl, { dataSchema: 'versions' });
    const details = await peer.call('GET', versions.body.data[0].url, { dataSchema: 'versionDetails' });
    const credentialsUrl = details.body.data.endpoints.find((e: { identifier: string }) => e.identifier === 'credentials').url;
    peer.tokenForService = `cpo-token-b-${Date.now()}`;
    const r = await peer.call('POST', credentialsUrl, {
      body: { token: peer.tokenForService, url: peer.versionsUrl, roles: roles() },
      bodySchema: 'credentials', dataSchema: 'credentials',
    });
    if (r.status !== 200) throw new Error(`registration: ${r.status} ${JSON.stringify(r.body)}`);
    peer.tokenToService = r.body.data.token;
  };

  peer.close = async () => {
    await Promise.allSettled(pending);
    await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });
  };
  return peer;
}

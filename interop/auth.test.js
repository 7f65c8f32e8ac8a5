// Interop: the official TypeScript SDK client passing bearer tokens to the
// Go reference server, in both verifying modes of MCP_AUTH_MODE:
//   - jwt: HS256 tokens of a shared secret;
//   - oauth: RS256 tokens of an issuer whose JWKS this test serves, the
//     audience being the server's own resource identifier.
// A missing or bad token gets HTTP 401 with WWW-Authenticate pointing at
// the protected-resource metadata; a token without a tool's scope gets the
// tool's Forbidden error result; a good one gets through to the handler.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const bin = process.env.MCPCORE_ARTICLES_BIN;
if (!bin) throw new Error('MCPCORE_ARTICLES_BIN must name the built examples/articles binary');

const secret = 'interop-secret-of-at-least-32-characters';
const b64 = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

function hs256(claims, key = secret) {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

function rs256(claims, privateKey, kid) {
  const head = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(claims)}`;
  return `${head}.${createSign('RSA-SHA256').update(head).sign(privateKey).toString('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);

// startArticles runs the example over HTTP with env and resolves with its
// endpoint URL, read from its start-up log line.
async function startArticles(env) {
  const server = spawn(bin, [], {
    env: { ...process.env, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.stderr });
    lines.on('line', (line) => {
      log += line + '\n';
      const m = line.match(/Connect an MCP client to (http:\/\/\S+\/mcp)/);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
  });
  return { server, url };
}

async function connect(url, token) {
  const client = new Client({ name: 'interop-auth', version: '1.0.0' });
  const requestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return client;
}

// refusal posts an initialize with token and returns status, challenge and body.
async function refusal(url, token) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
  });
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body: await res.json() };
}

// scopes checks what a connected client with scope articles:read can do.
async function scopes(url, token) {
  const client = await connect(url, token);
  try {
    const ok = await client.callTool({ name: 'fetch_articles', arguments: { pmids: ['1'] } });
    assert.equal(ok.isError, undefined);
    assert.deepEqual(ok.structuredContent, { articles: ['1'] });

    const denied = await client.callTool({ name: 'retract_article', arguments: { pmid: '1' } });
    assert.equal(denied.isError, true);
    assert.equal(denied.structuredContent.error.code, -32005);
    assert.deepEqual(denied.structuredContent.error.data, { missingScopes: ['articles:write'] });
    assert.match(denied.content[0].text, /^Error: Insufficient permissions: this tool needs the scopes articles:write/);
    assert.ok(!JSON.stringify(denied).includes(token.slice(-16)), 'the token is not echoed');
  } finally {
    await client.close();
  }
}

describe('bearer tokens, MCP_AUTH_MODE=jwt', () => {
  let server;
  let url;
  before(async () => {
    ({ server, url } = await startArticles({ MCP_AUTH_MODE: 'jwt', MCP_AUTH_SECRET_KEY: secret }));
  });
  after(() => server?.kill('SIGTERM'));

  test('a client without a token is refused with 401 and where to get one', async () => {
    await assert.rejects(connect(url));
    const r = await refusal(url);
    assert.equal(r.status, 401);
    const origin = new URL(url).origin;
    assert.equal(r.challenge, `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"`);
    assert.equal(r.body.error.code, -32006);
    assert.equal(r.body.id, 1);
    const meta = await (await fetch(`${origin}/.well-known/oauth-protected-resource`)).json();
    assert.equal(meta.resource, `${origin}/mcp`);
    assert.deepEqual(meta.scopes_supported, ['articles:read', 'articles:write']);
  });

  test('bad tokens are refused with 401 and say why', async () => {
    const claims = { sub: 'u1', scope: 'articles:read', exp: now() + 600 };
    for (const [token, why] of [
      [hs256(claims, 'another-secret-of-at-least-32-characters'), "the token's signature does not verify"],
      [hs256({ ...claims, exp: now() - 600 }), 'the token has expired'],
      ['not.a.jwt', 'the token is not a well-formed JWT'],
    ]) {
      const r = await refusal(url, token);
      assert.equal(r.status, 401, why);
      assert.match(r.body.error.message, new RegExp(why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    }
  });

  test("a token's scopes gate each tool", () => scopes(url, hs256({ sub: 'u1', scope: 'articles:read', exp: now() + 600 })));
});

describe('bearer tokens, MCP_AUTH_MODE=oauth with a JWKS', () => {
  let server;
  let url;
  let jwks;
  const resource = 'https://articles.example.com/mcp';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issuer = 'https://issuer.example.com';
  before(async () => {
    jwks = http.createServer((req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }] }));
    });
    jwks.listen(0, '127.0.0.1');
    await once(jwks, 'listening');
    ({ server, url } = await startArticles({
      MCP_AUTH_MODE: 'oauth',
      OAUTH_ISSUER_URL: issuer,
      OAUTH_JWKS_URI: `http://127.0.0.1:${jwks.address().port}/jwks`,
      MCP_SERVER_RESOURCE_IDENTIFIER: resource,
    }));
  });
  after(() => {
    server?.kill('SIGTERM');
    jwks?.close();
  });

  const claims = () => ({ iss: issuer, aud: resource, sub: 'u2', scp: ['articles:read'], exp: now() + 600 });

  test('tokens for another audience or from another issuer are refused', async () => {
    for (const [c, why] of [
      [{ ...claims(), aud: 'https://elsewhere.example.com/mcp' }, 'issued for another audience'],
      [{ ...claims(), iss: 'https://evil.example.com' }, 'an issuer this server does not trust'],
    ]) {
      const r = await refusal(url, rs256(c, privateKey, 'k1'));
      assert.equal(r.status, 401, why);
      assert.equal(r.challenge, `Bearer resource_metadata="https://articles.example.com/.well-known/oauth-protected-resource"`);
      assert.match(r.body.error.message, new RegExp(why));
    }
    const meta = await (await fetch(new URL('/.well-known/oauth-protected-resource', url))).json();
    assert.equal(meta.resource, resource);
    assert.deepEqual(meta.authorization_servers, [issuer]);
  });

  test("the issuer's token gets in, and its scopes gate each tool", () => scopes(url, rs256(claims(), privateKey, 'k1')));
});

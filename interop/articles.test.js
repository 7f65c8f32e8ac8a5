// Interop: the official TypeScript SDK client against the Go reference server.
// The TypeScript client validates structuredContent against the advertised
// outputSchema even on error results, so these tests also prove that the
// widened schema accepts every error envelope the server sends.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const bin = process.env.MCPCORE_ARTICLES_BIN;
if (!bin) throw new Error('MCPCORE_ARTICLES_BIN must name the built examples/articles binary');

const cases = [
  {
    pmids: [],
    text: 'Error: None of 0 PMIDs returned data\n\nRecovery: Try pubmed_search_articles to discover valid PMIDs first.',
    error: { code: -32001, message: 'None of 0 PMIDs returned data', data: { reason: 'no_match', recovery: { hint: 'Try pubmed_search_articles to discover valid PMIDs first.' } } },
  },
  {
    pmids: ['plain'],
    text: 'Error: Item not found in upstream',
    error: { code: -32001, message: 'Item not found in upstream' },
  },
  {
    pmids: ['data'],
    text: 'Error: Item 7 not found',
    error: { code: -32001, message: 'Item 7 not found', data: { itemId: '7' } },
  },
  {
    pmids: ['panic'],
    text: 'Error: An internal error occurred in tool fetch_articles.',
    error: { code: -32603, message: 'An internal error occurred in tool fetch_articles.' },
  },
  {
    pmids: ['queue_full'],
    text: 'Error: Queue at capacity\n\nRecovery: Wait 30 seconds and retry, or reduce batch size.',
    error: { code: -32003, message: 'Queue at capacity', data: { retryable: true, reason: 'queue_full', recovery: { hint: 'Wait 30 seconds and retry, or reduce batch size.' } } },
  },
  {
    pmids: ['ncbi_down'],
    text: 'Error: NCBI E-utilities unreachable after retries',
    error: { code: -32000, message: 'NCBI E-utilities unreachable after retries', data: { retryable: true, reason: 'ncbi_down' } },
  },
];

// exercise runs the same checks over any connected client.
async function exercise(client) {
  const { tools } = await client.listTools(); // caches the output validators
  const fetchTool = tools.find((t) => t.name === 'fetch_articles');
  assert.ok(fetchTool, 'fetch_articles is listed');
  assert.deepEqual(fetchTool._meta['mcpcore/errors'].map((e) => e.reason), ['no_match', 'queue_full', 'ncbi_down']);

  for (const c of cases) {
    const res = await client.callTool({ name: 'fetch_articles', arguments: { pmids: c.pmids } });
    assert.equal(res.isError, true, `isError for ${JSON.stringify(c.pmids)}`);
    assert.equal(res.content[0].text, c.text);
    assert.deepEqual(res.structuredContent, { error: c.error });
  }

  const ok = await client.callTool({ name: 'fetch_articles', arguments: { pmids: ['1', '2'] } });
  assert.equal(ok.isError, undefined);
  assert.deepEqual(ok.structuredContent, { articles: ['1', '2'] });

  const bad = await client.callTool({ name: 'fetch_articles', arguments: { pmids: [1] } });
  assert.equal(bad.isError, true);
  assert.equal(bad.structuredContent.error.code, -32007);
  assert.deepEqual(bad.structuredContent.error.data.issues[0].path, ['pmids', 0]);

  await assert.rejects(
    client.readResource({ uri: 'articles://items/missing' }),
    (err) => err instanceof McpError && err.code === -32001 && err.data?.itemId === 'missing',
  );
  const item = await client.readResource({ uri: 'articles://items/5' });
  assert.deepEqual(JSON.parse(item.contents[0].text), { itemId: '5', ok: true });
}

describe('TypeScript SDK client over stdio', () => {
  let client;
  before(async () => {
    client = new Client({ name: 'interop-stdio', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: bin, env: { ...process.env, MCP_TRANSPORT_TYPE: 'stdio' }, stderr: 'ignore' }));
  });
  after(async () => client?.close());
  test('error results on both surfaces, validated by the client', () => exercise(client));
});

for (const mode of ['stateful', 'stateless']) {
  describe(`TypeScript SDK client over Streamable HTTP (${mode})`, () => {
    let server;
    let client;
    before(async () => {
      server = spawn(bin, [], {
        env: { ...process.env, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_SESSION_MODE: mode },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const url = await new Promise((resolve, reject) => {
        const lines = createInterface({ input: server.stderr });
        lines.on('line', (line) => {
          const m = line.match(/Connect an MCP client to (http:\/\/\S+\/mcp)/);
          if (m) resolve(m[1]);
        });
        server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      client = new Client({ name: `interop-http-${mode}`, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    });
    after(async () => {
      await client?.close();
      server?.kill('SIGTERM');
    });
    test('error results on both surfaces, validated by the client', () => exercise(client));
  });
}

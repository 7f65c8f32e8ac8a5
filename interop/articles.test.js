// Interop: the official TypeScript SDK client against the Go reference server.
// The TypeScript client validates structuredContent against the advertised
// outputSchema even on error results, so these tests also prove that the
// widened schema accepts every error envelope the server sends.
//
// The exchanges of a call with its client go both ways: the client reports
// progress of summarize_abstract to onprogress, answers its sampling request,
// answers (or declines) the elicitation of retract_article, and hears the
// notifications/resources/updated of the item it subscribed to.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

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

// The articles of the server's in-memory library that these tests use.
const SLEEP = { pmid: '31000001', title: 'Nightly sleep duration and working memory in adolescents: a two-year cohort' };
const REMINDERS = { pmid: '31000002', title: 'A randomized trial of reminder messages for medication adherence in hypertension' };
const SUMMARY = 'Teenagers who sleep longer remember more.';
const DECLINED_RECOVERY = 'Leave the article as it is; call again only if the user asks for the retraction.';

// open connects, over transport, a client that declares the capabilities
// asked for and answers the server's questions: sampling with SUMMARY,
// elicitation with heard.elicitAnswer. heard records what it was asked, the
// resource updates it heard, and every message it received as the transport
// delivered it (heard.wire, read before the SDK dispatches it);
// heard.updatedOnce(uri) is a promise of the next update of uri, which fails
// after ms rather than hang.
async function open(transport, name, { sampling = true, elicitation = true } = {}) {
  const capabilities = {};
  if (sampling) capabilities.sampling = {};
  if (elicitation) capabilities.elicitation = {};
  const client = new Client({ name, version: '1.0.0' }, { capabilities });
  const heard = { samples: [], elicits: [], updated: [], wire: [], elicitAnswer: { action: 'decline' }, listeners: [] };
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      heard.samples.push(req.params);
      return { role: 'assistant', model: 'interop-model', stopReason: 'endTurn', content: { type: 'text', text: SUMMARY } };
    });
  }
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      heard.elicits.push(req.params);
      return heard.elicitAnswer;
    });
  }
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    heard.updated.push(n.params.uri);
    for (const l of heard.listeners) l(n.params.uri);
  });
  heard.updatedOnce = (uri, ms = 10000) => {
    let listener;
    let timer;
    const p = new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no notifications/resources/updated for ${uri} within ${ms} ms`)), ms);
      listener = (u) => u === uri && resolve(u);
      heard.listeners.push(listener);
    }).finally(() => {
      clearTimeout(timer);
      heard.listeners = heard.listeners.filter((l) => l !== listener);
    });
    p.catch(() => {}); // awaited later; a rejection before then is not unhandled
    return p;
  };
  // The SDK calls a handler the transport already has before its own.
  transport.onmessage = (message) => heard.wire.push(message);
  await client.connect(transport);
  return { client, heard };
}

// isProtocolError returns a predicate for assert.rejects: a JSON-RPC error
// with this code (an McpError, as the TypeScript client surfaces it).
function isProtocolError(code, check = () => true) {
  return (err) => {
    assert.ok(err instanceof McpError, `want an McpError, got ${err}`);
    assert.equal(err.code, code, err.message);
    check(err);
    return true;
  };
}

// exchanges runs the round trips of progress, sampling, elicitation and
// subscription; transport() is a new transport to a fresh or shared
// server. The retractions change the server's library: each PMID is
// retracted at most once per server.
function exchanges(transport) {
  test('progress and sampling: summarize_abstract reports its steps and returns the client model\'s answer', async () => {
    const { client, heard } = await open(transport(), 'interop-sampling');
    try {
      const progress = [];
      const res = await client.callTool({ name: 'summarize_abstract', arguments: { pmid: SLEEP.pmid } }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      assert.equal(res.isError, undefined, res.content?.[0]?.text);
      assert.deepEqual(res.structuredContent, { pmid: SLEEP.pmid, title: SLEEP.title, summary: SUMMARY, model: 'interop-model' });

      assert.equal(heard.samples.length, 1, 'the client was asked once');
      const asked = heard.samples[0];
      assert.equal(asked.maxTokens, 200);
      assert.match(asked.messages[0].content.text, /We followed 412 adolescents/);

      // onprogress: the steps before the question at least, moving forward.
      assert.ok(progress.length >= 2, `got ${progress.length} progress notifications, want at least 2`);
      for (let i = 1; i < progress.length; i++) {
        assert.ok(progress[i].progress >= progress[i - 1].progress, `progress went back: ${JSON.stringify(progress)}`);
      }
      assert.ok(progress.every((p) => p.total === 3 && typeof p.message === 'string' && p.message.length > 0), 'each step has a total and a message');

      // The wire: every step up to the total, all before the response. The
      // SDK (1.32.2) can drop the last ones from onprogress: it dispatches a
      // notification a microtask later but a response at once, and the
      // response retires the progress handler, so notifications that reach
      // it in the same read as the response are lost ("unknown token";
      // typescript-sdk#2580). Hence the final step is checked here.
      const callIndex = heard.wire.findIndex((m) => m.result?.structuredContent?.pmid === SLEEP.pmid);
      const onWire = heard.wire.filter((m) => m.method === 'notifications/progress');
      assert.deepEqual(
        onWire.map((m) => m.params.progress),
        [0, 1, 2, 3],
        `progress on the wire ${JSON.stringify(onWire)}`,
      );
      assert.ok(onWire.every((m) => heard.wire.indexOf(m) < callIndex), 'every progress notification precedes the response');
      assert.deepEqual(progress, onWire.slice(0, progress.length).map(({ params: { progressToken, ...p } }) => p));
      const last = onWire.at(-1).params;
      assert.equal(last.progress, last.total, `last progress ${JSON.stringify(last)}`);
    } finally {
      await client.close();
    }
  });

  test('elicitation accepted: retract_article changes the item, and its subscriber hears of it', async () => {
    const { client, heard } = await open(transport(), 'interop-elicitation');
    try {
      assert.equal(client.getServerCapabilities().resources?.subscribe, true, 'the server advertises resources.subscribe');
      const uri = `articles://items/${REMINDERS.pmid}`;
      await client.subscribeResource({ uri });
      const updated = heard.updatedOnce(uri);
      heard.elicitAnswer = { action: 'accept', content: { confirm: true, reason: 'Duplicated figures' } };

      const res = await client.callTool({ name: 'retract_article', arguments: { pmid: REMINDERS.pmid } });
      assert.equal(res.isError, undefined, res.content?.[0]?.text);
      assert.deepEqual(res.structuredContent, { pmid: REMINDERS.pmid, title: REMINDERS.title, reason: 'Duplicated figures', uri });

      assert.equal(heard.elicits.length, 1, 'the user was asked once');
      const form = heard.elicits[0];
      assert.match(form.message, new RegExp(`PMID ${REMINDERS.pmid}`));
      assert.deepEqual(form.requestedSchema.required, ['confirm', 'reason']);
      assert.equal(form.requestedSchema.properties.confirm.type, 'boolean');
      assert.equal(form.requestedSchema.properties.reason.type, 'string');

      assert.equal(await updated, uri);
      const item = await client.readResource({ uri });
      assert.deepEqual(JSON.parse(item.contents[0].text), {
        itemId: REMINDERS.pmid,
        ok: true,
        title: REMINDERS.title,
        retracted: true,
        retractionReason: 'Duplicated figures',
      });

      // Again: already retracted, and the user is not asked.
      const again = await client.callTool({ name: 'retract_article', arguments: { pmid: REMINDERS.pmid } });
      assert.equal(again.isError, true);
      assert.equal(again.structuredContent.error.code, -32002);
      assert.equal(again.structuredContent.error.data.reason, 'already_retracted');
      assert.equal(heard.elicits.length, 1);
      await client.unsubscribeResource({ uri });
    } finally {
      await client.close();
    }
  });

  test('elicitation declined: the declared consent_declined failure, with its recovery, and nothing changes', async () => {
    const { client, heard } = await open(transport(), 'interop-decline');
    try {
      heard.elicitAnswer = { action: 'decline' };
      const res = await client.callTool({ name: 'retract_article', arguments: { pmid: SLEEP.pmid } });
      assert.equal(res.isError, true);
      assert.equal(res.content[0].text, `Error: The user declined to answer.\n\nRecovery: ${DECLINED_RECOVERY}`);
      assert.deepEqual(res.structuredContent, {
        error: {
          code: -32600,
          message: 'The user declined to answer.',
          data: { action: 'decline', reason: 'consent_declined', recovery: { hint: DECLINED_RECOVERY } },
        },
      });
      assert.equal(heard.elicits.length, 1);
      const item = await client.readResource({ uri: `articles://items/${SLEEP.pmid}` });
      assert.equal(JSON.parse(item.contents[0].text).retracted, undefined);
    } finally {
      await client.close();
    }
  });

  test('a client without sampling or elicitation gets the JSON-RPC error -32021 (MissingClientCapability)', async () => {
    const { client } = await open(transport(), 'interop-no-capabilities', { sampling: false, elicitation: false });
    try {
      await assert.rejects(
        client.callTool({ name: 'summarize_abstract', arguments: { pmid: SLEEP.pmid } }),
        isProtocolError(-32021, (err) => assert.deepEqual(err.data, { requiredCapabilities: { sampling: {} } })),
      );
      await assert.rejects(
        client.callTool({ name: 'retract_article', arguments: { pmid: SLEEP.pmid } }),
        isProtocolError(-32021, (err) => assert.deepEqual(err.data, { requiredCapabilities: { elicitation: {} } })),
      );
    } finally {
      await client.close();
    }
  });

  test('completion of the item resource\'s itemId lists the library\'s PMIDs', async () => {
    const { client } = await open(transport(), 'interop-completion', { sampling: false, elicitation: false });
    try {
      const res = await client.complete({
        ref: { type: 'ref/resource', uri: 'articles://items/{itemId}' },
        argument: { name: 'itemId', value: '3100000' },
      });
      assert.deepEqual(res.completion.values, ['31000001', '31000002', '31000003']);
    } finally {
      await client.close();
    }
  });
}

// statelessExchanges is what is left of the exchanges on a stateless server
// under the session protocol: with no session, the server cannot send the
// client a request (nor, with no GET stream, a notification outside a call).
// A call that needs to ask the client fails with ServiceUnavailable, saying
// why, even from a client that declared the capability; the progress the
// call reports before it asks still reaches the client, on the call's own
// stream.
function statelessExchanges(transport) {
  test('sampling and elicitation fail with ServiceUnavailable, progress made before the question still arrives', async () => {
    const { client, heard } = await open(transport(), 'interop-stateless');
    try {
      const progress = [];
      const sampled = await client.callTool({ name: 'summarize_abstract', arguments: { pmid: SLEEP.pmid } }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      assert.equal(sampled.isError, true);
      assert.equal(sampled.structuredContent.error.code, -32000);
      assert.match(sampled.structuredContent.error.message, /cannot ask the client for sampling: it serves without sessions/);
      assert.match(sampled.content[0].text, /^Error: This server cannot ask the client for sampling/);
      // On the wire (onprogress may miss the step sent just before the
      // result, as in exchanges).
      const onWire = heard.wire.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
      assert.deepEqual(onWire, [0, 1], `progress on the wire ${JSON.stringify(onWire)}`);
      assert.ok(progress.length >= 1, 'onprogress heard the first step');
      const elicited = await client.callTool({ name: 'retract_article', arguments: { pmid: SLEEP.pmid } });
      assert.equal(elicited.isError, true);
      assert.match(elicited.structuredContent.error.message, /cannot ask the client for elicitation/);
      assert.equal(heard.samples.length + heard.elicits.length, 0, 'the client was never asked');
      // The failures before any question are the tools' own.
      const res = await client.callTool({ name: 'retract_article', arguments: { pmid: '42' } });
      assert.equal(res.isError, true);
      assert.equal(res.structuredContent.error.data.reason, 'unknown_pmid');
    } finally {
      await client.close();
    }
  });
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

describe('TypeScript SDK client over stdio: exchanges with the client', () => {
  // Each client runs a server process of its own.
  exchanges(() => new StdioClientTransport({ command: bin, env: { ...process.env, MCP_TRANSPORT_TYPE: 'stdio' }, stderr: 'ignore' }));
});

for (const mode of ['stateful', 'stateless']) {
  describe(`TypeScript SDK client over Streamable HTTP (${mode})`, () => {
    let server;
    let client;
    let url;
    before(async () => {
      server = spawn(bin, [], {
        env: { ...process.env, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_SESSION_MODE: mode },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      url = await new Promise((resolve, reject) => {
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
    const transport = () => new StreamableHTTPClientTransport(new URL(url));
    if (mode === 'stateful') {
      // Every client of the one server process shares its library.
      exchanges(transport);
    } else {
      statelessExchanges(transport);
    }
  });
}

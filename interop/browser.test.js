// The landing page in a real browser: headless Chromium from Debian's
// packages (interop/install-chromium.sh), driven by playwright-core, which
// downloads no browser of its own. It loads / from the running example
// server and checks what a person sees: the error contract of
// fetch_articles as table rows, a page that needs no JavaScript, light and
// dark schemes that both render; and, from a fixture server whose
// definitions hold markup and script, that all of it is shown as text and
// none of it runs. Screenshots land in interop/out/.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { requireNode22, startServerOnFreePort, stopProcess } from './harness.js';

const articlesBin = process.env.MCPCORE_ARTICLES_BIN;
if (!articlesBin) throw new Error('MCPCORE_ARTICLES_BIN must name the built examples/articles binary');
const hostileBin = process.env.MCPCORE_HOSTILE_BIN || join(dirname(articlesBin), 'hostile');
const chromiumPath = process.env.MCPCORE_CHROMIUM || '/usr/bin/chromium';
requireNode22();
if (!existsSync(chromiumPath)) {
  throw new Error(`${chromiumPath} is missing: run interop/install-chromium.sh (make interop does)`);
}

const here = fileURLToPath(new URL('.', import.meta.url));
const outDir = join(here, 'out');
mkdirSync(outDir, { recursive: true });

// The flags keep a headless Chromium in a container quiet and offline: no
// sandbox (we run as root), no GPU, no background fetches of its own.
const launchArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let browser;
before(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs });
});
after(async () => {
  if (browser) await browser.close();
});

// serve starts bin over HTTP on a free port and returns its base URL and a
// stop function.
async function serve(bin, name) {
  const { child, port } = await startServerOnFreePort((p) => ({
    argv: [bin],
    env: { ...process.env, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_HOST: '127.0.0.1', MCP_HTTP_PORT: String(p) },
    host: '127.0.0.1',
    logFile: join(outDir, `${name}-browser.server.log`),
  }));
  return { base: `http://127.0.0.1:${port}`, stop: () => stopProcess(child) };
}

// tableRows returns the text of each body row's cells (the row header
// first) of the table named by the heading with id headingId.
function tableRows(page, headingId) {
  return page.$$eval(`table[aria-labelledby="${headingId}"] tbody tr`, (rows) =>
    rows.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent.trim())),
  );
}

describe('landing page of examples/articles in Chromium', () => {
  let server;
  let context;
  let page;
  const cspMessages = [];
  before(async () => {
    server = await serve(articlesBin, 'articles');
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspMessages.push(m.text());
    });
  });
  after(async () => {
    if (context) await context.close();
    if (server) await server.stop();
  });

  test('the contract of fetch_articles is a table of its declared failures, as the server card publishes it', async () => {
    const res = await page.goto(`${server.base}/`);
    assert.equal(res.status(), 200);
    assert.equal(res.headers()['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers()['x-content-type-options'], 'nosniff');
    assert.match(res.headers()['content-security-policy'], /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';/);

    const headers = await page.$$eval('table[aria-labelledby="tool-fetch_articles-errors"] thead th', (ths) =>
      ths.map((th) => [th.textContent.trim(), th.getAttribute('scope')]),
    );
    assert.deepEqual(headers, [['Reason', 'col'], ['Code', 'col'], ['When', 'col'], ['Recovery', 'col'], ['Retryable', 'col']]);

    const rows = await tableRows(page, 'tool-fetch_articles-errors');
    assert.deepEqual(rows.map((r) => r[0]), ['no_match', 'queue_full', 'ncbi_down']);
    assert.deepEqual(rows[0], [
      'no_match',
      '-32001 NotFound',
      'No requested PMID returned data',
      'Try pubmed_search_articles to discover valid PMIDs first.',
      'not declared',
    ]);
    assert.deepEqual(rows[1].slice(0, 2), ['queue_full', '-32003 RateLimited']);
    assert.deepEqual(rows[2].slice(0, 2), ['ncbi_down', '-32000 ServiceUnavailable']);

    // Every row says what the card (and tools/list) publishes.
    const card = await (await fetch(`${server.base}/.well-known/mcp.json`)).json();
    const published = card.tools.find((t) => t.name === 'fetch_articles')._meta['mcpcore/errors'];
    assert.deepEqual(
      rows,
      published.map((e) => [
        e.reason,
        `${e.code} ${{ '-32001': 'NotFound', '-32003': 'RateLimited', '-32000': 'ServiceUnavailable' }[e.code]}`,
        e.when,
        e.recovery,
        e.retryable === undefined ? 'not declared' : e.retryable ? 'yes' : 'no',
      ]),
    );
  });

  test('the page is accessible in structure: language, landmarks, headings in order, table headers with scope', async () => {
    await page.goto(`${server.base}/`);
    const facts = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      landmarks: ['header', 'nav', 'main', 'footer'].filter((t) => document.querySelector(t)),
      headings: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])),
      unscoped: [...document.querySelectorAll('th')].filter((th) => !th.getAttribute('scope')).length,
      title: document.title,
    }));
    assert.equal(facts.lang, 'en');
    assert.deepEqual(facts.landmarks, ['header', 'nav', 'main', 'footer']);
    assert.equal(facts.headings[0], 1);
    assert.equal(facts.headings.filter((h) => h === 1).length, 1);
    for (let i = 1; i < facts.headings.length; i++) {
      assert.ok(facts.headings[i] <= facts.headings[i - 1] + 1, `heading ${i} skips from h${facts.headings[i - 1]} to h${facts.headings[i]}`);
    }
    assert.equal(facts.unscoped, 0);
    assert.match(facts.title, /^Articles/);
  });

  test('light and dark schemes both render, with different backgrounds; the inline style passes the CSP', async () => {
    const seen = {};
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${server.base}/`);
      seen[scheme] = await page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        color: getComputedStyle(document.body).color,
        collapse: getComputedStyle(document.querySelector('table')).borderCollapse,
      }));
      // The style applied at all (a CSP that refused it would leave the
      // browser's defaults).
      assert.equal(seen[scheme].collapse, 'collapse', `${scheme}: the stylesheet did not apply`);
      await page.screenshot({ path: join(outDir, scheme === 'light' ? 'landing.png' : 'landing-dark.png'), fullPage: true });
    }
    assert.equal(seen.light.background, 'rgb(255, 255, 255)');
    assert.equal(seen.dark.background, 'rgb(13, 17, 23)');
    assert.notEqual(seen.light.color, seen.dark.color);
    assert.deepEqual(cspMessages, [], 'the browser reported Content Security Policy violations');
  });

  test('the page has no script and reads the same with JavaScript off', async () => {
    const noJS = await browser.newContext({ javaScriptEnabled: false });
    try {
      const p = await noJS.newPage();
      const res = await p.goto(`${server.base}/`);
      assert.doesNotMatch(await res.text(), /<script/i);
      assert.doesNotMatch(res.headers()['content-security-policy'], /script-src/);
      assert.equal(await p.locator('script').count(), 0);
      const rows = await p.locator('table[aria-labelledby="tool-fetch_articles-errors"] tbody tr').count();
      assert.equal(rows, 3);
      assert.equal(await p.getByRole('heading', { level: 3, name: 'fetch_articles' }).count(), 1);
    } finally {
      await noJS.close();
    }
  });
});

describe('landing page of a server whose definitions hold markup (interop/fixtures/hostile)', () => {
  let server;
  before(async () => {
    if (!existsSync(hostileBin)) {
      throw new Error(`${hostileBin} is missing: go build -o bin/hostile ./interop/fixtures/hostile (make interop does)`);
    }
    server = await serve(hostileBin, 'hostile');
  });
  after(async () => {
    if (server) await server.stop();
  });

  test('every definition is shown as text, and nothing in it runs even with the CSP bypassed', async () => {
    // With the CSP bypassed, escaping alone must stop the payload.
    const context = await browser.newContext({ bypassCSP: true });
    try {
      const page = await context.newPage();
      const res = await page.goto(`${server.base}/`, { waitUntil: 'load' });
      assert.equal(res.status(), 200);
      const found = await page.evaluate(() => ({
        pwned: window.__pwned,
        scripts: document.scripts.length,
        images: document.images.length,
        handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
        h1: document.querySelector('h1').textContent,
        desc: document.querySelector('#tool-probe .desc').textContent,
        title: document.querySelector('#tool-probe h3').textContent,
      }));
      assert.equal(found.pwned, undefined, 'a payload ran');
      assert.equal(found.scripts, 0);
      assert.equal(found.images, 0);
      assert.equal(found.handlers, 0);
      const payload = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
      assert.equal(found.h1, `Hostile ${payload}`);
      assert.equal(found.desc, `Echoes its text. ${payload}`);
      assert.ok(found.title.includes(payload), found.title);
      const rows = await tableRows(page, 'tool-probe-errors');
      assert.deepEqual(rows[0].slice(0, 3), ['refused', '-32005 Forbidden', `Refused: ${payload}`]);
      const input = await tableRows(page, 'tool-probe-input');
      assert.ok(input[0][3].includes('<script>window.__pwned=3</script><b>bold?</b>'), input[0][3]);
      await page.screenshot({ path: join(outDir, 'landing-hostile.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});

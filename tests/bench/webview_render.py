"""`inv bench` section "webview": the side panel's render cost per streamed chunk.

The panel's renderer (media/panel/render.js: marked + DOMPurify + highlight.js, bundled by esbuild as
for the real webview) runs in headless Chromium on a static page. A 2,000-token answer with code
blocks is streamed one token (~4 characters) at a time; each chunk is appended, rendered and laid out
(`offsetHeight`), and timed. Flat means the last chunks cost what the first ones did: the streaming
renderer only re-renders the block being written. Baseline, same run, same page: re-rendering the
whole message on every chunk (what the panel avoids).
"""
import json
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ESBUILD = ROOT / 'node_modules' / '.bin' / 'esbuild'

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head>
<body><div id="streaming"></div><div id="naive"></div></body></html>"""

PYTHON_BLOCK = '''```python
def fibonacci(limit):
    """Yield Fibonacci numbers below `limit`."""
    a, b = 0, 1
    while a < limit:
        yield a
        a, b = b, a + b


for index, value in enumerate(fibonacci(1000)):
    print(f"{index:>3}: {value}")
```
'''
JS_BLOCK = '''```js
export async function fetchJson(url, { timeoutMs = 5000 } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, { signal: controller.signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.json();
  } finally {
    clearTimeout(timer);
  }
}
```
'''
PARAGRAPH = ('The function keeps **two running values** and yields the smaller one on each step, so memory '
             'stays constant however long the sequence gets. See `fibonacci()` above; the loop stops as soon as '
             'the next value would reach the limit, which makes the generator safe to use with large inputs.\n\n')
LIST = ('- first, read the configuration and check `timeoutMs`;\n- then open the connection;\n'
        '- finally, *always* clear the timer, even when the request fails.\n\n')


def answer(tokens=2000):
    """Markdown of about `tokens` tokens (4 characters each): headings, prose, lists, code blocks."""
    parts, size, section = [], 0, 0
    while size < tokens * 4:
        section += 1
        for piece in (f'## Step {section}\n\n', PARAGRAPH, PYTHON_BLOCK if section % 2 else JS_BLOCK, '\n', LIST):
            parts.append(piece)
            size += len(piece)
    return ''.join(parts)


SCRIPT = """
(function () {
  const { StreamingMarkdown, renderMarkdown } = HermesRender;
  window.runBench = function (source, chunkSize, naive) {
    const container = document.getElementById(naive ? 'naive' : 'streaming');
    container.replaceChildren();
    const times = [];
    let renderer = naive ? null : new StreamingMarkdown(container);
    let text = '';
    for (let at = 0; at < source.length; at += chunkSize) {
      const chunk = source.slice(at, at + chunkSize);
      const started = performance.now();
      if (naive) {
        text += chunk;
        container.replaceChildren(renderMarkdown(text));
      } else {
        renderer.append(chunk);
        renderer.flush();
      }
      container.offsetHeight;  // include layout
      times.push(performance.now() - started);
    }
    if (renderer) renderer.finish();
    return { times, blocks: container.querySelectorAll('.code-block').length, text: container.textContent };
  };
})();
"""


def build_renderer(scratch):
    entry = Path(scratch) / 'entry.js'
    entry.write_text(f"export {{ StreamingMarkdown, renderMarkdown }} from {json.dumps(str(ROOT / 'media' / 'panel' / 'render.js'))};\n")
    out = Path(scratch) / 'render.js'
    subprocess.run([str(ESBUILD), str(entry), '--bundle', '--format=iife', '--global-name=HermesRender', '--minify',
                    '--platform=browser', f'--outfile={out}'], check=True, capture_output=True, cwd=ROOT)
    return out.read_text()


def summarise(times):
    count = len(times)
    tenth = max(1, count // 10)
    first = sum(times[:tenth]) / tenth
    last = sum(times[-tenth:]) / tenth
    ordered = sorted(times)
    return {'first': first, 'last': last, 'mean': sum(times) / count, 'p99': ordered[min(count - 1, int(count * 0.99))],
            'total': sum(times), 'count': count}


def measure(chunk_chars=4, tokens=2000):
    from playwright.sync_api import sync_playwright
    from vscode_server import CHROMIUM_ARGS
    source = answer(tokens)
    with tempfile.TemporaryDirectory() as scratch:
        bundle = build_renderer(scratch)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_content(PAGE)
        page.add_script_tag(content=bundle)
        page.add_script_tag(content=SCRIPT)
        page.evaluate('([s, n]) => runBench(s, n, false)', [source[:2000], chunk_chars])  # warm up the JIT
        streaming = page.evaluate('([s, n]) => runBench(s, n, false)', [source, chunk_chars])
        naive = page.evaluate('([s, n]) => runBench(s, n, true)', [source, chunk_chars])
        browser.close()
    same = streaming['text'] == naive['text']
    return source, summarise(streaming['times']), summarise(naive['times']), streaming['blocks'], same


def bench_webview(heading, row):
    heading('Side panel: render cost per streamed chunk (2,000-token answer with code blocks; baseline: '
            're-rendering the whole message per chunk)')
    try:
        source, ours, naive, blocks, same = measure()
    except Exception as error:  # no Chromium / Playwright on this machine
        print(f'  skipped: {error}')
        return
    row('answer', f'{len(source)} chars, {ours["count"]} chunks of 4 chars, {blocks} code blocks')
    row('streamed text = text rendered in one go', 'yes' if same else 'NO (the streaming renderer is wrong)')
    row('streaming: first 10% of chunks, mean', f'{ours["first"]:.3f} ms/chunk')
    row('streaming: last 10% of chunks, mean', f'{ours["last"]:.3f} ms/chunk', 'the first 10%',
        ours['last'] / ours['first'])
    row('streaming: mean / p99', f'{ours["mean"]:.3f} / {ours["p99"]:.3f} ms/chunk')
    row('whole-message re-render: last 10%, mean', f'{naive["last"]:.3f} ms/chunk', 'its first 10%',
        naive['last'] / naive['first'])
    row('streaming vs whole re-render, total', f'{ours["total"]:.0f} ms vs {naive["total"]:.0f} ms', 'the baseline',
        ours['total'] / naive['total'])

// Markdown → sanitised DOM for the Hermes panel, and the streaming renderer.
//
// Model output is data, never code: marked turns it into HTML, raw HTML in it is shown as text,
// DOMPurify removes anything active that could remain (scripts, event attributes, javascript: URLs,
// styles), and the webview's CSP (`default-src 'none'`, scripts only with a nonce) would block the rest.
//
// Streaming: a message is a list of markdown blocks. Blocks that are complete (followed by another
// block) are rendered once and never touched again; only the last, still-growing block is re-rendered
// when text arrives. The cost of a chunk therefore depends on the size of the block being written,
// not on the length of the message (measured by `inv bench`, section "webview").
import { Marked } from 'marked';
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/common';

const PURIFY_OPTIONS = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style', 'class', 'id'],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};
// Our own markup carries classes (hljs spans, language labels): the renderer marks the elements it made.
const TRUSTED_CLASS = /^(hljs|language-)[\w\s.+#-]*$/;

let hooksInstalled = false;
function installHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
    // Keep the classes highlight.js produced inside code blocks; drop every other class.
    if (data.attrName === 'class' && (node.nodeName === 'SPAN' || node.nodeName === 'CODE') &&
        node.closest && node.closest('pre') && TRUSTED_CLASS.test(data.attrValue)) {
      data.forceKeepAttr = true;
    }
  });
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      const href = node.getAttribute('href') || '';
      if (!/^(https?:|mailto:)/i.test(href)) node.removeAttribute('href');
      node.setAttribute('rel', 'noopener noreferrer');
    }
    if (node.nodeName === 'IMG') {
      // Remote images could leak data and are blocked by the CSP anyway: show the alt text instead.
      const alt = document.createElement('span');
      alt.textContent = node.getAttribute('alt') ? `[image: ${node.getAttribute('alt')}]` : '[image]';
      node.replaceWith(alt);
    }
  });
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[ch]));
}

function languageOf(lang) {
  const name = (lang || '').trim().split(/\s+/)[0].toLowerCase();
  return name && hljs.getLanguage(name) ? name : '';
}

export function highlight(code, lang) {
  const language = languageOf(lang);
  if (!language) return escapeHtml(code);
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch (error) {
    return escapeHtml(code);
  }
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const language = languageOf(lang);
      const label = (lang || '').trim().split(/\s+/)[0];
      const cls = language ? `hljs language-${language}` : 'hljs';
      return `<pre data-lang="${escapeHtml(label)}"><code class="${cls}">${highlight(text, language)}</code></pre>\n`;
    },
    html({ text }) {
      return escapeHtml(text); // raw HTML from the model is shown, not interpreted
    },
  },
});

/** Markdown text → a sanitised DocumentFragment. */
export function renderMarkdown(text) {
  return sanitize(marked.parse(text));
}

function renderTokens(tokens, links) {
  const list = tokens.slice();
  list.links = links || {};
  return sanitize(marked.parser(list));
}

function sanitize(html) {
  installHooks();
  // `data-lang` is how the toolbar learns a block's language: allow that one data attribute.
  const fragment = DOMPurify.sanitize(html, { ...PURIFY_OPTIONS, ADD_ATTR: ['data-lang'] });
  decorateCodeBlocks(fragment);
  return fragment;
}

function codiconButton(action, icon, label) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'icon-button';
  button.dataset.action = action;
  button.title = label;
  button.setAttribute('aria-label', label);
  const glyph = document.createElement('span');
  glyph.className = `codicon codicon-${icon}`;
  glyph.setAttribute('aria-hidden', 'true');
  button.appendChild(glyph);
  return button;
}

/** Wrap every <pre> in a block with a toolbar: language, Copy, Insert at cursor (handled by delegation). */
export function decorateCodeBlocks(root) {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    if (pre.parentElement && pre.parentElement.classList.contains('code-block')) continue;
    const block = document.createElement('div');
    block.className = 'code-block';
    const bar = document.createElement('div');
    bar.className = 'code-toolbar';
    const lang = document.createElement('span');
    lang.className = 'code-lang';
    lang.textContent = pre.getAttribute('data-lang') || 'text';
    bar.appendChild(lang);
    bar.appendChild(codiconButton('copy', 'copy', 'Copy code'));
    bar.appendChild(codiconButton('insert', 'insert', 'Insert at cursor'));
    pre.replaceWith(block);
    block.appendChild(bar);
    block.appendChild(pre);
  }
}

/**
 * Renders one assistant text part as it streams. `append(text)` adds text; `flush()` renders what was
 * appended since the last flush (callers batch deltas per animation frame); `finish()` renders the rest.
 */
export class StreamingMarkdown {
  constructor(container) {
    this.container = container;
    this.source = '';
    this.committed = 0; // length of `source` already rendered as finished blocks
    this.pending = false;
    this.tail = document.createElement('div');
    this.tail.className = 'md-tail';
    container.appendChild(this.tail);
    this.stats = { renders: 0, committedBlocks: 0 };
  }

  append(text) {
    if (!text) return;
    this.source += text.replace(/\r\n?/g, '\n');
    this.pending = true;
  }

  flush() {
    if (!this.pending) return;
    this.pending = false;
    this.stats.renders += 1;
    const tailSource = this.source.slice(this.committed);
    const tokens = marked.lexer(tailSource);
    let last = tokens.length - 1;
    while (last >= 0 && tokens[last].type === 'space') last -= 1;
    /** @type {import('marked').Token[]} */
    let rest = tokens;
    if (last > 0) {
      const done = tokens.slice(0, last);
      const raw = done.map((token) => token.raw).join('');
      if (tailSource.startsWith(raw)) {
        // Finished blocks: rendered once, placed before the tail, never re-rendered.
        this.container.insertBefore(renderTokens(done, tokens.links), this.tail);
        this.committed += raw.length;
        this.stats.committedBlocks += done.length;
        rest = tokens.slice(last);
      }
    }
    this.tail.replaceChildren(renderTokens(rest, tokens.links));
  }

  finish() {
    this.pending = true;
    this.flush();
  }
}

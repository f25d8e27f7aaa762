#!/usr/bin/env python3
"""Render every template of tests/template/ with every conversation of
tests/template/conv/ the way Hugging Face transformers' apply_chat_template
does, and write the results to tests/template/expected/.

Run by hand after adding a template or a conversation (it needs Python 3 and
jinja2 >= 3.1; the tests do not):

    python3 tests/tools/gen_template_corpus.py [tests/template]

The environment is transformers' own (utils/chat_template_utils.py):
ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True) with the
loopcontrols extension and the `{% generation %}` block tag, the globals
raise_exception(msg) and strftime_now(fmt), and tojson replaced by
json.dumps(x, ensure_ascii=False, indent=, separators=, sort_keys=). The
context is the conversation file as it stands: messages, tools, documents,
add_generation_prompt and the special tokens (transformers passes the
tokenizer's special tokens map as extra keyword arguments).

strftime_now formats a fixed time, NOW seconds since the epoch in UTC, so the
outputs do not change from day to day; the corpus test renders with the same
`now` and TZ=UTC.

Output per pair: expected/NAME.CONV.txt holds the rendering byte for byte;
when jinja2 raises, expected/NAME.CONV.err holds one line instead:
`raise: MESSAGE` for raise_exception(MESSAGE), or `error: TYPE: MESSAGE`
for any other error (the C renderer need only fail there, not word it alike).
"""

import json
import os
import sys
import time
from datetime import datetime

import jinja2
import jinja2.ext
import jinja2.nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

NOW = 1753000000  # 2025-07-20 08:26:40 UTC


class Raised(jinja2.exceptions.TemplateError):
    """What raise_exception() throws (a TemplateError, as in transformers)."""


class Generation(jinja2.ext.Extension):
    """transformers' AssistantTracker: `{% generation %}...{% endgeneration %}`
    renders its body unchanged when no assistant mask is asked for."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    def _body(self, caller):
        return caller()


def environment():
    def raise_exception(message):
        raise Raised(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent,
                          separators=separators, sort_keys=sort_keys)

    def strftime_now(fmt):
        return datetime.fromtimestamp(NOW).strftime(fmt)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[Generation, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def main():
    os.environ["TZ"] = "UTC"
    time.tzset()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "template")
    env = environment()
    convs = sorted(f[:-5] for f in os.listdir(os.path.join(root, "conv")) if f.endswith(".json"))
    names = sorted(f[:-6] for f in os.listdir(root) if f.endswith(".jinja"))
    outdir = os.path.join(root, "expected")
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        os.unlink(os.path.join(outdir, f))
    counts = {"txt": 0, "raise": 0, "error": 0}
    for name in names:
        with open(os.path.join(root, name + ".jinja"), encoding="utf-8", newline="") as fh:
            src = fh.read()
        try:
            tmpl = env.from_string(src)
        except jinja2.exceptions.TemplateSyntaxError as e:
            tmpl, parse_error = None, f"error: TemplateSyntaxError: line {e.lineno}: {e.message}"
        for conv in convs:
            with open(os.path.join(root, "conv", conv + ".json"), encoding="utf-8") as fh:
                ctx = json.load(fh)
            base = os.path.join(outdir, f"{name}.{conv}")
            if tmpl is None:
                out, kind = parse_error, "error"
            else:
                try:
                    out, kind = tmpl.render(**ctx), "txt"
                except Raised as e:
                    out, kind = f"raise: {e.message}", "raise"
                except Exception as e:  # what jinja2 or Python raises while rendering
                    out, kind = f"error: {type(e).__name__}: {e}", "error"
            counts[kind] += 1
            if kind == "txt":
                with open(base + ".txt", "w", encoding="utf-8", newline="") as fh:
                    fh.write(out)
            else:
                with open(base + ".err", "w", encoding="utf-8", newline="") as fh:
                    fh.write(out.replace("\n", " ") + "\n")
    print(f"{len(names)} templates x {len(convs)} conversations: "
          f"{counts['txt']} renderings, {counts['raise']} raise_exception, {counts['error']} other errors")


if __name__ == "__main__":
    main()

"""Docs tool: writes docs/cli.md from the argument parsers themselves (alpha_py/cli.py, alpha_py/java/__main__.py,
spark_jobs/train.py), so the command-line reference cannot drift from the code.
  python3 docs/gen_cli.py            # rewrite docs/cli.md
  python3 docs/gen_cli.py --check    # exit 1 when docs/cli.md differs from what the parsers say
Also an MkDocs hook (mkdocs.yml `hooks:`): the build fails while the committed page is stale."""
import argparse
import importlib.util
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(REPO, "docs", "cli.md")


def _parsers():
    """(title, how it is run, parser) for every command line a user meets."""
    if REPO not in sys.path:
        sys.path.insert(0, REPO)
    saved = os.environ.pop("ALPHA_INJECT_FAILURE", None)      # read by a default of spark_jobs/train.py
    try:
        from alpha_py import cli
        from alpha_py.java.__main__ import parser as java_parser
        spec = importlib.util.spec_from_file_location("alpha_spark_train_cli", os.path.join(REPO, "spark_jobs", "train.py"))
        spark = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(spark)
        main, spark_parser = cli._parser(), spark.parser()
    finally:
        if saved is not None:
            os.environ["ALPHA_INJECT_FAILURE"] = saved
    subs = next(a for a in main._actions if isinstance(a, argparse._SubParsersAction)).choices
    out = [(f"alpha {name}", f"`alpha {name} ...` or `python3 -m alpha_py {name} ...`", p) for name, p in subs.items()]
    from alpha_py.convert import parser as convert_parser
    out.append(("alpha convert", "`alpha convert ...` or `python3 -m alpha_py.convert ...`", convert_parser()))
    out.append(("alpha java run", "`alpha java run ...` or `python3 -m alpha_py.java ...`", java_parser()))
    out.append(("spark_jobs/train.py", "`spark-submit [spark options] spark_jobs/train.py ...`", spark_parser))
    return main, out


def _cell(text):
    return " ".join(str(text).split()).replace("|", "\\|")


def _value(action):
    if action.nargs == 0:
        return "flag"
    if action.choices:
        return " \\| ".join(f"`{c}`" for c in action.choices)
    if action.nargs == "?":
        return f"optional `{action.metavar or action.dest.upper()}`"
    if action.metavar and action.option_strings:
        return f"`{action.metavar}`"
    if action.nargs == argparse.REMAINDER:
        return "the rest of the line"
    return getattr(action.type, "__name__", "str") if action.type else "str"


def _table(parser):
    rows = ["| option | value | default | description |", "|---|---|---|---|"]
    for a in parser._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        names = ", ".join(f"`{s}`" for s in a.option_strings) or f"`{a.metavar or a.dest}` (positional)"
        if a.required and a.option_strings:
            names += " (required)"
        empty = a.default is None or a.default is False or a.default in ("", []) or a.default is argparse.SUPPRESS
        default = "" if empty else f"`{a.default}`"
        help_text = (a.help or "").replace("%(default)s", str(a.default))
        rows.append(f"| {names} | {_value(a)} | {default} | {_cell(help_text)} |")
    return rows


def render():
    main, parsers = _parsers()
    lines = ["# Command-line reference", "",
             "Generated from the argument parsers by `python3 docs/gen_cli.py`; `tests/test_docs.py` fails when this",
             "page and the parsers disagree. Every command checks its arguments before it starts work and names the",
             "argument and value it refuses.", "",
             f"`alpha`: {_cell(main.description)} The console script `alpha` is installed with the package;",
             "`python3 -m alpha_py` is the same program.", ""]
    for title, run, p in parsers:
        lines += [f"## {title}", "", f"Run as {run}.", ""]
        if p.description:
            lines += [_cell(p.description), ""]
        lines += _table(p) + [""]
    return "\n".join(lines)


def check():
    """'' when docs/cli.md is current, else a one-line reason."""
    with open(PAGE, encoding="utf-8") as f:
        current = f.read()
    return "" if current == render() else "docs/cli.md is stale: run `python3 docs/gen_cli.py`"


def on_pre_build(config, **kwargs):
    """MkDocs hook: refuse to build a site whose CLI page differs from the parsers."""
    reason = check()
    if reason:
        from mkdocs.exceptions import PluginError
        raise PluginError(reason)


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        msg = check()
        print(msg or "docs/cli.md is current")
        sys.exit(1 if msg else 0)
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(render())
    print(f"wrote {os.path.relpath(PAGE)}")

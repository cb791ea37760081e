// Python archives for the page and the AI worker, compiled by the pinned
// Pyodide itself: tools/build_site.py and tools/stdlib.py run this with Node
// at `make runtime` when what an archive is built from changed, passing on
// stdin {"archives": [{
//    "out": <the file to write>, "comment": <the archive's comment>,
//    "prefix": <where the archive is in the interpreter: tracebacks name it>,
//    "files": {<path in the archive>: <text>, ...},
//    "form": "bytecode" or "source",
//    "docstrings": <false: leave out those of modules and functions>,
//    "keep_docstrings": [<a path prefix whose files keep theirs>, ...]}, ...]}
// As bytecode, each module goes in alone (name.pyc, as zipimport looks for
// it), its line numbers kept for tracebacks, marked by PEP 552 as built
// from a source with this hash and never to be checked against it, so that
// the interpreter neither compiles the module nor looks for its source.
// As source without docstrings, the comments go too, every line kept where
// it was (tracebacks point at the right lines). Classes keep their
// docstrings: a dataclass without one gets one made from its signature as
// it is defined. Other files go in as they are. Nothing is
// deflated: the host compresses what it sends, and compresses many files
// stored together better than each file deflated alone. The entries are
// sorted and dated 1980-01-01, so the same sources give the same archive.
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const BUILD = `
import ast
import importlib.util
import io
import marshal
import tokenize
import zipfile

HASH_BASED_UNCHECKED = 0b01  # PEP 552: the flags word of a .pyc
DOCUMENTED = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)


def documented(tree):
    """The module and its functions that have a docstring (their first statement)."""
    for node in ast.walk(tree):
        if isinstance(node, DOCUMENTED) and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str):
            yield node


def without_docstrings(tree):
    for node in list(documented(tree)):
        docstring = node.body.pop(0)
        if not node.body:
            node.body.append(ast.copy_location(ast.Pass(), docstring))
    return tree


def bytecode(source, path, docstrings):
    tree = ast.parse(source, path)
    if not docstrings:
        tree = without_docstrings(tree)
    code = compile(tree, path, "exec", dont_inherit=True)
    return (importlib.util.MAGIC_NUMBER + HASH_BASED_UNCHECKED.to_bytes(4, "little")
            + importlib.util.source_hash(source) + marshal.dumps(code))


def lean_source(source, path):
    """The source without its comments and the docstrings of the module and
    its functions (each becomes ""), every line where it was."""
    text = source.decode()
    lines = text.split("\\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def at(line, byte_column):  # the syntax tree counts a line's columns in UTF-8 bytes
        return starts[line - 1] + len(lines[line - 1].encode()[:byte_column].decode())

    docstrings = [node.body[0] for node in documented(ast.parse(text, path))]
    spans = [(at(d.lineno, d.col_offset), at(d.end_lineno, d.end_col_offset), '""') for d in docstrings]
    spans += [(starts[token.start[0] - 1] + token.start[1], starts[token.end[0] - 1] + token.end[1], "")
              for token in tokenize.generate_tokens(io.StringIO(text).readline) if token.type == tokenize.COMMENT]
    for start, end, put in sorted(spans, reverse=True):
        text = text[:start] + put + "\\n" * text.count("\\n", start, end) + text[end:]
    text = "\\n".join(line.rstrip() for line in text.split("\\n"))
    compile(text, path, "exec", dont_inherit=True)  # still the same program's syntax
    return text.encode()


def build(job):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.comment = job["comment"].encode()
        entries = {}
        for name, text in job["files"].items():
            data = text.encode()
            docstrings = job["docstrings"] or name.startswith(tuple(job.get("keep_docstrings", ())))
            if name.endswith(".py") and job["form"] == "bytecode":
                entries[name + "c"] = bytecode(data, f"{job['prefix']}/{name}", docstrings)
            elif name.endswith(".py"):
                entries[name] = data if docstrings else lean_source(data, f"{job['prefix']}/{name}")
            else:
                entries[name] = data
        for name in sorted(entries):
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), entries[name])
    return buffer.getvalue()
`;

const job = JSON.parse(readFileSync(0, "utf8"));
// Line numbers without columns (PYTHONNODEBUGRANGES): a traceback names the
// line but marks no span under it, and the bytecode is a quarter smaller.
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.runPython(BUILD);
const build = pyodide.globals.get("build");
for (const archive of job.archives) {
  const built = build(pyodide.toPy(archive));
  writeFileSync(archive.out, built.toJs());
  built.destroy();
}

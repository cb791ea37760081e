// The app's Python as one archive (vendor/python.zip), compiled by the
// pinned Pyodide itself: tools/build_site.py runs this with Node at
// `make runtime` whenever a file of py/ changed, passing on stdin
//   {"archive": <where runtime.js writes the archive in the interpreter>,
//    "comment": <the archive's comment>, "out": <the file to write>,
//    "files": {<path in the archive>: <text>, ...}}
// Each module goes in twice: its source (for tracebacks) and its bytecode
// beside it (name.pyc, as zipimport looks for it), marked by PEP 552 as
// built from a source with this hash and never to be checked against it, so
// that the interpreter neither compiles the module nor looks at the clock.
// The entries are sorted and dated 1980-01-01, so the same sources give
// the same archive.
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const BUILD = `
import importlib.util
import io
import marshal
import zipfile

HASH_BASED_UNCHECKED = 0b01  # PEP 552: the flags word of a .pyc


def bytecode(source, path):
    code = compile(source, path, "exec", dont_inherit=True)
    return (importlib.util.MAGIC_NUMBER + HASH_BASED_UNCHECKED.to_bytes(4, "little")
            + importlib.util.source_hash(source) + marshal.dumps(code))


def build(job):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.comment = job["comment"].encode()
        for name in sorted(job["files"]):
            data = job["files"][name].encode()
            entries = [(name, data)]
            if name.endswith(".py"):
                entries.append((name + "c", bytecode(data, f"{job['archive']}/{name}")))
            for entry, content in entries:
                info = zipfile.ZipInfo(entry, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, content, compresslevel=9)
    return buffer.getvalue()
`;

const job = JSON.parse(readFileSync(0, "utf8"));
const pyodide = await loadPyodide();
pyodide.runPython(BUILD);
const archive = pyodide.globals.get("build")(pyodide.toPy(job));
writeFileSync(job.out, archive.toJs());
archive.destroy();

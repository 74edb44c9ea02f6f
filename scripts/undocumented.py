#!/usr/bin/env python3
"""Lists public declarations in Sources/ that have no `///` (or `/** */`) doc comment directly above
them (attribute lines such as `@inlinable` may sit in between).

    python3 scripts/undocumented.py                     # every module: a count per module
    python3 scripts/undocumented.py --list PATH...      # the undocumented declarations under PATHs
    python3 scripts/undocumented.py --check [PATH...]   # exit 1 when any declaration under PATHs (by
                                                        # default the FINISHED folders) lacks one

Counted: `public`/`open` func, init, subscript, var, let, struct, class, actor, enum, protocol,
typealias, associatedtype, static members; the cases of public enums and the requirements of public
protocols (which carry no `public` of their own). Not counted: `override` members, `extension`
lines, and witnesses of standard-library protocols whose documentation is inherited (`description`,
`hash(into:)`, `==`, `encode(to:)`, `init(from:)`, `errorDescription`, …). A line-based scan, not
a parser: it knows Swift's comments and string literals well enough for this code base.
"""
import os
import re
import sys

# The folders whose every public declaration has a doc comment; DocCommentTests runs `--check` on
# them so that they stay so. Add a folder here once `--list FOLDER` prints nothing.
FINISHED = [
    "Sources/Strata",
    "Sources/StrataCLI",
    "Sources/StrataCore",
    "Sources/StrataLottie",
    "Sources/StrataMedia",
    "Sources/StrataRender",
    "Sources/StrataStudio",
    "Sources/StrataTerminal",
    "Sources/StrataUIKit",
    "Sources/strata",
]

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

MODIFIERS = (r"(?:public|open|internal|fileprivate|private|package|static|class|final|override|"
             r"mutating|nonmutating|convenience|required|indirect|lazy|weak|unowned|dynamic|"
             r"nonisolated|isolated|consuming|borrowing|prefix|postfix|infix|distributed|"
             r"(?:public|internal|fileprivate|private|package)\(set\)|nonisolated\(unsafe\)|"
             r"unowned\((?:safe|unsafe)\))")
ATTRIBUTE = r"@\w+(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?"
KEYWORDS = r"(func|init\??!?|subscript|var|let|struct|class|actor|enum|protocol|typealias|associatedtype|case|extension)"
DECL = re.compile(r"^\s*((?:(?:" + ATTRIBUTE + r"|" + MODIFIERS + r")\s+)*)" + KEYWORDS + r"\b(.*)$")

# Protocol witnesses whose documentation comes from the standard library's protocol.
INHERITED = {
    "description", "debugDescription", "errorDescription", "failureReason", "recoverySuggestion",
    "hash", "hashValue", "encode", "==", "<", "makeIterator", "next", "startIndex", "endIndex",
    "index", "callAsFunction_never", "id", "allCases", "rawValue", "localizedDescription",
}
INHERITED_INITS = ("init(from decoder", "init(from:", "init?(rawValue", "init(rawValue",
                   "init(stringLiteral", "init(integerLiteral", "init(floatLiteral",
                   "init(arrayLiteral", "init(dictionaryLiteral", "init(booleanLiteral",
                   "init(unicodeScalarLiteral", "init(extendedGraphemeClusterLiteral",
                   "init(nilLiteral", "init?(argument", "init(argument")


def strip_code(line, state):
    """The line without comments and string contents; `state` carries block comments and
    multi-line strings from line to line."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["block"] -= 1
            i = end + 2
            continue
        if state["multiline"]:
            end = line.find('"""', i)
            if end < 0:
                return "".join(out)
            state["multiline"] = False
            out.append('""')
            i = end + 3
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] += 1
            i += 2
            continue
        if line.startswith('"""', i):
            state["multiline"] = True
            i += 3
            continue
        if c == '"':
            j = i + 1
            depth = 0
            while j < n:
                if line[j] == "\\" and j + 1 < n and line[j + 1] == "(":
                    depth += 1
                    j += 2
                    continue
                if depth and line[j] == ")":
                    depth -= 1
                elif line[j] == "\\":
                    j += 1
                elif line[j] == '"' and not depth:
                    break
                j += 1
            out.append('""')
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def documented(lines, index):
    """Whether a doc comment ends directly above line `index` (attributes in between allowed)."""
    j = index - 1
    while j >= 0:
        s = lines[j].strip()
        if s.startswith("///"):
            return True
        if s.endswith("*/"):
            return is_doc_block(lines, j)
        if re.fullmatch(r"(@\w+(\([^()]*\))?\s*)+", s) or s.startswith("#if") or s.startswith("#else") or s.startswith("#endif"):
            j -= 1
            continue
        if s.startswith("// swiftlint") or s.startswith("// MARK"):
            j -= 1
            continue
        return False
    return False


def is_doc_block(lines, end):
    j = end
    while j >= 0:
        if "/*" in lines[j]:
            return "/**" in lines[j]
        j -= 1
    return False


def name_of(keyword, rest):
    if keyword.startswith("init"):
        return keyword
    m = re.match(r"\s*(`?[\w]+`?|[^\s(<]+)", rest)
    return m.group(1).strip("`") if m else ""


def scan(path):
    """(line number, declaration text) of each undocumented public declaration in one file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    state = {"block": 0, "multiline": False}
    depth = 0
    # Stack of (depth at which the body opened, kind, public?) for types and extensions.
    scopes = []
    pending = None  # a type/extension whose `{` has not been seen yet
    found = []
    for index, raw in enumerate(lines):
        in_comment = state["block"] or state["multiline"]
        code = strip_code(raw, state)
        if not in_comment:
            m = DECL.match(code)
            if m:
                mods, keyword, rest = m.group(1), m.group(2), m.group(3)
                words = set(re.findall(r"[\w()]+", re.sub(ATTRIBUTE, "", mods)))
                inner = scopes[-1] if scopes and scopes[-1][0] == depth else None
                explicit = "public" in words or "open" in words
                implicit = False
                if inner and inner[2]:
                    if inner[1] == "protocol" and keyword not in ("extension",):
                        implicit = True
                    if inner[1] == "enum" and keyword == "case":
                        implicit = True
                if keyword == "case" and not (inner and inner[1] == "enum"):
                    m = None
                if m is not None:
                    name = name_of(keyword, rest)
                    skip = (keyword == "extension" or "override" in words
                            or name in INHERITED
                            or any(code.strip().replace(" ", "").find(p.replace(" ", "")) >= 0
                                   for p in INHERITED_INITS if keyword.startswith("init"))
                            or keyword == "case" and inner and inner[1] != "enum")
                    if (explicit or implicit) and not skip and not documented(lines, index):
                        found.append((index + 1, raw.strip()))
                    # `public enum E { case a, b }`: the cases share the enum's line, and with it
                    # the enum's comment, which does not describe them.
                    if keyword == "enum" and explicit and re.search(r"\{\s*case\b", rest):
                        found.append((index + 1, "cases of: " + raw.strip()))
                    if keyword in ("struct", "class", "actor", "enum", "protocol", "extension") \
                            and not (keyword == "class" and re.match(r"\s*(func|var|let|subscript)\b", rest)):
                        pending = (keyword, explicit and keyword != "extension")
        for c in code:
            if c == "{":
                depth += 1
                if pending:
                    scopes.append((depth, pending[0], pending[1]))
                    pending = None
            elif c == "}":
                if scopes and scopes[-1][0] == depth:
                    scopes.pop()
                depth -= 1
    return found


def module_of(rel):
    parts = rel.split(os.sep)
    return parts[1] if len(parts) > 2 else parts[0]


def swift_files(paths):
    for p in paths:
        full = os.path.join(ROOT, p) if not os.path.isabs(p) else p
        if os.path.isfile(full):
            yield full
            continue
        for dirpath, _, files in os.walk(full):
            if ".docc" in dirpath:
                continue
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(dirpath, name)


def main(argv):
    mode = "count"
    if argv and argv[0] in ("--list", "--check"):
        mode = argv[0][2:]
        argv = argv[1:]
    paths = argv or (FINISHED if mode == "check" else ["Sources"])
    missing = [p for p in paths if not os.path.exists(os.path.join(ROOT, p))]
    if missing:
        print(f"error: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    total = 0
    per_module = {}
    listing = []
    for path in sorted(set(swift_files(paths))):
        rel = os.path.relpath(path, ROOT)
        found = scan(path)
        per_module[module_of(rel)] = per_module.get(module_of(rel), 0) + len(found)
        total += len(found)
        for line, text in found:
            listing.append(f"{rel}:{line}: {text}")
    if mode == "count":
        for module in sorted(per_module):
            print(f"{module:20} {per_module[module]}")
        print(f"{'total':20} {total}")
        return 0
    for item in listing:
        print(item)
    if mode == "check":
        if total:
            print(f"{total} public declarations without a doc comment (see above); "
                  "add a /// comment to each", file=sys.stderr)
            return 1
        print(f"every public declaration has a doc comment in {len(paths)} folders and files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Writes a man page (troff, section 1) for a swift-argument-parser command from its
`--experimental-dump-help` JSON on stdin: a synopsis, the description and, for each
subcommand, its options with their help. Used by scripts/install.sh:

    strata --experimental-dump-help | python3 scripts/manpage.py > strata.1
"""
import json
import sys


def esc(text):
    """Text as troff reads it: backslashes doubled, a leading dot or quote guarded."""
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def names(arg):
    out = []
    for n in arg.get("names") or []:
        prefix = "-" if n["kind"] == "short" else "--"
        if n["kind"] == "longWithSingleDash":
            prefix = "-"
        out.append(prefix + n["name"])
    return out


def usage(arg):
    value = arg.get("valueName") or "value"
    if arg["kind"] == "positional":
        text = "<" + value + ">"
    elif arg["kind"] == "flag":
        text = "|".join(names(arg))
    else:
        text = "|".join(names(arg)) + " <" + value + ">"
    if arg.get("isRepeating"):
        text += " ..."
    return "[" + text + "]" if arg.get("isOptional") else text


def options(cmd, out):
    args = [a for a in cmd.get("arguments") or [] if a.get("shouldDisplay", True)]
    for arg in args:
        label = " ".join(names(arg)) or "<" + (arg.get("valueName") or "value") + ">"
        if arg["kind"] == "option":
            label += " <" + (arg.get("valueName") or "value") + ">"
        out.append(".TP")
        out.append("\\fB" + esc(label) + "\\fR")
        text = arg.get("abstract") or ""
        if arg.get("defaultValue") not in (None, ""):
            text += " (default: " + str(arg["defaultValue"]) + ")"
        out.append(esc(text))
        if arg.get("discussion") and isinstance(arg["discussion"], str):
            out.append(".IP")
            out.append(esc(arg["discussion"]))


def synopsis(cmd, path):
    args = [usage(a) for a in cmd.get("arguments") or [] if a.get("shouldDisplay", True)]
    return "\\fB" + esc(" ".join(path)) + "\\fR " + esc(" ".join(args))


def main():
    tool = json.load(sys.stdin)["command"]
    name = tool["commandName"]
    out = [
        '.TH "%s" "1" "" "Strata" "User Commands"' % name.upper(),
        ".SH NAME",
        "%s \\- %s" % (name, esc(tool.get("abstract", ""))),
        ".SH SYNOPSIS",
    ]
    subs = [s for s in tool.get("subcommands") or [] if s.get("shouldDisplay", True)]
    for sub in subs:
        out.append(synopsis(sub, [name, sub["commandName"]]))
        out.append(".br")
    out.append(".SH DESCRIPTION")
    out.append(esc(tool.get("abstract", "")))
    if tool.get("discussion"):
        out.append(".PP")
        out.append(esc(tool["discussion"]))
    out.append(".SH COMMANDS")
    for sub in subs:
        out.append(".SS " + esc(name + " " + sub["commandName"]))
        out.append(esc(sub.get("abstract", "")))
        if sub.get("discussion"):
            out.append(".PP")
            out.append(esc(sub["discussion"]))
        options(sub, out)
    out += [
        ".SH FILES",
        ".TP",
        "\\fIPREFIX/share/strata/Templates\\fR",
        "Templates installed with the command, found by name from any folder.",
        ".SH ENVIRONMENT",
        ".TP",
        "\\fBSTRATA_TEMPLATES\\fR",
        "More template folders, separated by ':' (searched first).",
        ".SH SEE ALSO",
        "The Strata documentation (scripts/docs.sh builds it) and Templates/README.md in the source.",
    ]
    print("\n".join(out))


if __name__ == "__main__":
    main()

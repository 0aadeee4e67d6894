#!/usr/bin/env python3
"""run.py -- golden tests for the search query language.

    usage: run.py RULINGS SOURCE_ROOT [CASE-NUMBER...]

Each case in cases.txt is the arguments of `rulings search` (a line
starting with "> ", split as a shell would) and what `rulings search
--explain ARGS` must print: the query as read, the FTS5 expression that
finds and ranks ("match:") or only ranks ("rank:"), the subselects
("f1:"), the SQL conditions with their values written in ("where:"), what
comes first ("first:") and the full-text tables. A message on standard
error is kept as "stderr: ..." and a status other than 0 as "exit: N".

The database they run against is built once, in a temporary directory,
from data/ as README.md imports it, plus a few numbered rules (game "Rules
Test") for rule numbers: the thesaurus, the games and the tags the cases
see are those.

UPDATE_GOLDEN=1 rewrites cases.txt with what rulings prints now; review
the diff (git diff tests/query) before committing: the expected output is
a specification, not a snapshot. The last line of output is always
"N passed, N failed"; the exit status is 1 when a case failed.
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

RULES = """Rules Test

101. General

101.1. The game is for two players.

101.2. See rule 702.19a for trample.

702. Keyword Abilities

702.19. Trample

702.19a. Trample is a static ability.

702.19b. The controller assigns damage.

702.190. Not a subrule of 702.19.
"""


def run(rulings, args, env, cwd):
    wrapper = shlex.split(os.environ.get("RULINGS_WRAPPER", ""))
    p = subprocess.run(wrapper + [rulings] + args, cwd=cwd, env=env,
                       capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


def build_db(rulings, root, tmp, env):
    data = os.path.join(tmp, "data")
    shutil.copytree(os.path.join(root, "data"), data)
    with open(os.path.join(tmp, "rules.txt"), "w", encoding="utf-8") as f:
        f.write(RULES)
    steps = [
        ["import", "--game", "Spirit Island", "data/000_033b5c31b01b6f02.txt",
         "data/001_8e68847c21c72d28.txt"],
        ["import", "--game", "Berserk", "data/004_ef987a4e02cf8b4c.txt"],
        ["import", "data"],
        ["import", "--game", "Rules Test", "--format", "numbered-rules",
         "rules.txt"],
    ]
    for s in steps:
        st, out, err = run(rulings, ["--db", "q.db"] + s, env, tmp)
        if st != 0:
            sys.exit("run.py: %s failed (%d): %s" % (" ".join(s), st, err))


def parse_cases(text):
    """The text before the cases (up to the blank line before the first),
    and the cases: [comment lines, arguments, expected lines]. A case is
    its comment lines, its "> " line, then its expected lines up to a
    blank line."""
    lines = text.split("\n")
    first = next((i for i, l in enumerate(lines) if l.startswith("> ")),
                  len(lines))
    start = first
    while start > 0 and lines[start - 1] != "":
        start -= 1
    lead, cases, pending, cur = lines[:start], [], [], None
    for line in lines[start:]:
        if line.startswith("> "):
            cur = [pending, line[2:], []]
            cases.append(cur)
            pending = []
        elif cur is not None and line != "":
            cur[2].append(line)
        else:
            cur = None
            if line.startswith("#") or (line == "" and pending):
                pending.append(line)
    for c in cases:
        while c[0] and c[0][-1] == "":
            c[0].pop()
    return lead, cases


def actual(rulings, args, env, tmp):
    st, out, err = run(rulings, ["--db", "q.db", "search", "--explain"]
                       + shlex.split(args), env, tmp)
    lines = out.rstrip("\n").split("\n") if out else []
    lines += ["stderr: " + e for e in err.rstrip("\n").split("\n") if e]
    if st:
        lines.append("exit: %d" % st)
    return lines


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: run.py RULINGS SOURCE_ROOT [CASE-NUMBER...]")
    rulings = os.path.abspath(sys.argv[1])
    root = os.path.abspath(sys.argv[2])
    only = {int(a) for a in sys.argv[3:]}
    path = os.path.join(root, "tests", "query", "cases.txt")
    with open(path, encoding="utf-8") as f:
        lead, cases = parse_cases(f.read())
    update = os.environ.get("UPDATE_GOLDEN", "0") not in ("", "0")
    env = dict(os.environ, LC_ALL="C.UTF-8")
    for k in ("RULINGS_DB", "NO_COLOR"):
        env.pop(k, None)
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="rulings-query.") as tmp:
        env["HOME"] = tmp
        env["XDG_DATA_HOME"] = tmp
        build_db(rulings, root, tmp, env)
        for i, c in enumerate(cases, 1):
            if only and i not in only:
                continue
            got = actual(rulings, c[1], env, tmp)
            if got == c[2]:
                passed += 1
                print("ok %d - %s" % (i, c[1]))
                continue
            if update:
                c[2] = got
                print("updated %d - %s" % (i, c[1]))
                passed += 1
                continue
            failed += 1
            print("FAIL %d - %s" % (i, c[1]))
            for line in c[2]:
                if line not in got:
                    print("    - " + line)
            for line in got:
                if line not in c[2]:
                    print("    + " + line)
    if update:
        out = "\n".join(lead).rstrip("\n") + "\n"
        for c in cases:
            out += "\n" + "\n".join(c[0] + ["> " + c[1]] + c[2]) + "\n"
        with open(path, "w", encoding="utf-8") as f:
            f.write(out)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

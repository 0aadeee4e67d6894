"""A version 2 of the Defend seed page (data/001_…): one answer edited,
one entry gone (withdrawn), one new with markup characters in its answer.
Used by the tests of changes (feeds, changes.html).

    python3 defend-v2.py SEED OUT
"""
import sys

text = open(sys.argv[1], encoding="utf-8").read()
v2 = text.replace("Effects of innate powers are cumulative",
                  "Effects of innate powers always stack")
start = v2.index("• Do Defend effects stack normally")
end = v2.index("• If you use Encompassing Ward")
v2 = v2[:start] + v2[end:]
v2 = v2.rstrip("\n") + ("\n• Is Defend a Power?\n"
                        "  No, it is a <keyword> & more.\n  Tags: Defend\n")
open(sys.argv[2], "w", encoding="utf-8").write(v2)
